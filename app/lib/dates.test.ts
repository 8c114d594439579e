import { describe, expect, it } from "vitest";
import {
  formatDate,
  formatDateTime,
  formatMonth,
  formatMonthYear,
  formatNumericDate,
  formatNumericDateTime,
  formatListDate,
  formatRelative,
  formatUntil,
  formatShortDate,
  formatWeekdayDateTime,
  fromDateTimeLocal,
  isoDay,
  startOfMonth,
  toDateTimeLocal,
} from "./dates";

// 23:30 in Bamako (UTC+0) on Wednesday 11 March: already the 12th in Paris or Nairobi.
const lateEvening = new Date("2026-03-11T23:30:00Z");

describe("French dates in Bamako time", () => {
  it("writes the day, month and year the French way, with 1er for the first", () => {
    expect(formatDate(lateEvening)).toBe("11 mars 2026");
    expect(formatDate(new Date("2026-04-01T08:00:00Z"))).toBe("1er avril 2026");
    expect(formatShortDate(new Date("2026-01-03T08:00:00Z"))).toBe("3 janv. 2026");
    expect(formatNumericDate(new Date("2024-01-05T10:00:00Z"))).toBe("05/01/2024");
    expect(formatMonth(new Date("2026-02-10T00:00:00Z"))).toBe("févr.");
    expect(formatMonthYear(new Date("2026-10-01T00:00:00Z"))).toBe("octobre 2026");
    expect(formatNumericDateTime(new Date("2024-01-05T09:07:00Z"))).toBe("05/01/2024 09:07");
    expect(formatNumericDateTime(lateEvening)).toBe("11/03/2026 23:30");
  });

  it("gives times on the 24-hour clock, Bamako's, with the weekday for sessions", () => {
    expect(formatDateTime(lateEvening)).toBe("11 mars 2026 à 23:30");
    expect(formatDateTime(new Date("2027-01-01T09:05:00Z"))).toBe("1er janvier 2027 à 09:05");
    expect(formatWeekdayDateTime(lateEvening)).toBe("mercredi 11 mars 2026 à 23:30");
  });

  it("keeps the Bamako day whatever the process's own zone", () => {
    const saved = process.env.TZ;
    process.env.TZ = "Asia/Tokyo";
    try {
      expect(isoDay(lateEvening)).toBe("2026-03-11");
      expect(formatDate(lateEvening)).toBe("11 mars 2026");
    } finally {
      process.env.TZ = saved;
    }
  });
});

describe("formatRelative", () => {
  const now = new Date("2026-03-12T12:00:00Z");
  const ago = (seconds: number) => new Date(now.getTime() - seconds * 1000);

  it("counts minutes under an hour, hours under a day, days under a week, then gives the date", () => {
    expect(formatRelative(ago(20), now)).toBe("à l'instant");
    expect(formatRelative(ago(5 * 60), now)).toBe("il y a 5 minutes");
    expect(formatRelative(ago(3 * 3600), now)).toBe("il y a 3 heures");
    expect(formatRelative(ago(30 * 3600), now)).toBe("hier");
    expect(formatRelative(ago(4 * 86400), now)).toBe("il y a 4 jours");
    expect(formatRelative(ago(9 * 86400), now)).toBe("le 3 mars 2026");
  });

  it("speaks of the future too", () => {
    expect(formatRelative(ago(-2 * 3600), now)).toBe("dans 2 heures");
    expect(formatRelative(ago(-26 * 3600), now)).toBe("demain");
  });
});

describe("formatListDate", () => {
  const now = new Date("2026-03-12T12:00:00Z");
  it("is relative within the week, then a short date, with the year only for another year", () => {
    expect(formatListDate(new Date("2026-03-12T09:00:00Z"), now)).toBe("il y a 3 heures");
    expect(formatListDate(new Date("2026-03-10T12:00:00Z"), now)).toBe("avant-hier");
    expect(formatListDate(new Date("2026-03-01T12:00:00Z"), now)).toBe("1er mars");
    expect(formatListDate(new Date("2026-01-03T12:00:00Z"), now)).toBe("3 janv.");
    expect(formatListDate(new Date("2025-11-20T12:00:00Z"), now)).toBe("20 nov. 2025");
  });
});

describe("calendar helpers", () => {
  it("finds the first day of this month and of earlier months, across a year", () => {
    expect(startOfMonth(lateEvening).toISOString()).toBe("2026-03-01T00:00:00.000Z");
    expect(startOfMonth(lateEvening, 3).toISOString()).toBe("2025-12-01T00:00:00.000Z");
  });

  it("round-trips a datetime-local field's value as Bamako time", () => {
    expect(toDateTimeLocal(new Date("2026-12-01T18:00:00Z"))).toBe("2026-12-01T18:00");
    expect(fromDateTimeLocal("2026-12-01T18:00")?.toISOString()).toBe("2026-12-01T18:00:00.000Z");
    expect(fromDateTimeLocal("2026-12-01T18:00:30")?.toISOString()).toBe("2026-12-01T18:00:30.000Z");
  });

  it("refuses what is not a real date and time", () => {
    for (const value of ["2026-02-30T10:00", "2026-12-01T25:00", "2026-12-01", "demain", ""]) {
      expect(fromDateTimeLocal(value)).toBeNull();
    }
  });
});

describe("formatUntil", () => {
  it("says a deadline with « au » before a day, the time alone the same day", () => {
    const now = new Date("2026-12-03T10:00:00Z");
    expect(formatUntil(new Date("2026-12-04T14:05:00Z"), now)).toBe("jusqu'au 4 décembre 2026 à 14:05");
    expect(formatUntil(new Date("2026-12-01T08:00:00Z"), new Date("2026-11-30T08:00:00Z"))).toBe("jusqu'au 1er décembre 2026 à 08:00");
    expect(formatUntil(new Date("2026-12-03T10:30:00Z"), now)).toBe("jusqu'à 10:30");
  });
});
