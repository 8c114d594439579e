/**
 * The forum's fixed vocabulary and its text rules, shared by the server and the browser: the
 * categories of the specification, hashtags, and how a post's plain text is cut into safe pieces
 * (paragraphs, links, hashtags) for rendering — never HTML.
 */

export const forumCategories = [
  { slug: "intelligence-artificielle", name: "Intelligence Artificielle" },
  { slug: "cybersecurite", name: "Cybersécurité" },
  { slug: "projets", name: "Projets" },
  { slug: "ressources", name: "Ressources" },
  { slug: "questions-generales", name: "Questions générales" },
] as const;

export type ForumCategory = (typeof forumCategories)[number]["slug"];

/** A post written without choosing goes to "Questions générales" (the specification's default). */
export const DEFAULT_FORUM_CATEGORY: ForumCategory = "questions-generales";

export const forumCategorySlugs = forumCategories.map((category) => category.slug) as [ForumCategory, ...ForumCategory[]];

export function forumCategoryName(slug: string): string {
  return forumCategories.find((category) => category.slug === slug)?.name ?? "Questions générales";
}

export const FORUM_LIMITS = {
  title: 200,
  body: 10_000,
  reply: 5_000,
  reportReason: 500,
  tagsPerPost: 10,
} as const;

/** The specification's message when a title or a content is missing. */
export const FORUM_REQUIRED_MESSAGE = "Veuillez remplir tous les champs";

/** "#IA", "#cybersécurité", "#python_3": letters, digits, _ and -, 2 to 30 characters, after a space or the start. */
const HASHTAG = /(^|[^\p{L}\p{N}_&#/])#([\p{L}\p{N}_-]{2,30})/gu;

/** The hashtags of a text, lower-case, without "#", in order of appearance, each once, at most 10. */
export function hashtagsOf(...texts: string[]): string[] {
  const tags: string[] = [];
  for (const text of texts) {
    for (const match of text.normalize("NFC").matchAll(HASHTAG)) {
      const tag = match[2]!.toLowerCase().replace(/[-_]+$/, "");
      if (tag.length >= 2 && !tags.includes(tag)) tags.push(tag);
      if (tags.length === FORUM_LIMITS.tagsPerPost) return tags;
    }
  }
  return tags;
}

export type TextPiece =
  { kind: "text"; text: string } | { kind: "link"; href: string; text: string } | { kind: "tag"; tag: string; text: string };

const URL_OR_TAG = /(https?:\/\/[^\s<>"]+)|((?:^|(?<=[^\p{L}\p{N}_&#/]))#[\p{L}\p{N}_-]{2,30})/gu;
/** Punctuation that ends a sentence rather than a link. */
const TRAILING = /[.,;:!?)\]»']+$/;

/**
 * A post's text as paragraphs (blank lines) of lines (single line breaks) of pieces: plain text,
 * links (http and https only, so no `javascript:`), and hashtags. React renders the pieces as
 * text nodes and elements: nothing typed is ever interpreted as HTML.
 */
export function textPieces(text: string): TextPiece[][][] {
  return text
    .replace(/\r\n?/g, "\n")
    .split(/\n{2,}/)
    .filter((paragraph) => paragraph.trim() !== "")
    .map((paragraph) => paragraph.split("\n").map(linePieces));
}

function linePieces(line: string): TextPiece[] {
  const pieces: TextPiece[] = [];
  let last = 0;
  for (const match of line.matchAll(URL_OR_TAG)) {
    let raw = match[0];
    const start = match.index;
    if (match[1]) {
      const trailing = raw.match(TRAILING)?.[0] ?? "";
      raw = raw.slice(0, raw.length - trailing.length);
      if (start > last) pieces.push({ kind: "text", text: line.slice(last, start) });
      if (isSafeUrl(raw)) pieces.push({ kind: "link", href: raw, text: raw });
      else pieces.push({ kind: "text", text: raw });
    } else {
      if (start > last) pieces.push({ kind: "text", text: line.slice(last, start) });
      pieces.push({ kind: "tag", tag: raw.slice(1).toLowerCase(), text: raw });
    }
    last = start + raw.length;
  }
  if (last < line.length) pieces.push({ kind: "text", text: line.slice(last) });
  return pieces;
}

function isSafeUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}
