import { UAParser } from "ua-parser-js";

/** Dates are shown in the institute's time zone (Bamako, UTC+0), formatted on the server. */
export const TIME_ZONE = "Africa/Bamako";

const absolute = new Intl.DateTimeFormat("fr-FR", {
  timeZone: TIME_ZONE,
  day: "numeric",
  month: "long",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
});
const dayOnly = new Intl.DateTimeFormat("fr-FR", { timeZone: TIME_ZONE, day: "numeric", month: "long", year: "numeric" });
const relative = new Intl.RelativeTimeFormat("fr", { numeric: "auto" });

/** "12 mars 2026 à 14:05". */
export function formatDateTimeFr(date: Date): string {
  return absolute.format(date);
}

/** "12 mars 2026". */
export function formatDateFr(date: Date): string {
  return dayOnly.format(date);
}

/** "à l'instant", "il y a 5 minutes", "il y a 3 heures", "hier", "il y a 4 jours", then the date. */
export function formatRelativeFr(date: Date, now: Date = new Date()): string {
  const seconds = Math.round((now.getTime() - date.getTime()) / 1000);
  if (seconds < 60) return "à l'instant";
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return relative.format(-minutes, "minute");
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return relative.format(-hours, "hour");
  const days = Math.floor(hours / 24);
  if (days < 7) return relative.format(-days, "day");
  return `le ${formatDateFr(date)}`;
}

/** "Chrome sur Android", "Firefox sur Windows", "Safari sur iOS"; "Appareil inconnu" when unreadable. */
export function describeDevice(userAgent: string | null | undefined): string {
  if (!userAgent) return "Appareil inconnu";
  const result = UAParser(userAgent);
  const browser = result.browser.name?.replace(/^Mobile /, "");
  const os = result.os.name;
  if (browser && os) return `${browser} sur ${os}`;
  if (browser) return browser;
  if (os) return `Navigateur sur ${os}`;
  return "Appareil inconnu";
}

/** A phone, tablet or computer, for the icon beside a session. */
export function deviceKind(userAgent: string | null | undefined): "mobile" | "desktop" {
  if (!userAgent) return "desktop";
  const type = UAParser(userAgent).device.type;
  return type === "mobile" || type === "tablet" || type === "wearable" ? "mobile" : "desktop";
}
