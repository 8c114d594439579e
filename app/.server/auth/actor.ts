import type { Role } from "~/lib/roles";

/**
 * Whoever acts, as every capability function takes it: the signed-in user as the guards return
 * it (only id and role matter). A role that failed to load is null and grants nothing.
 */
export type Actor = { id: string; role: Role | null };
