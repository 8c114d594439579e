import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import type * as schema from "./schema";

/** The database every capability receives, the same type on PGlite and on a PostgreSQL pool (./client.ts opens it). */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;
