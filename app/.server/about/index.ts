import { asc } from "drizzle-orm";
import { cachedRead } from "../cache";
import type { Database } from "../db/client";
import { instituteHighlights, quotes, teamMembers } from "../db/schema";

/** The institute's highlight figures in display order ("2 500+ Étudiants formés"). */
export async function listHighlights(db: Database) {
  return db
    .select({
      id: instituteHighlights.id,
      value: instituteHighlights.value,
      suffix: instituteHighlights.suffix,
      label: instituteHighlights.label,
    })
    .from(instituteHighlights)
    .orderBy(asc(instituteHighlights.position), asc(instituteHighlights.id));
}

/** The leadership cards in display order. */
export async function listTeamMembers(db: Database) {
  return db
    .select({
      id: teamMembers.id,
      name: teamMembers.name,
      role: teamMembers.role,
      expertise: teamMembers.expertise,
      experienceYears: teamMembers.experienceYears,
      projectsCount: teamMembers.projectsCount,
      description: teamMembers.description,
      specialties: teamMembers.specialties,
      achievement: teamMembers.achievement,
    })
    .from(teamMembers)
    .orderBy(asc(teamMembers.position), asc(teamMembers.id));
}

/** The rotating quotes in display order. */
export async function listQuotes(db: Database) {
  return db
    .select({ id: quotes.id, text: quotes.text, author: quotes.author, authorRole: quotes.authorRole })
    .from(quotes)
    .orderBy(asc(quotes.position), asc(quotes.id));
}

export type Highlight = Awaited<ReturnType<typeof listHighlights>>[number];
export type TeamMember = Awaited<ReturnType<typeof listTeamMembers>>[number];
export type Quote = Awaited<ReturnType<typeof listQuotes>>[number];

export interface AboutPage {
  highlights: Highlight[];
  leaders: TeamMember[];
  quotes: Quote[];
}

/** Everything /a-propos shows besides the institute's identity, read in parallel. */
export async function getAboutPage(db: Database): Promise<AboutPage> {
  return cachedRead(db, "about-page", ["institute_highlights", "team_members", "quotes"], async () => {
    const [highlights, leaders, quoteRows] = await Promise.all([listHighlights(db), listTeamMembers(db), listQuotes(db)]);
    return { highlights, leaders, quotes: quoteRows };
  });
}
