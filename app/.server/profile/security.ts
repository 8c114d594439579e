import QRCode from "qrcode";

/** The error code of a Better Auth APIError (`error.body.code`), or null for anything else. */
export function authErrorCode(error: unknown): string | null {
  const body = (error as { body?: { code?: unknown } } | null)?.body;
  return typeof body?.code === "string" ? body.code : null;
}

export function authErrorMessage(error: unknown): string | null {
  const body = (error as { body?: { message?: unknown } } | null)?.body;
  return typeof body?.message === "string" ? body.message : null;
}

/** The policy's reasons when Better Auth refused a new password (authD's PASSWORD_POLICY hook). */
export function passwordPolicyReasonsOf(error: unknown): string[] | null {
  if (authErrorCode(error) !== "PASSWORD_POLICY") return null;
  const body = (error as { body?: { reasons?: unknown; message?: unknown } }).body;
  if (Array.isArray(body?.reasons)) return body.reasons.map(String);
  return typeof body?.message === "string" ? [body.message] : [];
}

/** The base32 secret inside an otpauth:// URI, grouped by 4 for reading ("ABCD EFGH ..."). */
export function totpSecretOf(totpURI: string): string | null {
  try {
    const secret = new URL(totpURI).searchParams.get("secret");
    return secret ? secret.replace(/(.{4})(?=.)/g, "$1 ") : null;
  } catch {
    return null;
  }
}

/** The QR code of an otpauth:// URI as an inline SVG string (no image request, no script). */
export async function qrCodeSvg(text: string): Promise<string> {
  return QRCode.toString(text, { type: "svg", margin: 2, errorCorrectionLevel: "M", color: { dark: "#0f172a", light: "#ffffff" } });
}

/** Set-Cookie values of a Better Auth response, to forward to the browser (new session cookies). */
export function setCookiesOf(headers: Headers | null | undefined): Headers {
  const forwarded = new Headers();
  for (const cookie of headers?.getSetCookie?.() ?? []) forwarded.append("Set-Cookie", cookie);
  return forwarded;
}
