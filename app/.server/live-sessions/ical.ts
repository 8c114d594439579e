/**
 * iCalendar (RFC 5545) for live sessions: one event per session, times in UTC (a phone shows them
 * in its own zone), lines folded at 75 octets, text escaped. A cancelled session stays in a feed
 * as STATUS:CANCELLED so that calendars that had it remove it.
 */

export interface CalendarEvent {
  uid: string;
  title: string;
  description: string;
  startsAt: Date;
  endsAt: Date;
  url: string;
  cancelled: boolean;
  /** Bumped on each change (calendars keep the highest). */
  sequence: number;
  updatedAt: Date;
}

const stamp = (date: Date) =>
  date
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");

function escapeText(value: string): string {
  return value.replace(/\\/g, "\\\\").replace(/;/g, "\\;").replace(/,/g, "\\,").replace(/\r?\n/g, "\\n");
}

/** Folds a content line at 75 octets without cutting a UTF-8 character. */
function fold(line: string): string {
  const parts: string[] = [];
  let current = "";
  let octets = 0;
  for (const char of line) {
    const size = Buffer.byteLength(char);
    if (octets + size > (parts.length ? 74 : 75)) {
      parts.push(current);
      current = "";
      octets = 0;
    }
    current += char;
    octets += size;
  }
  parts.push(current);
  return parts.join("\r\n ");
}

export function renderCalendar(options: { name: string; events: CalendarEvent[]; now: Date }): string {
  const lines = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//Campus//Sessions en direct//FR",
    "CALSCALE:GREGORIAN",
    "METHOD:PUBLISH",
    `X-WR-CALNAME:${escapeText(options.name)}`,
    "X-WR-TIMEZONE:Africa/Bamako",
    "REFRESH-INTERVAL;VALUE=DURATION:PT1H",
    "X-PUBLISHED-TTL:PT1H",
  ];
  for (const event of options.events) {
    lines.push(
      "BEGIN:VEVENT",
      `UID:${event.uid}`,
      `DTSTAMP:${stamp(options.now)}`,
      `LAST-MODIFIED:${stamp(event.updatedAt)}`,
      `SEQUENCE:${event.sequence}`,
      `DTSTART:${stamp(event.startsAt)}`,
      `DTEND:${stamp(event.endsAt)}`,
      `SUMMARY:${escapeText(event.title)}`,
      `DESCRIPTION:${escapeText(event.description)}`,
      `URL:${event.url}`,
      `STATUS:${event.cancelled ? "CANCELLED" : "CONFIRMED"}`,
    );
    if (!event.cancelled) {
      lines.push("BEGIN:VALARM", "ACTION:DISPLAY", `DESCRIPTION:${escapeText(event.title)}`, "TRIGGER:-PT1H", "END:VALARM");
    }
    lines.push("END:VEVENT");
  }
  lines.push("END:VCALENDAR");
  return `${lines.map(fold).join("\r\n")}\r\n`;
}
