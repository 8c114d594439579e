import { isRouteErrorResponse } from "react-router";

/** What a loader or action amounts to: a redirect or Response, route data (and its status), or a thrown error response. */
export type RouteOutcome = { status: number; location?: string | null; data?: unknown; body?: string };

/** Runs a loader or action called directly and says what a browser would get. */
export async function routeOutcome(run: () => Promise<unknown>): Promise<RouteOutcome> {
  try {
    const value = await run();
    if (value instanceof Response) return { status: value.status, location: value.headers.get("location"), body: await value.text() };
    // data(value, { status }) returns its init alongside the value.
    if (value && typeof value === "object" && "init" in value && "data" in value) {
      const wrapped = value as { data: unknown; init: { status?: number } | null };
      return { status: wrapped.init?.status ?? 200, data: wrapped.data };
    }
    return { status: 200, data: value };
  } catch (thrown) {
    if (thrown instanceof Response) return { status: thrown.status, location: thrown.headers.get("location") };
    if (isRouteErrorResponse(thrown)) return { status: thrown.status };
    if (thrown && typeof thrown === "object" && "init" in thrown) return { status: (thrown as { init: { status: number } }).init.status };
    throw thrown;
  }
}
