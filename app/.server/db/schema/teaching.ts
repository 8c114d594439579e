/**
 * Owner: the teaching capability (app/.server/teaching): a teacher's public profile and where
 * their commissions are paid. Finance reads the payout details through teaching's index.ts.
 */
import { pgEnum, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "./auth";
import { files } from "./courses";

export const payoutMethod = pgEnum("payout_method", ["mobile_money", "bank"]);

export const teacherProfiles = pgTable("teacher_profiles", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  /** Shown on their course pages. */
  bio: text("bio").notNull().default(""),
  /** An uploaded photo (files.purpose = "teacher_photo"). */
  photoFileId: text("photo_file_id").references(() => files.id, { onDelete: "set null" }),
  /** Where commissions are paid; null: not given yet. */
  payoutMethod: payoutMethod("payout_method"),
  /** "orange_money" | "moov_money" | "wave" (app/lib/teaching.ts). */
  mobileMoneyOperator: text("mobile_money_operator"),
  /** E.164 ("+22370000000"). */
  mobileMoneyNumber: text("mobile_money_number"),
  bankName: text("bank_name"),
  bankAccountHolder: text("bank_account_holder"),
  /** The RIB or IBAN, spaces removed. */
  bankAccountNumber: text("bank_account_number"),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
