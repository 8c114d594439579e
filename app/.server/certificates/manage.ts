import { and, asc, desc, eq, sql, type SQL } from "drizzle-orm";
import type { Actor } from "../auth/actor";
import type { Database } from "../db/client";
import { containsText } from "../db/like";
import { certificates, users } from "../db/schema";
import { AppError } from "../errors";
import { notifyUser } from "../notifications";
import { certificateFacts, insertCertificate } from "./issue";
import { canManageCertificates } from "./policy";
import { publicView } from "./read";
import type { Certificates } from "./services";

/** The admin list: every certificate, searched by code, learner or course, newest first. */
export async function listAllCertificates(db: Database, actor: Actor, filters: { q?: string; statut?: string } = {}, now = new Date()) {
  if (!canManageCertificates(actor)) throw AppError.notFound("Page introuvable.");
  const conditions: SQL[] = [];
  const q = filters.q?.trim();
  if (q) conditions.push(containsText(q, certificates.code, certificates.learnerName, certificates.courseTitle));
  if (filters.statut === "revoque") conditions.push(eq(certificates.status, "revoked"));
  if (filters.statut === "valide")
    conditions.push(
      and(
        eq(certificates.status, "valid"),
        sql`(${certificates.validUntil} is null or ${certificates.validUntil} > ${now.toISOString()}::timestamptz)`,
      )!,
    );
  if (filters.statut === "expire")
    conditions.push(and(eq(certificates.status, "valid"), sql`${certificates.validUntil} <= ${now.toISOString()}::timestamptz`)!);
  const rows = await db
    .select({ certificate: certificates, email: users.email, currentFirstName: users.firstName, currentLastName: users.lastName })
    .from(certificates)
    .leftJoin(users, eq(certificates.userId, users.id))
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(desc(certificates.issuedAt), asc(certificates.code))
    .limit(500);
  return rows.map((row) => {
    const currentName = row.currentFirstName !== null ? `${row.currentFirstName} ${row.currentLastName ?? ""}`.trim() : null;
    return {
      ...publicView(row.certificate, now),
      email: row.email,
      currentName,
      nameChanged: currentName !== null && currentName !== row.certificate.learnerName,
    };
  });
}

/** "Révoquer" with a reason: the verification page then says so; the revocation list publishes it. Once. */
export async function revokeCertificate(db: Database, actor: Actor, id: string, reason: string, now = new Date()) {
  if (!canManageCertificates(actor)) throw AppError.notFound("Certificat introuvable.");
  const text = reason.trim();
  if (text.length < 3) throw AppError.invalid({ reason: "Indiquez la raison de la révocation." });
  if (text.length > 500) throw AppError.invalid({ reason: "500 caractères au plus." });
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(certificates).where(eq(certificates.id, id)).for("update");
    if (!row) throw AppError.notFound("Certificat introuvable.");
    if (row.status === "revoked") throw AppError.conflict("Ce certificat est déjà révoqué.", "already_revoked");
    const [revoked] = await tx
      .update(certificates)
      .set({ status: "revoked", revokedAt: now, revokedReason: text, revokedBy: actor.id })
      .where(eq(certificates.id, id))
      .returning();
    // The holder must know (by e-mail whatever their settings): once, the key making a replay a no-op.
    if (row.userId)
      await notifyUser(tx, {
        userId: row.userId,
        kind: "certificate_revoked",
        title: "Certificat révoqué",
        body: `Votre certificat « ${row.courseTitle} » (n° ${row.code}) a été révoqué par l'institut. Motif : « ${text} ». Il n'atteste plus rien et ne peut plus être téléchargé ni partagé ; pour toute question, contactez l'institut.`,
        link: "/dashboard/certificates",
        key: `certificate-revoked:${row.id}`,
        now,
      });
    return revoked!;
  });
}

/**
 * "Réémettre" after the learner's name was corrected: the old certificate is revoked (replaced)
 * and a new one, with the current name and the same course, score and dates, is issued and
 * signed. Only when the name really changed, so a second click does nothing more.
 */
export async function reissueCertificate(db: Database, services: Certificates, actor: Actor, id: string, now = new Date()) {
  if (!canManageCertificates(actor)) throw AppError.notFound("Certificat introuvable.");
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(certificates).where(eq(certificates.id, id)).for("update");
    if (!row || !row.userId || !row.courseId) throw AppError.notFound("Certificat introuvable.");
    if (row.replacedAt) throw AppError.conflict("Ce certificat a déjà été remplacé.", "already_replaced");
    const facts = await certificateFacts(tx, row.userId, row.courseId);
    if (!facts) throw AppError.notFound("Certificat introuvable.");
    if (facts.learnerName === row.learnerName)
      throw AppError.conflict("Le nom de l'apprenant n'a pas changé : rien à corriger.", "same_name");
    await tx
      .update(certificates)
      .set({
        replacedAt: now,
        status: "revoked",
        revokedAt: row.revokedAt ?? now,
        revokedReason: row.revokedReason ?? "Remplacé par un nouveau certificat après correction du nom.",
        revokedBy: row.revokedBy ?? actor.id,
      })
      .where(eq(certificates.id, id));
    const replacement = await insertCertificate(tx, services, {
      userId: row.userId,
      courseId: row.courseId,
      learnerName: facts.learnerName,
      learnerEmail: facts.learnerEmail,
      courseTitle: row.courseTitle,
      courseDescription: facts.course.description,
      courseSlug: facts.course.slug,
      instructorName: row.instructorName,
      issuedAt: row.issuedAt,
      validUntil: row.validUntil,
      score: row.score,
      credits: row.credits,
      skills: row.skills,
      replacesId: row.id,
    });
    return replacement!;
  });
}
