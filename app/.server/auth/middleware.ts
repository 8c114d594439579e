import { redirect, type MiddlewareFunction } from "react-router";
import { userContext } from "../context";
import { canTeach, isAdmin, type Actor } from "./actor";
import { requireUser } from "./guards";

/**
 * The guard of a signed-in area, as React Router middleware: it runs before every loader and action
 * of the routes below it (a data request for one route included), so a route cannot forget it.
 * Anonymous visitors go to /auth?redirectTo=<this page>; a signed-in user the rule refuses goes to
 * /dashboard. The user is then in the router context (`context.get(userContext)`).
 *
 *   // app/routes/admin/layout.tsx
 *   export const middleware = [signedIn(isAdmin)];
 */
export function signedIn(allowed: (actor: Actor) => boolean = () => true): MiddlewareFunction<Response> {
  return async (args) => {
    const user = await requireUser(args);
    if (!allowed(user)) throw redirect("/dashboard");
    args.context.set(userContext, user);
  };
}

/** /dashboard/*: any signed-in user. */
export const signedInUser = signedIn();
/** /teacher/* and the course form: teachers and administrators. */
export const signedInTeacher = signedIn(canTeach);
/** /admin/*: administrators. */
export const signedInAdmin = signedIn(isAdmin);
