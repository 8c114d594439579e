/**
 * What the tabbed forms (course, quiz) share: the tab a request names, and the element id of a
 * field from its error key, so that an error summary can link to the field and open its tab.
 */

export type FormTab = { readonly id: string; readonly label: string };

/** The tab named by `value` (a form field, a URL parameter), or the first one. */
export function parseFormTab<const Tabs extends readonly [FormTab, ...FormTab[]]>(tabs: Tabs, value: unknown): Tabs[number]["id"] {
  return tabs.find((tab) => tab.id === value)?.id ?? tabs[0].id;
}

/** A field's element id from its error key: ("champ", "lessons.2.title") → "champ-lessons-2-title". */
export function fieldElementId(prefix: string, field: string): string {
  return `${prefix}-${field.replace(/[^A-Za-z0-9]+/g, "-")}`;
}
