import { randomBytes } from "node:crypto";
import { createCookieSessionStorage, redirect } from "react-router";
import { z } from "zod";
import type { ToastMessage } from "~/components/ui/toaster";
import { resolveAuthSecret } from "./auth/config";

/**
 * Toasts carried by a cookie across a redirect (the Epic Stack's pattern): an action calls
 * `redirectWithToast`, the next page's layout loader calls `getToast`, shows it once and clears it.
 * Works without JavaScript too (the layout also renders the message in <noscript>).
 */

const toastSchema = z.object({
  id: z.string().min(1).max(64),
  type: z.enum(["success", "error"]),
  title: z.string().min(1).max(200),
  description: z.string().max(500).optional(),
});

export type ToastInput = Omit<ToastMessage, "id"> & { id?: string };

const TOAST_KEY = "toast";

// The cookie is signed so that nobody can plant a message in someone else's page, with Better
// Auth's secret: BETTER_AUTH_SECRET (required in production) or a trial's DATA_DIR/auth-secret.
let storage: ReturnType<typeof createStorage> | null = null;

function signingSecret(): string {
  return resolveAuthSecret({ secret: process.env.BETTER_AUTH_SECRET, production: false, dataDir: process.env.DATA_DIR || "./data" });
}

function createStorage() {
  const secret = signingSecret();
  return createCookieSessionStorage<Record<string, never>, { [TOAST_KEY]: ToastMessage }>({
    cookie: {
      name: "campus_toast",
      path: "/",
      httpOnly: true,
      sameSite: "lax",
      secure: (process.env.PUBLIC_URL ?? "").startsWith("https://"),
      secrets: [secret],
    },
  });
}

function toastStorage() {
  storage ??= createStorage();
  return storage;
}

/** Merges several header sets; Set-Cookie values are appended, not overwritten. */
export function combineHeaders(...sources: Array<HeadersInit | null | undefined>): Headers {
  const combined = new Headers();
  for (const source of sources) {
    if (!source) continue;
    for (const [key, value] of new Headers(source).entries()) combined.append(key, value);
  }
  return combined;
}

/** A Set-Cookie header holding the toast for the next page rendered. */
export async function createToastHeaders(input: ToastInput): Promise<Headers> {
  const toast = toastSchema.parse({ ...input, id: input.id ?? randomBytes(8).toString("hex") });
  const session = await toastStorage().getSession();
  session.flash(TOAST_KEY, toast);
  return new Headers({ "Set-Cookie": await toastStorage().commitSession(session) });
}

/** `redirect(url)` with a toast for the page it leads to. */
export async function redirectWithToast(url: string, toast: ToastInput, init?: ResponseInit): Promise<Response> {
  return redirect(url, { ...init, headers: combineHeaders(init?.headers, await createToastHeaders(toast)) });
}

/**
 * The pending toast (or null) and, when there was one, a Set-Cookie header that clears it:
 * return that header from the loader so the toast is shown only once.
 */
export async function getToast(request: Request): Promise<{ toast: ToastMessage | null; headers: Headers | null }> {
  const cookieHeader = request.headers.get("Cookie");
  if (!cookieHeader?.includes("campus_toast=")) return { toast: null, headers: null };
  const session = await toastStorage().getSession(cookieHeader);
  const parsed = toastSchema.safeParse(session.get(TOAST_KEY));
  const toast = parsed.success ? parsed.data : null;
  return {
    toast,
    headers: new Headers({ "Set-Cookie": await toastStorage().destroySession(session) }),
  };
}
