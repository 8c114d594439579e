import { formatNumber } from "~/lib/format";
/** Public URLs shared by the cards, the course page and the footer. */

export function courseHref(slug: string): string {
  return `/formations/${encodeURIComponent(slug)}`;
}

/** Every "S'inscrire" of a course: its checkout (which sends visitors to sign up first, and back). */
export function enrolHref(slug: string): string {
  return `${courseHref(slug)}/inscription`;
}

/** The catalogue filtered on one course's title (footer "Formations Tech" links). */
export function catalogueSearchHref(text: string): string {
  return `/formations?${new URLSearchParams({ q: text }).toString()}`;
}

export const signUpHref = "/auth?onglet=inscription";
export const signInHref = "/auth";

/** "tel:" target of a displayed phone number: digits and the leading "+" only. */
export function telHref(phone: string): string {
  return `tel:${phone.replace(/[^\d+]/g, "")}`;
}

/** Ratings in French: "4,9". */
export function formatRating(rating: number): string {
  return formatNumber(rating, { decimals: 1, fixed: true });
}
