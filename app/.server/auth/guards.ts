import { redirect, type RouterContextProvider } from "react-router";
import { authContext, sessionContext } from "../context";
import { resolveSession, type SessionUser } from "./session";

export type { SessionUser } from "./session";

export interface GuardArgs {
  request: Request;
  context: Readonly<RouterContextProvider>;
}

const cache = new WeakMap<object, Promise<SessionUser | null>>();

/**
 * The signed-in user of this request, or null. The Express app resolves the session once per
 * request (and forwards refreshed cookies); without it (tests calling a loader directly) the
 * session is looked up here, once per context.
 */
export function getOptionalUser({ request, context }: GuardArgs): Promise<SessionUser | null> {
  const preloaded = context.get(sessionContext);
  if (preloaded) return preloaded;
  let pending = cache.get(context);
  if (!pending) {
    pending = (async () => {
      const auth = context.get(authContext);
      const { user } = await resolveSession(auth, request.headers);
      return user;
    })();
    cache.set(context, pending);
  }
  return pending;
}

/** Where an anonymous visitor goes to sign in, coming back to `request`'s page afterwards. */
export function signInUrlFor(request: Request): string {
  const url = new URL(request.url);
  // Data requests (.data) are not pages: come back to the page itself.
  const pathname = url.pathname.replace(/\.data$/, "") || "/";
  url.searchParams.delete("_routes");
  const search = url.searchParams.toString();
  const back = `${pathname}${search ? `?${search}` : ""}`;
  return `/auth?redirectTo=${encodeURIComponent(back)}`;
}

/**
 * The signed-in user; anonymous visitors are sent to /auth?redirectTo=<this page>. Routes do not
 * call it: the signed-in layouts' middleware does (app/.server/auth/middleware.ts).
 */
export async function requireUser(args: GuardArgs): Promise<SessionUser> {
  const user = await getOptionalUser(args);
  if (!user) throw redirect(signInUrlFor(args.request));
  return user;
}

/** For /auth: a signed-in visitor has nothing to do there and goes to the dashboard. */
export async function requireAnonymous(args: GuardArgs): Promise<void> {
  const user = await getOptionalUser(args);
  if (user) throw redirect("/dashboard");
}
