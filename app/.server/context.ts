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
/**
 * The per-request nonce of the Content-Security-Policy; `app/entry.server.tsx` gives it to
 * <ServerRouter nonce>, which puts it on every script React Router renders. Empty in tests.
 */
export const cspNonceContext = createContext<string>("");
/** The Better Auth instance (app/.server/auth/auth.ts), created once by the Express app. */
export const authContext = createContext<Auth>();
/**
 * The session of this request, resolved once by the Express app (app/.server/auth/express.ts);
 * read it through the guards of app/.server/auth/guards.ts, not directly.
 */
export const sessionContext = createContext<Promise<SessionUser | null> | null>(null);
