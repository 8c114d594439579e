/** Shared look of text-like form controls (input, textarea, select). */
export const controlClasses =
  "block w-full rounded-md border border-slate-400 bg-white px-3 py-2 text-base text-slate-900 " +
  "placeholder:text-slate-500 focus-visible:border-brand-700 focus-visible:outline-3 " +
  "focus-visible:outline-offset-1 focus-visible:outline-accent-500 disabled:bg-slate-100 " +
  "aria-invalid:border-red-700 aria-invalid:bg-red-50";

export function cx(...classes: Array<string | false | null | undefined>): string {
  return classes.filter(Boolean).join(" ");
}
