import { sql } from "drizzle-orm";
import { index, integer, jsonb, numeric, pgEnum, pgSequence, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { users } from "./auth";
import { courses } from "./courses";

/** Hands out each certificate's bit in the revocation list. */
export const certificateStatusIndexSequence = pgSequence("certificate_status_index_seq", { startWith: 0, minValue: 0 });

export const certificateStatus = pgEnum("certificate_status", ["valid", "revoked"]);
export const certificateGrade = pgEnum("certificate_grade", ["excellent", "tres_bien", "bien"]);

/**
 * A certificate the system issued when a learner met a course's completion rule (every lesson
 * done, every required quiz passed). What it states is copied at issue (names, course, score), so
 * it reads the same whatever changes later; a correction means revoking it and issuing a new one
 * (`replaces_id`). Expired is not stored: it is `valid_until` in the past. One current
 * certificate per learner and course (the partial unique index): issuing twice changes nothing.
 */
export const certificates = pgTable(
  "certificates",
  {
    /** A UUID: the credential's id (urn:uuid:…). */
    id: text("id").primaryKey(),
    /** What the learner shares and an employer types: "ICEF-7K3P-9QX2-M4TD" (hard to guess). */
    code: text("code").notNull().unique(),
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    courseId: integer("course_id").references(() => courses.id, { onDelete: "set null" }),
    learnerName: text("learner_name").notNull(),
    courseTitle: text("course_title").notNull(),
    instructorName: text("instructor_name"),
    issuedAt: timestamp("issued_at", { withTimezone: true }).notNull(),
    /** Null: never expires. */
    validUntil: timestamp("valid_until", { withTimezone: true }),
    /** The learner's best score on the course's quizzes that count (null: a course without quiz). */
    score: numeric("score", { precision: 5, scale: 2, mode: "number" }),
    grade: certificateGrade("grade"),
    /** One credit per hour of the course's lessons. */
    credits: integer("credits").notNull(),
    /** The course's objectives when issued. */
    skills: text("skills").array().notNull().default([]),
    status: certificateStatus("status").notNull().default("valid"),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    revokedReason: text("revoked_reason"),
    revokedBy: text("revoked_by").references(() => users.id, { onDelete: "set null" }),
    /** Set when a new certificate replaced this one (a corrected name). */
    replacedAt: timestamp("replaced_at", { withTimezone: true }),
    replacesId: text("replaces_id"),
    /** Its bit in the published revocation list (BitstringStatusList). */
    statusIndex: integer("status_index")
      .notNull()
      .unique()
      .default(sql`nextval('certificate_status_index_seq')`),
    /** The Open Badges 3.0 credential, signed (a compact JWS, VC-JWT). */
    credential: text("credential").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("certificates_current_idx")
      .on(table.userId, table.courseId)
      .where(sql`${table.replacedAt} is null`),
    index("certificates_course_idx").on(table.courseId),
  ],
);

/**
 * The institute's signing keys (Ed25519). The private key is stored encrypted with a key derived
 * from the application secret; the public key stays published (/certificats/cles/:kid) after a
 * rotation so that older credentials still verify. The newest key without `retired_at` signs.
 */
export const issuerKeys = pgTable("issuer_keys", {
  /** The key's JWK thumbprint (RFC 7638). */
  kid: text("kid").primaryKey(),
  publicJwk: jsonb("public_jwk").$type<Record<string, string>>().notNull(),
  /** AES-256-GCM of the private JWK: iv.tag.ciphertext, base64url. */
  encryptedPrivateJwk: text("encrypted_private_jwk").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  retiredAt: timestamp("retired_at", { withTimezone: true }),
});
