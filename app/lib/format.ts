/** "120,000 FCFA": the spec's format, with a comma between thousands. */
export function formatFcfa(amount: number): string {
  const rounded = Math.round(amount);
  const sign = rounded < 0 ? "-" : "";
  const digits = String(Math.abs(rounded)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `${sign}${digits} FCFA`;
}

/** French plural: 0 and 1 take the singular. */
export function plural(count: number, singular: string, pluralForm: string): string {
  return `${count} ${Math.abs(count) >= 2 ? pluralForm : singular}`;
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
