/**
 * Dates as the institute writes them: French, in Bamako's time zone whatever the server's or the
 * browser's. Each text is assembled from its parts, so that a change in ICU's punctuation or
 * spaces (which differ between Node and browsers) never changes what a page or a PDF says.
 * Relative times take `now` from the caller (a loader's clock), never from the render.
 *
 *   formatDate(d)            "12 mars 2026", "1er avril 2026"
 *   formatShortDate(d)       "12 mars 2026", "3 janv. 2026"   (tables)
 *   formatDateTime(d)        "12 mars 2026 à 14:05"
 *   formatWeekdayDateTime(d) "jeudi 12 mars 2026 à 18:00"     (live sessions)
 *   formatNumericDate(d)     "12/03/2026"                      (CSV)
 *   formatNumericDateTime(d) "12/03/2026 14:05"                (CSV)
 *   formatMonth(d)           "mars", "janv."                   (chart axes)
 *   formatMonthYear(d)       "mars 2026"                       (monthly statements)
 *   formatTime(d)            "14:05"
 *   formatChatTime(d, now)   "14:05" today, "hier à 14:05", else "12 mars 2026 à 14:05" (messages)
 *   formatRelative(d, now)   "à l'instant", "il y a 5 minutes", "hier", "dans 3 jours", "le 12 mars 2026"
 *   formatUntil(d, now)      "jusqu'à 14:05" the same day, else "jusqu'au 4 décembre 2026 à 14:05" (deadlines)
 *   isoDay(d)                "2026-03-12"                      (file names)
 */

export const TIME_ZONE = "Africa/Bamako";

type Parts = { weekday: string; day: string; month: string; shortMonth: string; year: string; hour: string; minute: string };

const formatter = new Intl.DateTimeFormat("fr-FR", {
  timeZone: TIME_ZONE,
  weekday: "long",
  day: "numeric",
  month: "long",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
});
const shortMonthFormatter = new Intl.DateTimeFormat("fr-FR", { timeZone: TIME_ZONE, month: "short" });
const numericFormatter = new Intl.DateTimeFormat("fr-FR", {
  timeZone: TIME_ZONE,
  day: "2-digit",
  month: "2-digit",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  hourCycle: "h23",
});

function partsOf(date: Date): Parts {
  const parts = formatter.formatToParts(date);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? "";
  return {
    weekday: part("weekday"),
    day: part("day"),
    month: part("month"),
    shortMonth: shortMonthFormatter.format(date),
    year: part("year"),
    hour: part("hour"),
    minute: part("minute"),
  };
}

/** The calendar numbers of `date` in Bamako. */
function numericParts(date: Date) {
  const parts = numericFormatter.formatToParts(date);
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value ?? "0");
  return { year: part("year"), month: part("month"), day: part("day"), hour: part("hour"), minute: part("minute"), second: part("second") };
}

const dayOf = (parts: Parts) => (parts.day === "1" ? "1er" : parts.day);

/** "12 mars 2026", "1er avril 2026". */
export function formatDate(date: Date): string {
  const parts = partsOf(date);
  return `${dayOf(parts)} ${parts.month} ${parts.year}`;
}

/** "12 mars 2026", "3 janv. 2026": the abbreviated month, for narrow columns. */
export function formatShortDate(date: Date): string {
  const parts = partsOf(date);
  return `${dayOf(parts)} ${parts.shortMonth} ${parts.year}`;
}

/** "12 mars 2026 à 14:05". */
export function formatDateTime(date: Date): string {
  const parts = partsOf(date);
  return `${dayOf(parts)} ${parts.month} ${parts.year} à ${parts.hour}:${parts.minute}`;
}

/** "14:05". */
export function formatTime(date: Date): string {
  const parts = partsOf(date);
  return `${parts.hour}:${parts.minute}`;
}

/** When a message was sent, seen at `now`: "14:05" today, "hier à 14:05", otherwise the date and time. */
export function formatChatTime(date: Date, now: Date): string {
  const day = isoDay(date);
  if (day === isoDay(now)) return formatTime(date);
  if (day === isoDay(new Date(now.getTime() - 24 * 60 * 60 * 1000))) return `hier à ${formatTime(date)}`;
  return formatDateTime(date);
}

/** "jeudi 12 mars 2026 à 18:00". */
export function formatWeekdayDateTime(date: Date): string {
  const parts = partsOf(date);
  return `${parts.weekday} ${dayOf(parts)} ${parts.month} ${parts.year} à ${parts.hour}:${parts.minute}`;
}

const pad = (value: number, width = 2) => String(value).padStart(width, "0");

/** "12/03/2026". */
export function formatNumericDate(date: Date): string {
  const { year, month, day } = numericParts(date);
  return `${pad(day)}/${pad(month)}/${year}`;
}

/** "12/03/2026 14:05". */
export function formatNumericDateTime(date: Date): string {
  const { year, month, day, hour, minute } = numericParts(date);
  return `${pad(day)}/${pad(month)}/${year} ${pad(hour)}:${pad(minute)}`;
}

/** "mars 2026". */
export function formatMonthYear(date: Date): string {
  const parts = partsOf(date);
  return `${parts.month} ${parts.year}`;
}

/** "mars", "janv.": a month on a chart's axis. */
export function formatMonth(date: Date): string {
  return partsOf(date).shortMonth;
}

/** "2026-03-12": the day in Bamako, for file names and `<time dateTime>`. */
export function isoDay(date: Date): string {
  const { year, month, day } = numericParts(date);
  return `${year}-${pad(month)}-${pad(day)}`;
}

const relative = new Intl.RelativeTimeFormat("fr", { numeric: "auto" });

/**
 * How long ago (or how soon) `date` is, seen at `now`: "à l'instant", "il y a 5 minutes",
 * "il y a 3 heures", "hier", "il y a 4 jours", "dans 2 heures", "demain"; a week or more away,
 * the date itself ("le 12 mars 2026").
 */
export function formatRelative(date: Date, now: Date): string {
  const seconds = Math.round((date.getTime() - now.getTime()) / 1000);
  const sign = Math.sign(seconds);
  const away = Math.abs(seconds);
  if (away < 60) return "à l'instant";
  const minutes = Math.floor(away / 60);
  if (minutes < 60) return relative.format(sign * minutes, "minute");
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return relative.format(sign * hours, "hour");
  const days = Math.floor(hours / 24);
  if (days < 7) return relative.format(sign * days, "day");
  return `le ${formatDate(date)}`;
}

/** A deadline seen at `now`: "jusqu'à 14:05" the same day, else "jusqu'au 4 décembre 2026 à 14:05" (« au » before a day). */
export function formatUntil(date: Date, now: Date): string {
  return isoDay(date) === isoDay(now) ? `jusqu'à ${formatTime(date)}` : `jusqu'au ${formatDateTime(date)}`;
}

/**
 * When a conversation last moved, in a list's narrow column: as `formatRelative` within the week
 * ("il y a 3 heures", "hier"), then the short date ("3 mars", "3 mars 2025" in another year).
 */
export function formatListDate(date: Date, now: Date): string {
  if (Math.abs(now.getTime() - date.getTime()) < 7 * 24 * 60 * 60 * 1000) return formatRelative(date, now);
  const parts = partsOf(date);
  return parts.year === partsOf(now).year ? `${dayOf(parts)} ${parts.shortMonth}` : formatShortDate(date);
}

/** How far Bamako's clock is ahead of UTC at `date`, in milliseconds (0: Bamako keeps UTC all year). */
function zoneOffsetMs(date: Date): number {
  const { year, month, day, hour, minute, second } = numericParts(date);
  return Date.UTC(year, month - 1, day, hour, minute, second) - Math.floor(date.getTime() / 1000) * 1000;
}

/** Midnight in Bamako on the first day of `date`'s month, `monthsBack` months earlier. */
export function startOfMonth(date: Date, monthsBack = 0): Date {
  const { year, month } = numericParts(date);
  const utcMidnight = new Date(Date.UTC(year, month - 1 - monthsBack, 1));
  return new Date(utcMidnight.getTime() - zoneOffsetMs(utcMidnight));
}

/** The value of a `datetime-local` field showing `date` in Bamako: "2026-12-01T18:00". */
export function toDateTimeLocal(date: Date): string {
  const { hour, minute } = numericParts(date);
  return `${isoDay(date)}T${pad(hour)}:${pad(minute)}`;
}

/** A `datetime-local` value ("2026-12-01T18:00", seconds optional) read as Bamako time; null when it is not one. */
export function fromDateTimeLocal(value: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(value);
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1).map((part) => Number(part ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const utc = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  // A day or an hour that does not exist ("2026-02-30", "25:00") rolls over: refuse it.
  if (utc.getUTCMonth() !== month - 1 || utc.getUTCDate() !== day || utc.getUTCHours() !== hour || utc.getUTCMinutes() !== minute) {
    return null;
  }
  return new Date(utc.getTime() - zoneOffsetMs(utc));
}
