/**
 * Owner: the catalogue capability (app/.server/catalogue): the institute's identity, the course
 * categories and levels (reference data, written by the seed and read everywhere).
 */
import { integer, jsonb, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";

/** The institute's identity: a single row (id 1) read by the header, footer and contact pages. */
export const institute = pgTable("institute", {
  id: integer("id").primaryKey().default(1),
  name: text("name").notNull(),
  shortName: text("short_name").notNull(),
  chamberName: text("chamber_name").notNull(),
  chamberAcronym: text("chamber_acronym").notNull(),
  tagline: text("tagline").notNull(),
  phones: text("phones").array().notNull(),
  email: text("email").notNull(),
  address: text("address").notNull(),
  openingHours: jsonb("opening_hours").$type<{ days: string; hours: string }[]>().notNull(),
  socialLinks: jsonb("social_links").$type<{ network: string; label: string; url: string }[]>().notNull(),
  mapsUrl: text("maps_url").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

export const categories = pgTable("categories", {
  id: serial("id").primaryKey(),
  slug: text("slug").notNull().unique(),
  name: text("name").notNull(),
  position: integer("position").notNull(),
});

export const levels = pgTable("levels", {
  id: serial("id").primaryKey(),
  slug: text("slug").notNull().unique(),
  name: text("name").notNull(),
  position: integer("position").notNull(),
});
