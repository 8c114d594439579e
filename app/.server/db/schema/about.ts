/**
 * Owner: the about capability (app/.server/about): the about page's editorial content.
 */
import { integer, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";

/**
 * The about page's editorial content (/a-propos), stored so that every figure on the page comes
 * from the database and the institute can edit it without a deployment. Each row has a stable
 * `key` so the seed can insert with ON CONFLICT DO NOTHING and never overwrite later edits.
 */

/** The institute's highlight figures: "2 500+ Étudiants formés" is value 2500, suffix "+". */
export const instituteHighlights = pgTable("institute_highlights", {
  id: serial("id").primaryKey(),
  key: text("key").notNull().unique(),
  value: integer("value").notNull(),
  suffix: text("suffix").notNull().default(""),
  label: text("label").notNull(),
  position: integer("position").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/** The leadership cards. */
export const teamMembers = pgTable("team_members", {
  id: serial("id").primaryKey(),
  key: text("key").notNull().unique(),
  name: text("name").notNull(),
  role: text("role").notNull(),
  expertise: text("expertise").notNull(),
  experienceYears: integer("experience_years").notNull(),
  projectsCount: integer("projects_count").notNull(),
  description: text("description").notNull(),
  specialties: text("specialties").array().notNull().default([]),
  achievement: text("achievement").notNull(),
  position: integer("position").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/** The quotes that rotate on the about page. */
export const quotes = pgTable("quotes", {
  id: serial("id").primaryKey(),
  key: text("key").notNull().unique(),
  text: text("text").notNull(),
  author: text("author").notNull(),
  authorRole: text("author_role").notNull(),
  position: integer("position").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
