import { Outlet } from "react-router";
import { getOptionalUser } from "~/.server/auth";
import { getInstitute, listPublishedCourses } from "~/.server/catalogue";
import { dbContext, envContext } from "~/.server/context";
import { SiteFooter } from "~/components/public/site-footer";
import { SiteHeader, type HeaderAccount } from "~/components/public/site-header";
import { homeOf } from "~/lib/roles";
import type { SiteInfo } from "~/lib/seo";
import type { Route } from "./+types/layout";

export async function loader(args: Route.LoaderArgs) {
  const { context } = args;
  const db = context.get(dbContext);
  const [institute, techCourses, viewer] = await Promise.all([
    getInstitute(db),
    listPublishedCourses(db, { categorySlug: "tech" }),
    getOptionalUser(args),
  ]);
  // A signed-in visitor is led to their space (their request carries a cookie: never in the anonymous page cache).
  const account: HeaderAccount = viewer ? { firstName: viewer.firstName, href: homeOf(viewer.role) } : null;
  const site: SiteInfo = { publicUrl: context.get(envContext).PUBLIC_URL, siteName: institute.shortName };
  return {
    site,
    institute: {
      name: institute.name,
      shortName: institute.shortName,
      tagline: institute.tagline,
      phones: institute.phones,
      email: institute.email,
      address: institute.address,
      openingHours: institute.openingHours,
      socialLinks: institute.socialLinks,
    },
    techCourses: techCourses.map((course) => ({ slug: course.slug, title: course.title })),
    year: new Date().getFullYear(),
    account,
  };
}

export default function PublicLayout({ loaderData }: Route.ComponentProps) {
  const { institute, techCourses, year, account } = loaderData;
  return (
    <div className="flex min-h-screen flex-col">
      <a
        href="#contenu"
        className="sr-only z-50 rounded-md bg-white px-4 py-2 font-medium text-brand-800 shadow focus:not-sr-only focus:absolute focus:top-2 focus:left-2"
      >
        Aller au contenu
      </a>
      <SiteHeader institute={institute} account={account} />
      <div id="contenu" className="flex-1" tabIndex={-1}>
        <Outlet />
      </div>
      <SiteFooter institute={institute} techCourses={techCourses} year={year} />
    </div>
  );
}
