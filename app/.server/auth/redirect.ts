/**
 * Where to send a visitor after signing in: only a path of this site ("/dashboard/profile?x=1").
 * Absolute URLs, protocol-relative ("//evil.example"), backslash tricks ("/\\evil.example"),
 * control characters and /auth itself fall back to `fallback`.
 */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = "/dashboard"): string {
  if (typeof to !== "string" || !to) return fallback;
  const value = to.trim();
  if (!value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return fallback;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(value)) return fallback;
  if (value.length > 2048) return fallback;
  let url: URL;
  try {
    url = new URL(value, "http://campus.invalid");
  } catch {
    return fallback;
  }
  if (url.origin !== "http://campus.invalid") return fallback;
  if (url.pathname === "/auth" || url.pathname.startsWith("/auth/") || url.pathname.startsWith("/api/")) return fallback;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** Builds a Headers object carrying `setCookies`, for a redirect or a data response. */
export function cookieHeaders(setCookies: string[], init?: HeadersInit): Headers {
  const headers = new Headers(init);
  for (const cookie of setCookies) headers.append("Set-Cookie", cookie);
  return headers;
}
