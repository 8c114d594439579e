/**
 * Creates the first administrator (or promotes an existing account), then e-mails them a link to
 * choose their password (over SMTP_URL, or into the outbox and this terminal without it). Works
 * with CAMPUS_MODE=production, on PGlite (stop the server first: it holds DATA_DIR) or PostgreSQL.
 *
 *   npm run create-admin -- --email direction@icef.ml --first-name Awa --last-name Traoré
 *   echo "une phrase de passe" | npm run create-admin -- --email … --first-name … --last-name … --password-stdin
 */
import { parseArgs } from "node:util";
import { eq } from "drizzle-orm";
import { z } from "zod";
import { createAccount, newAccountId } from "../app/.server/auth/accounts";
import { createCampusAuth } from "../app/.server/auth/express";
import { checkPassword, hashPassword, passwordContextWords } from "../app/.server/auth/password";
import { createPasswordSetupUrl } from "../app/.server/auth/password-setup";
import { openDatabase } from "../app/.server/db/client";
import { accounts, users } from "../app/.server/db/schema";
import { seedDatabase } from "../app/.server/db/seed";
import { loadEnv } from "../app/.server/env";
import { invitationMail, loadInstituteIdentity, sendMail } from "../app/.server/mail";

const usage = "Usage : npm run create-admin -- --email adresse@exemple.ml --first-name Prénom --last-name Nom [--password-stdin]";

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString("utf8")
    .replace(/\r?\n$/, "");
}

async function main() {
  const { values } = parseArgs({
    options: {
      email: { type: "string" },
      "first-name": { type: "string" },
      "last-name": { type: "string" },
      "password-stdin": { type: "boolean", default: false },
    },
  });
  const input = z
    .object({
      email: z.string({ error: "--email est obligatoire" }).trim().toLowerCase().pipe(z.email("--email n'est pas une adresse valide")),
      firstName: z.string({ error: "--first-name est obligatoire" }).trim().min(1, "--first-name est obligatoire"),
      lastName: z.string({ error: "--last-name est obligatoire" }).trim().min(1, "--last-name est obligatoire"),
    })
    .safeParse({ email: values.email, firstName: values["first-name"], lastName: values["last-name"] });
  if (!input.success) {
    console.error(`${input.error.issues.map((issue) => issue.message).join("\n")}\n${usage}`);
    process.exit(2);
  }
  const { email, firstName, lastName } = input.data;
  let password: string | null = null;
  if (values["password-stdin"]) {
    password = await readStdin();
  }

  const env = loadEnv();
  const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
  try {
    await seedDatabase(database.db);
    const db = database.db;
    if (password !== null) {
      const reasons = checkPassword(password, { email, contextWords: await passwordContextWords(db) });
      if (reasons.length) {
        console.error(`Mot de passe refusé : ${reasons.join(" ")}`);
        await database.close();
        process.exit(2);
      }
    }
    const [existing] = await db.select().from(users).where(eq(users.email, email)).limit(1);
    let userId: string;
    if (existing) {
      userId = existing.id;
      await db
        .update(users)
        .set({ role: "admin", emailVerified: true, banned: false, bannedAt: null, updatedAt: new Date() })
        .where(eq(users.id, userId));
      console.log(`Compte existant ${email} : il est maintenant administrateur.`);
    } else {
      // The one way accounts are created; with a password, it is stored with the account.
      ({ id: userId } = await createAccount(db, {
        email,
        firstName,
        lastName,
        role: "admin",
        emailVerified: true,
        ...(password ? { password } : {}),
      }));
      console.log(`Administrateur créé : ${firstName} ${lastName} <${email}>.`);
      if (password) {
        console.log("Mot de passe enregistré. Connectez-vous sur /auth.");
        return;
      }
    }

    if (password) {
      const hash = await hashPassword(password);
      const [credential] = await db.select().from(accounts).where(eq(accounts.userId, userId)).limit(1);
      if (credential && credential.providerId === "credential") {
        await db.update(accounts).set({ password: hash, updatedAt: new Date() }).where(eq(accounts.id, credential.id));
      } else {
        const now = new Date();
        await db.insert(accounts).values({
          id: newAccountId(),
          accountId: userId,
          providerId: "credential",
          userId,
          password: hash,
          createdAt: now,
          updatedAt: now,
        });
      }
      console.log("Mot de passe enregistré. Connectez-vous sur /auth.");
      return;
    }

    const { auth, settings, mailEnv } = createCampusAuth({ db, env });
    const url = await createPasswordSetupUrl(auth, settings.publicUrl, userId);
    const identity = await loadInstituteIdentity(db);
    const sent = await sendMail(
      db,
      { ...mailEnv, LOG_LEVEL: "silent" },
      invitationMail({ to: email, firstName, url, roleLabel: "Administrateur", identity }),
    );
    console.log(
      sent.via === "smtp"
        ? `Un e-mail a été envoyé à ${email} avec un lien pour choisir le mot de passe (valable 7 jours).`
        : `Pas de SMTP_URL : l'e-mail est gardé dans la table mail_outbox. Lien pour choisir le mot de passe (valable 7 jours) :\n  ${url}`,
    );
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
