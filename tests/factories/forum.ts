import type { Database } from "~/.server/db/client";
import { createThread as publishThread, replyToThread } from "~/.server/forum";
import type { ForumCategory } from "~/lib/forum";
import type { TestUser } from "./users";

let counter = 0;

/** A forum thread by `author`, through the forum capability (its rate limit included: tests stay under it). */
export async function createThread(
  db: Database,
  author: Pick<TestUser, "id" | "role">,
  overrides: { title?: string; body?: string; category?: ForumCategory; now?: Date } = {},
) {
  counter++;
  return publishThread(
    db,
    author,
    {
      title: overrides.title ?? `Sujet ${counter}`,
      body: overrides.body ?? "Une question sur le cours.",
      category: overrides.category ?? "questions-generales",
    },
    overrides.now,
  );
}

/** A reply by `author` to `thread`. */
export async function createReply(
  db: Database,
  author: Pick<TestUser, "id" | "role">,
  thread: { id: number },
  body = "Merci, bonne question !",
) {
  return replyToThread(db, author, thread.id, { body });
}
