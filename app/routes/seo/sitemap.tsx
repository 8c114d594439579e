import { getInstitute, listPublishedCourseSlugs } from "~/.server/catalogue";
import { dbContext, envContext } from "~/.server/context";
import { courseHref } from "~/components/public/links";
import { absoluteUrl } from "~/lib/seo";
import type { Route } from "./+types/sitemap";

/** Public pages besides the courses; the catalogue pages change when a course does. */
const STATIC_PAGES: { path: string; followsCourses: boolean }[] = [
  { path: "/", followsCourses: true },
  { path: "/formations", followsCourses: true },
  { path: "/a-propos", followsCourses: false },
  { path: "/contact", followsCourses: false },
  { path: "/confidentialite", followsCourses: false },
  { path: "/conditions-utilisation", followsCourses: false },
  { path: "/mentions-legales", followsCourses: false },
];

function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (char) => `&${{ "<": "lt", ">": "gt", "&": "amp", "'": "apos", '"': "quot" }[char]};`);
}

function entry(loc: string, lastmod: Date): string {
  return `  <url>\n    <loc>${escapeXml(loc)}</loc>\n    <lastmod>${lastmod.toISOString()}</lastmod>\n  </url>`;
}

export async function loader({ context }: Route.LoaderArgs) {
  const db = context.get(dbContext);
  const { PUBLIC_URL } = context.get(envContext);
  const [institute, courses] = await Promise.all([getInstitute(db), listPublishedCourseSlugs(db)]);
  const newestCourse = courses.reduce((latest, course) => (course.updatedAt > latest ? course.updatedAt : latest), institute.updatedAt);

  const urls = [
    ...STATIC_PAGES.map((page) => entry(absoluteUrl(PUBLIC_URL, page.path), page.followsCourses ? newestCourse : institute.updatedAt)),
    ...courses.map((course) => entry(absoluteUrl(PUBLIC_URL, courseHref(course.slug)), course.updatedAt)),
  ];
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join("\n")}\n</urlset>\n`;
  return new Response(body, {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
