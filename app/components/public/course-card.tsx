import { Link } from "react-router";
import { buttonClasses } from "~/components/ui/button";
import { formatPrice, formatWeeks, plural } from "~/lib/format";
import { CourseIcon } from "./course-icon";
import { courseHref, enrolHref, formatRating } from "./links";
import { Icon } from "~/components/public/icon";
import type { ThumbnailImage } from "~/lib/uploads";

export interface CourseCardData {
  slug: string;
  title: string;
  description: string;
  durationWeeks: number;
  studentCount: number;
  /** The average of the imported and the written reviews (null: none yet), and their count. */
  rating: number | null;
  reviewCount: number;
  priceFcfa: number;
  icon: string;
  popular: boolean;
  thumbnail: ThumbnailImage | null;
  /** The modules the card lists (the first three on the catalogue, none on the home page). */
  modules: string[];
  moduleCount: number;
  categorySlug: string;
  categoryName: string;
  levelName: string;
}

const SHOWN_MODULES = 3;

/**
 * What a card draws and nothing more: loaders send this rather than the course row, since loader
 * data is repeated in the page for hydration (docs/decisions/0011-lean-loader-data.md).
 */
export function toCourseCardData(
  course: Omit<CourseCardData, "moduleCount"> & { modules: string[] },
  variant: "home" | "catalogue",
): CourseCardData {
  return {
    slug: course.slug,
    title: course.title,
    description: course.description,
    durationWeeks: course.durationWeeks,
    studentCount: course.studentCount,
    rating: course.rating,
    reviewCount: course.reviewCount,
    priceFcfa: course.priceFcfa,
    icon: course.icon,
    popular: course.popular,
    thumbnail: course.thumbnail,
    modules: variant === "catalogue" ? course.modules.slice(0, SHOWN_MODULES) : [],
    moduleCount: course.modules.length,
    categorySlug: course.categorySlug,
    categoryName: course.categoryName,
    levelName: course.levelName,
  };
}

/** Banner colours per category; literal class names so Tailwind sees them. */
const bannerByCategory: Record<string, string> = {
  tech: "from-brand-600 to-brand-800",
  marketing: "from-indigo-600 to-indigo-800",
  commerce: "from-sky-600 to-sky-800",
  energie: "from-amber-500 to-orange-600",
  agriculture: "from-emerald-600 to-emerald-800",
  ingenierie: "from-slate-600 to-slate-800",
};

export function CourseCard({
  course,
  variant = "home",
  headingLevel: Heading = "h3",
}: {
  course: CourseCardData;
  /** "home": description on 2 lines; "catalogue": 3 lines and the first modules. */
  variant?: "home" | "catalogue";
  headingLevel?: "h2" | "h3";
}) {
  const href = courseHref(course.slug);
  const banner = bannerByCategory[course.categorySlug] ?? bannerByCategory.tech;
  const shownModules = course.modules.slice(0, SHOWN_MODULES);
  const otherModules = course.moduleCount - shownModules.length;

  return (
    <article className="group relative flex flex-col overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm transition-shadow duration-200 focus-within:shadow-xl hover:shadow-xl">
      <div className={`relative flex h-36 items-center justify-center bg-linear-to-br ${banner}`}>
        {course.thumbnail ? (
          <img
            {...course.thumbnail}
            sizes="(min-width: 1024px) 24rem, (min-width: 640px) 50vw, 100vw"
            alt=""
            width={320}
            height={144}
            loading="lazy"
            decoding="async"
            className="absolute inset-0 h-full w-full"
            // Inline: the only cover-fitted image of the public pages, not worth a class in their sheet.
            style={{ objectFit: "cover" }}
          />
        ) : null}
        <div className="absolute inset-x-3 top-3 flex items-start justify-between gap-2">
          <div className="flex flex-wrap gap-1.5">
            <span className="rounded-full bg-white px-2.5 py-0.5 text-xs font-semibold text-slate-800 shadow-sm">
              {course.categoryName}
            </span>
            {course.popular ? (
              <span className="inline-flex items-center gap-1 rounded-full bg-accent-500 px-2.5 py-0.5 text-xs font-semibold text-slate-900 shadow-sm">
                <Icon name="sparkles" className="size-3" aria-hidden="true" />
                Populaire
              </span>
            ) : null}
          </div>
          <span className="shrink-0 rounded-full bg-white/95 px-2.5 py-0.5 text-xs font-semibold text-brand-800 shadow-sm">
            {course.levelName}
          </span>
        </div>
        {course.thumbnail ? null : (
          <span className="mt-4 flex size-16 items-center justify-center rounded-2xl bg-white/15 ring-1 ring-white/30">
            <CourseIcon name={course.icon} className="size-9 text-white" strokeWidth={1.75} />
          </span>
        )}
        {/* Always shown on phones and touch screens; with a mouse on a wide screen, on hover and focus. */}
        <Link
          to={href}
          className="absolute right-3 bottom-3 inline-flex items-center gap-1.5 rounded-full bg-white px-3 py-1.5 text-sm font-semibold text-brand-800 shadow-md transition-opacity duration-200 hover:bg-brand-50 md:pointer-fine:opacity-0 md:pointer-fine:group-focus-within:opacity-100 md:pointer-fine:group-hover:opacity-100"
        >
          <Icon name="eye" className="size-4" aria-hidden="true" />
          Aperçu<span className="sr-only"> de la formation {course.title}</span>
        </Link>
      </div>

      <div className="flex flex-1 flex-col p-5">
        <Heading className="text-lg leading-snug font-bold text-slate-900">
          <Link to={href} data-course-title className="hover:text-brand-700 hover:underline">
            {course.title}
          </Link>
        </Heading>
        <p
          data-course-description
          className={`mt-2 text-sm leading-relaxed text-slate-600 ${variant === "home" ? "line-clamp-2" : "line-clamp-3"}`}
        >
          {course.description}
        </p>

        {variant === "catalogue" && shownModules.length > 0 ? (
          <div className="mt-4">
            <p className="text-sm font-semibold text-slate-800">Modules inclus&nbsp;:</p>
            <ul className="mt-2 space-y-1.5 text-sm text-slate-700">
              {shownModules.map((module) => (
                <li key={module} className="flex items-start gap-2">
                  <Icon name="check" className="mt-0.5 size-4 shrink-0 text-emerald-700" aria-hidden="true" />
                  <span>{module}</span>
                </li>
              ))}
            </ul>
            {otherModules > 0 ? (
              <span className="mt-2 inline-block rounded-full bg-brand-50 px-2.5 py-0.5 text-xs font-semibold text-brand-800">
                +{plural(otherModules, "autre", "autres")}
              </span>
            ) : null}
          </div>
        ) : null}

        <ul className="mt-4 flex flex-wrap items-center gap-x-4 gap-y-1.5 text-sm text-slate-600">
          {course.durationWeeks > 0 ? (
            <li className="inline-flex items-center gap-1.5">
              <Icon name="clock" className="size-4 text-slate-500" aria-hidden="true" />
              {formatWeeks(course.durationWeeks)}
            </li>
          ) : null}
          <li className="inline-flex items-center gap-1.5">
            <Icon name="users" className="size-4 text-slate-500" aria-hidden="true" />
            {plural(course.studentCount, "étudiant", "étudiants")}
          </li>
          {course.rating !== null ? (
            <li className="inline-flex items-center gap-1.5">
              <Icon name="star" className="size-4 fill-accent-500 text-accent-500" aria-hidden="true" />
              <span>
                <span className="font-semibold text-slate-800">{formatRating(course.rating)}</span>
                <span className="sr-only"> sur 5</span> ({plural(course.reviewCount, "avis", "avis")})
              </span>
            </li>
          ) : null}
        </ul>

        <div className="mt-auto pt-5">
          <div className="flex items-center justify-between gap-3 border-t border-slate-100 pt-4">
            <p className="text-lg font-bold text-brand-700">{formatPrice(course.priceFcfa)}</p>
            <Link to={enrolHref(course.slug)} className={buttonClasses({ size: "sm", className: "px-4" })}>
              S'inscrire<span className="sr-only"> à la formation {course.title}</span>
            </Link>
          </div>
        </div>
      </div>
    </article>
  );
}
