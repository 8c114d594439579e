import { eq } from "drizzle-orm";
import type { Database } from "../db/client";
import { certificates } from "../db/schema";

/**
 * A deleted account's certificates stay valid (an employer may still check a code the holder
 * gave them, the revocation list keeps its bit), but no longer name the holder: `holderName`
 * replaces the name copied at issue, and the stored signed credential, whose payload names the
 * holder, is emptied. The holder's own copy still verifies against the published keys
 * (docs/decisions/0045-account-deletion.md).
 */
export async function anonymiseCertificateHolder(tx: Database, userId: string, holderName: string): Promise<number> {
  const changed = await tx
    .update(certificates)
    .set({ learnerName: holderName, credential: "" })
    .where(eq(certificates.userId, userId))
    .returning({ id: certificates.id });
  return changed.length;
}
