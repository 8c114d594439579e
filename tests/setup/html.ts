/**
 * The few things tests read in a page's HTML as a browser would: attribute values, the links to
 * follow and the POST forms to send (authorization-matrix.test.ts, every-link-and-form.test.ts).
 * The markup is the server's own, rendered by React: quoted attributes, escaped entities.
 */

export const decodeEntities = (text: string) =>
  text
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");

export function attributeOf(attributes: string, name: string): string | null {
  const match = new RegExp(`\\s${name}="([^"]*)"`).exec(attributes);
  return match ? decodeEntities(match[1]!) : null;
}

/** The same-site addresses the page's links lead to ("/formations?q=…"), fragments left out. */
export function linksOf(html: string): string[] {
  return [...html.matchAll(/<a\s[^>]*href="(\/[^"#]*)/g)].map(([, href]) => decodeEntities(href!)).filter((href) => !href.startsWith("//"));
}

/** A field a person fills in (text, number, a list…), as opposed to hidden ones and boxes to tick. */
export type EditableField = { name: string; type: string };

/** One intent of one form as a page renders it: where it posts, and the fields it would send. */
export type PostedForm = {
  key: string;
  page: string;
  action: string;
  intent: string;
  fields: Array<[string, string]>;
  editable: EditableField[];
};

/**
 * The POST forms of a page's HTML (the page at `pageUrl`, on `origin`), one entry per intent (a
 * hidden `intent` or a submit button's), with the values a browser would send untouched.
 */
export function formsOf(html: string, pageUrl: string, origin: string): PostedForm[] {
  const found: PostedForm[] = [];
  for (const [, attributes, inner] of html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/g)) {
    if ((attributeOf(attributes!, "method") ?? "get").toLowerCase() !== "post") continue;
    const target = new URL(attributeOf(attributes!, "action") ?? pageUrl, `${origin}${pageUrl}`);
    const action = `${target.pathname}${target.search}`;
    const fields: Array<[string, string]> = [];
    const editable: EditableField[] = [];
    const intents = new Set<string>();
    for (const [, input] of inner!.matchAll(/<input\b([^>]*)>/g)) {
      const name = attributeOf(input!, "name");
      const type = (attributeOf(input!, "type") ?? "text").toLowerCase();
      if (!name || type === "file" || type === "submit") continue;
      if ((type === "checkbox" || type === "radio") && !/\schecked(?:=""|\s|\/|$)/.test(input!)) continue;
      const value = attributeOf(input!, "value") ?? "";
      if (name === "intent") intents.add(value);
      else fields.push([name, value]);
      if (type !== "hidden" && type !== "checkbox" && type !== "radio") editable.push({ name, type });
    }
    for (const [, element, control] of inner!.matchAll(/<(select|textarea)\b([^>]*)>/g)) {
      const name = attributeOf(control!, "name");
      if (!name) continue;
      fields.push([name, ""]);
      editable.push({ name, type: element! });
    }
    for (const [, button] of inner!.matchAll(/<button\b([^>]*)>/g)) {
      if (attributeOf(button!, "name") === "intent") intents.add(attributeOf(button!, "value") ?? "");
    }
    if (intents.size === 0) intents.add("");
    for (const intent of intents) found.push({ key: `${target.pathname}#${intent}`, page: pageUrl, action, intent, fields, editable });
  }
  return found;
}
