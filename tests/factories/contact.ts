import { eq } from "drizzle-orm";
import { sendContactMessage } from "~/.server/contact";
import type { Database } from "~/.server/db/client";
import { contactMessages } from "~/.server/db/schema";

let sequence = 0;

export type ContactMessageOverrides = { name?: string; email?: string; subject?: string; message?: string; at?: Date };

/** A message sent through the contact form (the capability, from its own address so that no limit is hit). */
export async function createContactMessage(db: Database, overrides: ContactMessageOverrides = {}) {
  sequence += 1;
  const email = overrides.email ?? `visiteur-${sequence}-${Date.now()}@exemple.ml`;
  const result = await sendContactMessage(
    db,
    {
      name: overrides.name ?? `Visiteur ${sequence}`,
      email,
      subject: overrides.subject ?? "Renseignements généraux",
      message: overrides.message ?? "Bonjour, quelles sont les dates de la prochaine session ?",
    },
    { ip: `198.51.100.${sequence % 250}`, now: overrides.at },
  );
  if (!result.ok) throw new Error(`contact message refused: ${JSON.stringify(result)}`);
  const [row] = await db.select().from(contactMessages).where(eq(contactMessages.email, email));
  if (!row) throw new Error(`contact message from ${email} not stored`);
  return row;
}
