/** The French thousands separator: a narrow no-break space (U+202F), as « 64 045 000 ». */
export const THOUSANDS_SEPARATOR = "\u202f";

/**
 * A number written the French way: « 2 007 », « 4,9 », « −12,5 ». `decimals` is the most shown
 * (trailing zeros dropped) unless `fixed`. Built by hand rather than with Intl so that the server
 * and every browser write exactly the same characters.
 */
export function formatNumber(value: number, { decimals = 0, fixed = false }: { decimals?: number; fixed?: boolean } = {}): string {
  const factor = 10 ** decimals;
  const rounded = Math.round(Math.abs(value) * factor) / factor;
  const [whole = "0", digits = ""] = rounded.toFixed(decimals).split(".");
  const fraction = fixed ? digits : digits.replace(/0+$/, "");
  const sign = value < 0 && rounded !== 0 ? "−" : "";
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, THOUSANDS_SEPARATOR);
  return `${sign}${grouped}${fraction ? `,${fraction}` : ""}`;
}

/** A percentage: « 62,5 % », « 70 % » (two decimals at most unless told), a narrow no-break space before the sign. */
export function formatPercent(value: number, options: { decimals?: number; fixed?: boolean } = { decimals: 2 }): string {
  return `${formatNumber(value, options)}${THOUSANDS_SEPARATOR}%`;
}

/** « 64 045 000 FCFA »: whole francs, French grouping, a no-break space before the currency. */
export function formatFcfa(amount: number): string {
  return `${formatNumber(Math.round(amount))}\u00a0FCFA`;
}

/** French plural: 0 and 1 take the singular. */
export function plural(count: number, singular: string, pluralForm: string): string {
  return `${formatNumber(count, { decimals: 2 })} ${Math.abs(count) >= 2 ? pluralForm : singular}`;
}

export function formatWeeks(weeks: number): string {
  return plural(weeks, "semaine", "semaines");
}

/** A course's price: "Gratuit" when it costs nothing, else in FCFA. */
export function formatPrice(amount: number): string {
  return amount > 0 ? formatFcfa(amount) : "Gratuit";
}

/** Durations of lessons: "45 min", "1 h", "1 h 30". */
export function formatMinutes(minutes: number): string {
  if (minutes < 60) return `${minutes} min`;
  const rest = minutes % 60;
  return `${Math.floor(minutes / 60)} h${rest ? ` ${String(rest).padStart(2, "0")}` : ""}`;
}

/** "Plus qu'une place disponible.", "Plus que 3 places disponibles." */
export function seatsLeftText(seats: number): string {
  return seats === 1 ? "Plus qu'une place disponible." : `Plus que ${seats} places disponibles.`;
}
