import { forumCategoryName } from "~/lib/forum";
import { roleLabels } from "~/lib/roles";
import type { Actor } from "../auth/actor";
import type { Database } from "../db/client";
import { searchThreads } from "../forum";
import { listAvailableCourses } from "../learning";
import { canManageUsers, listUsers } from "../users";

/**
 * The top bar's search, a read model over the capabilities that own what it finds: courses (the
 * catalogue as the person sees it), forum threads they may read, and, for administrators, people.
 * Each section asks its capability, which applies its own rules; every search ignores accents and
 * case (containsText).
 */

export const SEARCH_SECTION_LIMIT = 5;

export type SearchHit = { title: string; detail: string; href: string };
export type SearchSection = { key: "formations" | "forum" | "personnes"; label: string; hits: SearchHit[]; more: string | null };

export async function globalSearch(db: Database, actor: Actor, q: string, limit = SEARCH_SECTION_LIMIT): Promise<SearchSection[]> {
  const text = q.trim();
  if (!text) return [];
  const [courses, threads, people] = await Promise.all([
    listAvailableCourses(db, actor, { q: text }),
    searchThreads(db, actor, text, limit),
    canManageUsers(actor) ? listUsers(db, actor, { q: text }) : null,
  ]);
  const sections: SearchSection[] = [
    {
      key: "formations",
      label: "Formations",
      hits: courses.slice(0, limit).map((course) => {
        const followed = course.enrolmentStatus === "active" || course.enrolmentStatus === "completed";
        return {
          title: course.title,
          detail: followed ? `${course.categoryName} · Vous suivez cette formation` : `${course.categoryName} · ${course.levelName}`,
          href: followed ? `/dashboard/formations/${course.slug}` : `/formations/${course.slug}`,
        };
      }),
      more: courses.length > limit ? `/dashboard/formations?q=${encodeURIComponent(text)}` : null,
    },
    {
      key: "forum",
      label: "Forum",
      hits: threads.map((thread) => ({
        title: thread.title,
        detail: `${forumCategoryName(thread.category)} · ${thread.replyCount} réponse${thread.replyCount >= 2 ? "s" : ""}`,
        href: `/dashboard/forum/${thread.id}`,
      })),
      more: threads.length >= limit ? `/dashboard/forum?q=${encodeURIComponent(text)}` : null,
    },
  ];
  if (people) {
    sections.push({
      key: "personnes",
      label: "Personnes",
      hits: people.users.slice(0, limit).map((person) => ({
        title: `${person.firstName} ${person.lastName}`.trim() || person.email,
        detail: `${roleLabels[person.role]} · ${person.email}`,
        href: `/admin/users?q=${encodeURIComponent(person.email)}`,
      })),
      more: people.total > limit ? `/admin/users?q=${encodeURIComponent(text)}` : null,
    });
  }
  return sections;
}
