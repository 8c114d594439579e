import { createHash } from "node:crypto";
import type { Database } from "./database";

interface Preparable {
  prepare(name: string): unknown;
  toSQL(): { sql: string };
}

/**
 * A read that drizzle builds once per database instead of at every call, sent as a named
 * statement (docs/decisions/0041-prepared-learner-reads.md). For the reads of the pages learners
 * open over and over (their dashboard, their courses, a lesson): drizzle's builder takes about a
 * quarter of a millisecond and 100 KB of garbage per query on our machines, and PostgreSQL plans
 * an unnamed statement at every run (planning was most of these queries' database time). A named
 * statement is parsed once per connection and, after five runs, kept with a generic plan.
 *
 * `build` returns the query, with `sql.placeholder(...)` for the values of each call. Its
 * statement's name is `name` and a digest of its text: PostgreSQL keeps one text per name and
 * connection, and our PGlite server one text per name for every connection, so a query edited
 * while the server runs (`npm run dev`) gets a name of its own.
 * Only for short reads keyed by the actor or a page's ids, whose best plan does not depend on the
 * values: an aggregate over a range of dates stays an ordinary query, planned for its range.
 */
export function preparedQuery<Query extends Preparable>(
  name: string,
  build: (db: Database) => Query,
): (db: Database) => ReturnType<Query["prepare"]> {
  const byDatabase = new WeakMap<Database, ReturnType<Query["prepare"]>>();
  return (db) => {
    let prepared = byDatabase.get(db);
    if (prepared === undefined) {
      const query = build(db);
      const digest = createHash("sha1").update(query.toSQL().sql).digest("hex").slice(0, 12);
      prepared = query.prepare(`${name}_${digest}`) as ReturnType<Query["prepare"]>;
      byDatabase.set(db, prepared);
    }
    return prepared;
  };
}
