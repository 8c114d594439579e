import { describe, expect, it } from "vitest";
import { absoluteUrl, jsonLd, pageMeta, pageTitle, seoMeta, siteFromMatches } from "./seo";

const site = { publicUrl: "https://icef.ml", siteName: "ICEF" };

describe("seoMeta", () => {
  it("builds the title, description, canonical link and Open Graph tags", () => {
    const tags = seoMeta(site, { title: "Catalogue de Formations", description: "Nos formations.", path: "/formations" });
    expect(tags).toEqual([
      { title: "Catalogue de Formations | ICEF" },
      { name: "description", content: "Nos formations." },
      { tagName: "link", rel: "canonical", href: "https://icef.ml/formations" },
      { property: "og:title", content: "Catalogue de Formations | ICEF" },
      { property: "og:description", content: "Nos formations." },
      { property: "og:url", content: "https://icef.ml/formations" },
      { property: "og:type", content: "website" },
      { property: "og:locale", content: "fr_FR" },
      { property: "og:site_name", content: "ICEF" },
    ]);
  });

  it("keeps the page's own Open Graph type", () => {
    const tags = seoMeta(site, { title: "IA", description: "d", path: "/formations/ia", type: "article" });
    expect(tags).toContainEqual({ property: "og:type", content: "article" });
  });
});

describe("absoluteUrl", () => {
  it("joins the public URL and the path whatever the slashes", () => {
    expect(absoluteUrl("https://icef.ml", "/")).toBe("https://icef.ml/");
    expect(absoluteUrl("https://icef.ml/", "/a-propos")).toBe("https://icef.ml/a-propos");
    expect(absoluteUrl("http://127.0.0.1:3501", "/formations/data-science")).toBe("http://127.0.0.1:3501/formations/data-science");
  });
  it("keeps a sub-path deployment", () => {
    expect(absoluteUrl("https://cci.ml/icef", "formations")).toBe("https://cci.ml/icef/formations");
  });
});

describe("pageTitle", () => {
  it("does not repeat the site name", () => {
    expect(pageTitle("ICEF", "ICEF")).toBe("ICEF");
    expect(pageTitle("Contact", "ICEF")).toBe("Contact | ICEF");
  });
});

describe("reading the layout's data from meta matches", () => {
  const matches = [{ id: "root", loaderData: undefined }, { id: "routes/public/layout", loaderData: { site, institute: {} } }, undefined];
  it("finds the site info", () => {
    expect(siteFromMatches(matches)).toEqual(site);
    expect(pageMeta(matches, { title: "Contact", description: "d", path: "/contact" })[2]).toEqual({
      tagName: "link",
      rel: "canonical",
      href: "https://icef.ml/contact",
    });
  });
  it("falls back to a bare title without the layout's data", () => {
    expect(siteFromMatches([{ id: "root" }])).toBeUndefined();
    expect(siteFromMatches([{ id: "routes/public/layout", loaderData: { site: { publicUrl: 1 } } }])).toBeUndefined();
    expect(pageMeta([], { title: "Contact", description: "d", path: "/contact" })).toEqual([
      { title: "Contact" },
      { name: "description", content: "d" },
    ]);
  });
});

describe("jsonLd", () => {
  it("cannot close its script element", () => {
    const text = jsonLd({ name: "</script><script>alert(1)</script>", x: "a & b" });
    expect(text).not.toContain("<");
    expect(text).not.toContain(">");
    expect(JSON.parse(text)).toEqual({ name: "</script><script>alert(1)</script>", x: "a & b" });
  });
});
