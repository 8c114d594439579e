import { createContext } from "react-router";
import type { Database } from "./db/client";
import type { Env } from "./env";
import type { Auth } from "./auth/auth";
import type { SessionUser } from "./auth/session";

/** The database handle reaches loaders and actions through the router context, never a global. */
export const dbContext = createContext<Database>();
export const envContext = createContext<Env>();
/** The client's address as Express resolved it (honouring TRUST_PROXY). */
export const clientIpContext = createContext<string>("unknown");
/** This request's id (X-Request-Id): in the server log beside its errors, and on the error page. */
export const requestIdContext = createContext<string>("");
/**
 * The per-request nonce of the Content-Security-Policy; `app/entry.server.tsx` gives it to
 * <ServerRouter nonce>, which puts it on every script React Router renders. Empty in tests.
 */
export const cspNonceContext = createContext<string>("");
/** The Better Auth instance (app/.server/auth/auth.ts), created once by the Express app. */
export const authContext = createContext<Auth>();
/**
 * The session of this request, resolved once by the Express app (app/.server/auth/express.ts);
 * read it through `getOptionalUser` (app/.server/auth/guards.ts), or `userContext` below.
 */
export const sessionContext = createContext<Promise<SessionUser | null> | null>(null);
/**
 * The signed-in user (an Actor), set by the guard middleware of the signed-in layouts
 * (app/.server/auth/middleware.ts): a loader or action under /dashboard, /admin or /teacher reads
 * it with `context.get(userContext)`. Reading it where no guard ran throws (a programming error).
 */
export const userContext = createContext<SessionUser>();
