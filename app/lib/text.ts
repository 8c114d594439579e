/** Ligatures unaccent spells out in the database (campus_fold); the browser's NFD keeps them. */
const LIGATURES: Record<string, string> = { œ: "oe", Œ: "oe", æ: "ae", Æ: "ae", ß: "ss" };

/**
 * Text as searches compare it: without accents ("Sécurité" → "securite", "Œuvre" → "oeuvre"), in
 * lower case. The browser-side twin of the database's campus_fold (drizzle/0009), for the filters
 * that run on both sides (the catalogue) and for slugs.
 */
export function foldText(text: string): string {
  return text
    .replace(/[œŒæÆß]/g, (letter) => LIGATURES[letter]!)
    .normalize("NFD")
    .replace(/\p{Mn}+/gu, "")
    .toLowerCase();
}

/** "de Moussa", "d'Ibrahima", "d'Hawa", "d'Élise": "de" before a name, elided before a vowel or an h. */
export function ofName(name: string): string {
  const trimmed = name.trim();
  return /^[aeiouyh]/.test(foldText(trimmed)) ? `d'${trimmed}` : `de ${trimmed}`;
}

/**
 * "de l'Évaluation finale", "de Quiz Python": "de" before a title, with the elided article before
 * a vowel (a title names a thing: « les résultats de l'Évaluation finale »). Not before an h,
 * which may be aspirated (« la Haute tension »).
 */
export function ofTitle(title: string): string {
  const trimmed = title.trim();
  return /^[aeiou]/.test(foldText(trimmed)) ? `de l'${trimmed}` : `de ${trimmed}`;
}
