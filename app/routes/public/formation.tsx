import { Link, isRouteErrorResponse, href } from "react-router";
import { getOptionalUser } from "~/.server/auth";
import { getCourseForViewer, listLessonOutline } from "~/.server/catalogue";
import { dbContext } from "~/.server/context";
import { orHttpError } from "~/.server/http/errors";
import { followsCourse, seatsLeft } from "~/.server/learning";
import { listPublicReviews } from "~/.server/reviews";
import { Stars } from "~/components/reviews/stars";
import { formatDate } from "~/lib/dates";
import { EnrolBox } from "~/components/public/enrol-box";
import { getPublicTeacherProfile } from "~/.server/teaching";
import { CourseIcon } from "~/components/public/course-icon";
import { NotFoundContent } from "~/components/public/not-found";
import { courseHref, formatRating } from "~/components/public/links";
import { formatMinutes, formatWeeks, plural } from "~/lib/format";
import { fileUrl } from "~/lib/uploads";
import { absoluteUrl, jsonLd, pageMeta, siteFromMatches } from "~/lib/seo";
import type { Route } from "./+types/formation";
import { Icon } from "~/components/public/icon";

export async function loader(args: Route.LoaderArgs) {
  const db = args.context.get(dbContext);
  // Only a published course is public; its teacher and admins also see it as a preview.
  const viewer = await getOptionalUser(args);
  const found = await orHttpError(getCourseForViewer(db, viewer, args.params.slug));
  const { instructorId, ...course } = found;
  const [lessons, following, seats, teacher, reviews] = await Promise.all([
    listLessonOutline(db, course.id),
    followsCourse(db, viewer, course.id),
    seatsLeft(db, found),
    instructorId ? getPublicTeacherProfile(db, instructorId) : Promise.resolve(null),
    listPublicReviews(db, course.id),
  ]);
  return {
    course,
    lessons,
    following,
    full: seats === 0,
    teacher,
    reviews: reviews.map(({ createdAt, ...review }) => ({ ...review, date: formatDate(createdAt), iso: createdAt.toISOString() })),
  };
}

/** A meta description of at most ~160 characters, cut on a word. */
function summary(text: string, max = 160): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  return `${cut.slice(0, cut.lastIndexOf(" "))}…`;
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
  if (!loaderData) return [{ title: "Page introuvable" }, { name: "robots", content: "noindex" }];
  const { course } = loaderData;
  const meta = pageMeta(matches, {
    title: `Formation ${course.title}`,
    description: summary(course.description),
    path: courseHref(course.slug),
  });
  // A preview of an unpublished course is never indexed.
  return course.status === "published" ? meta : [...meta, { name: "robots", content: "noindex" }];
};

export default function CoursePage({ loaderData, matches }: Route.ComponentProps) {
  const { course, lessons, following, full, teacher, reviews } = loaderData;
  const layout = matches[1]?.loaderData;
  const site = siteFromMatches(matches);
  const institute = layout?.institute;

  const url = site ? absoluteUrl(site.publicUrl, courseHref(course.slug)) : courseHref(course.slug);
  const structuredData = {
    "@context": "https://schema.org",
    "@type": "Course",
    name: course.title,
    description: course.description,
    url,
    inLanguage: "fr",
    educationalLevel: course.levelName,
    about: course.categoryName,
    ...(course.durationWeeks > 0 ? { timeRequired: `P${course.durationWeeks}W` } : {}),
    syllabusSections: course.modules.map((module) => ({ "@type": "Syllabus", name: module })),
    ...(course.prerequisites.length > 0 ? { coursePrerequisites: course.prerequisites } : {}),
    ...(course.objectives.length > 0 ? { teaches: course.objectives } : {}),
    provider: {
      "@type": "EducationalOrganization",
      name: institute?.name,
      ...(site ? { url: absoluteUrl(site.publicUrl, "/") } : {}),
      ...(institute ? { address: institute.address, email: institute.email, telephone: institute.phones[0] } : {}),
    },
    offers: {
      "@type": "Offer",
      category: course.priceFcfa > 0 ? "Paid" : "Free",
      price: course.priceFcfa,
      priceCurrency: "XOF",
      availability: "https://schema.org/InStock",
      url,
    },
    hasCourseInstance: {
      "@type": "CourseInstance",
      courseMode: "Blended",
      ...(course.durationWeeks > 0 ? { courseWorkload: `P${course.durationWeeks}W` } : {}),
      inLanguage: "fr",
    },
    ...(course.rating !== null
      ? {
          aggregateRating: {
            "@type": "AggregateRating",
            ratingValue: course.rating,
            bestRating: 5,
            ratingCount: course.reviewCount,
          },
        }
      : {}),
  };

  const facts = [
    ...(course.durationWeeks > 0 ? [{ icon: "clock" as const, label: "Durée", value: formatWeeks(course.durationWeeks) }] : []),
    { icon: "chart-column" as const, label: "Niveau", value: course.levelName },
    {
      icon: "list-checks" as const,
      label: "Programme",
      value: lessons.length > 0 ? plural(lessons.length, "leçon", "leçons") : plural(course.modules.length, "module", "modules"),
    },
    { icon: "users" as const, label: "Inscrits sur la plateforme", value: plural(course.studentCount, "étudiant", "étudiants") },
    // The imported figure, apart and named as such (decision 0044), as imported reviews are.
    ...(course.baselineStudentCount > 0
      ? [
          {
            icon: "users" as const,
            label: "Avant la plateforme",
            value: `${plural(course.baselineStudentCount, "personne formée", "personnes formées")} par l'institut (chiffre importé)`,
          },
        ]
      : []),
    ...(course.maxStudents ? [{ icon: "users" as const, label: "Places par session", value: String(course.maxStudents) }] : []),
    { icon: "award" as const, label: "Certification", value: "Certificat de l'institut" },
  ];

  return (
    <main>
      {course.status === "published" ? (
        <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: jsonLd(structuredData) }} />
      ) : (
        <div role="status" className="bg-accent-500 px-4 py-3 text-center text-sm text-slate-900">
          <strong>Aperçu :</strong> ce cours est {course.status === "draft" ? "un brouillon" : "archivé"} ; il n'apparaît pas dans le
          catalogue et seuls son enseignant et les administrateurs voient cette page.{" "}
          <Link
            to={href("/dashboard/course-creator/:id", { id: String(course.id) })}
            className="font-semibold underline underline-offset-2"
          >
            Modifier le cours
          </Link>
        </div>
      )}

      <section className="bg-brand-800 text-white">
        <div className="mx-auto max-w-7xl px-4 pt-6 pb-12 sm:px-6 lg:px-8 lg:pb-16">
          <nav aria-label="Fil d'Ariane" className="text-sm text-brand-100">
            <ol className="flex flex-wrap items-center gap-1.5">
              <li>
                <Link to="/" className="hover:text-white hover:underline">
                  Accueil
                </Link>
              </li>
              <li aria-hidden="true">/</li>
              <li>
                <Link to="/formations" className="hover:text-white hover:underline">
                  Formations
                </Link>
              </li>
              <li aria-hidden="true">/</li>
              <li>
                <span aria-current="page" className="font-medium text-white">
                  {course.title}
                </span>
              </li>
            </ol>
          </nav>

          <div className="mt-8 flex flex-col gap-6 sm:flex-row sm:items-start">
            <span className="flex size-16 shrink-0 items-center justify-center rounded-2xl bg-white/10 ring-1 ring-white/25">
              <CourseIcon name={course.icon} className="size-9 text-accent-500" strokeWidth={1.75} />
            </span>
            <div className="max-w-3xl">
              <div className="flex flex-wrap gap-2">
                <Link
                  to={`/formations?categorie=${encodeURIComponent(course.categorySlug)}`}
                  className="rounded-full bg-white px-3 py-0.5 text-sm font-semibold text-slate-800 hover:bg-brand-50"
                >
                  {course.categoryName}
                </Link>
                <span className="rounded-full bg-white/15 px-3 py-0.5 text-sm font-semibold text-white ring-1 ring-white/30">
                  {course.levelName}
                </span>
                {course.popular ? (
                  <span className="inline-flex items-center gap-1 rounded-full bg-accent-500 px-3 py-0.5 text-sm font-semibold text-slate-900">
                    <Icon name="sparkles" className="size-3.5" aria-hidden="true" />
                    Populaire
                  </span>
                ) : null}
              </div>
              <h1 className="mt-4 text-3xl font-extrabold tracking-tight sm:text-5xl">{course.title}</h1>
              <p className="mt-4 text-base leading-relaxed text-brand-100 sm:text-lg">{course.description}</p>
              <ul className="mt-6 flex flex-wrap gap-x-6 gap-y-2 text-brand-50">
                {course.durationWeeks > 0 ? (
                  <li className="inline-flex items-center gap-2">
                    <Icon name="clock" className="size-5 text-accent-500" aria-hidden="true" />
                    {formatWeeks(course.durationWeeks)}
                  </li>
                ) : null}
                <li className="inline-flex items-center gap-2">
                  <Icon name="users" className="size-5 text-accent-500" aria-hidden="true" />
                  {plural(course.studentCount, "étudiant", "étudiants")}
                </li>
                {course.rating !== null ? (
                  <li className="inline-flex items-center gap-2">
                    <Icon name="star" className="size-5 fill-accent-500 text-accent-500" aria-hidden="true" />
                    <span>
                      <strong className="text-white">{formatRating(course.rating)}</strong>
                      <span className="sr-only"> sur 5</span> ({plural(course.reviewCount, "avis", "avis")})
                    </span>
                  </li>
                ) : null}
              </ul>
            </div>
            {course.thumbnail ? (
              <img
                {...course.thumbnail}
                sizes="(min-width: 1024px) 24rem, 100vw"
                alt=""
                width={384}
                height={216}
                decoding="async"
                className="w-full rounded-2xl shadow-lg lg:w-96"
              />
            ) : null}
          </div>
        </div>
      </section>

      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-12 sm:px-6 lg:grid-cols-12 lg:px-8 lg:py-16">
        <aside aria-labelledby="inscription" className="lg:order-2 lg:col-span-4">
          <div className="rounded-2xl border border-slate-200 bg-white p-6 shadow-lg lg:sticky lg:top-32">
            <h2 id="inscription" className="text-sm font-semibold tracking-wider text-slate-600 uppercase">
              Tarif de la formation
            </h2>
            <EnrolBox
              slug={course.slug}
              priceFcfa={course.priceFcfa}
              following={following}
              full={full}
              closed={course.status !== "published"}
            />
            <dl className="mt-6 divide-y divide-slate-100 border-t border-slate-100 text-sm">
              {facts.map(({ icon, label, value }) => (
                <div key={label} className="flex items-center justify-between gap-4 py-3">
                  <dt className="inline-flex items-center gap-2 text-slate-600">
                    <Icon name={icon} className="size-4 text-brand-700" aria-hidden="true" />
                    {label}
                  </dt>
                  <dd className="text-right font-semibold text-slate-900">{value}</dd>
                </div>
              ))}
            </dl>
          </div>
        </aside>

        <div className="space-y-12 lg:order-1 lg:col-span-8">
          <section aria-labelledby="programme">
            <h2 id="programme" className="text-2xl font-bold text-slate-900">
              Programme de la formation
            </h2>
            <ol className="mt-6 space-y-3">
              {lessons.length > 0
                ? lessons.map((lesson, index) => (
                    <li
                      key={lesson.id}
                      className="flex flex-wrap items-center gap-x-4 gap-y-2 rounded-xl border border-slate-200 bg-white p-4"
                    >
                      <span className="flex size-9 shrink-0 items-center justify-center rounded-full bg-brand-50 text-sm font-bold text-brand-700">
                        {index + 1}
                      </span>
                      <span className="min-w-0 flex-1 font-medium text-slate-800">{lesson.title}</span>
                      {lesson.durationMinutes > 0 ? (
                        <span className="inline-flex items-center gap-1.5 text-sm text-slate-600">
                          <Icon name="clock" className="size-4" aria-hidden="true" />
                          {formatMinutes(lesson.durationMinutes)}
                        </span>
                      ) : null}
                      {lesson.isFree ? (
                        <Link
                          to={`${courseHref(course.slug)}/apercu/${lesson.id}`}
                          className="inline-flex items-center gap-1.5 rounded-full bg-brand-50 px-3 py-1 text-sm font-semibold text-brand-800 hover:underline"
                        >
                          <Icon name="eye" className="size-4" aria-hidden="true" />
                          Aperçu gratuit<span className="sr-only"> : {lesson.title}</span>
                        </Link>
                      ) : null}
                    </li>
                  ))
                : course.modules.map((module, index) => (
                    <li key={module} className="flex items-center gap-4 rounded-xl border border-slate-200 bg-white p-4">
                      <span className="flex size-9 shrink-0 items-center justify-center rounded-full bg-brand-50 text-sm font-bold text-brand-700">
                        {index + 1}
                      </span>
                      <span className="font-medium text-slate-800">{module}</span>
                    </li>
                  ))}
            </ol>
          </section>

          {course.objectives.length > 0 ? (
            <section aria-labelledby="objectifs">
              <h2 id="objectifs" className="text-2xl font-bold text-slate-900">
                Objectifs
              </h2>
              <ul className="mt-6 space-y-3">
                {course.objectives.map((objective) => (
                  <li key={objective} className="flex gap-3 text-slate-700">
                    <Icon name="target" className="mt-0.5 size-5 shrink-0 text-brand-700" aria-hidden="true" />
                    {objective}
                  </li>
                ))}
              </ul>
            </section>
          ) : null}

          {course.prerequisites.length > 0 ? (
            <section aria-labelledby="prerequis">
              <h2 id="prerequis" className="text-2xl font-bold text-slate-900">
                Prérequis
              </h2>
              <ul className="mt-6 space-y-3">
                {course.prerequisites.map((item) => (
                  <li key={item} className="flex gap-3 text-slate-700">
                    <Icon name="circle-check" className="mt-0.5 size-5 shrink-0 text-emerald-700" aria-hidden="true" />
                    {item}
                  </li>
                ))}
              </ul>
            </section>
          ) : null}

          {teacher?.name ? (
            <section aria-labelledby="formateur">
              <h2 id="formateur" className="text-2xl font-bold text-slate-900">
                Votre formateur
              </h2>
              <div className="mt-4 flex items-start gap-4">
                {teacher.photoFileId ? (
                  <img
                    src={fileUrl(teacher.photoFileId, 320)}
                    alt=""
                    width={96}
                    height={96}
                    loading="lazy"
                    className="size-24 shrink-0 rounded-full border border-slate-200 object-cover"
                  />
                ) : null}
                <div>
                  <p className="font-semibold text-slate-900">{teacher.name}</p>
                  {teacher.bio ? <p className="mt-2 whitespace-pre-line text-slate-700">{teacher.bio}</p> : null}
                </div>
              </div>
            </section>
          ) : null}

          <section aria-labelledby="avis">
            <h2 id="avis" className="text-2xl font-bold text-slate-900">
              Avis des apprenants
            </h2>
            {course.rating !== null ? (
              <p className="mt-4 flex flex-wrap items-center gap-x-3 gap-y-1 text-slate-700">
                <Stars rating={course.rating} className="size-5" />
                <span>
                  <strong className="text-slate-900">{formatRating(course.rating)}</strong> sur 5 ·{" "}
                  {plural(course.reviewCount, "avis", "avis")}
                </span>
              </p>
            ) : null}
            {course.baselineReviewCount > 0 ? (
              <p className="mt-1 text-sm text-slate-600">
                Dont {plural(course.baselineReviewCount, "avis recueilli", "avis recueillis")} par l'institut avant cette plateforme.
              </p>
            ) : null}
            {reviews.length > 0 ? (
              <ul className="mt-6 space-y-4">
                {reviews.map((review) => (
                  <li key={review.id} className="rounded-xl border border-slate-200 bg-white p-4">
                    <div className="flex flex-wrap items-center justify-between gap-2">
                      <p className="font-semibold text-slate-900">{review.name}</p>
                      <Stars rating={review.rating} />
                    </div>
                    <p className="text-sm text-slate-600">
                      <time dateTime={review.iso}>{review.date}</time>
                    </p>
                    <p className="mt-2 break-words whitespace-pre-line text-slate-700">{review.body}</p>
                  </li>
                ))}
              </ul>
            ) : (
              <p className="mt-4 text-slate-700">
                Aucun avis n'a encore été publié sur cette plateforme. Les apprenants inscrits peuvent noter la formation depuis leur
                espace.
              </p>
            )}
          </section>

          <div className="flex flex-col gap-3 border-t border-slate-200 pt-8 sm:flex-row sm:items-center sm:justify-between">
            <Link to="/formations" className="inline-flex items-center gap-2 rounded-md font-medium text-brand-700 hover:underline">
              <Icon name="arrow-left" className="size-4" aria-hidden="true" />
              Retour au catalogue
            </Link>
            <Link
              to={`/formations?categorie=${encodeURIComponent(course.categorySlug)}`}
              className="inline-flex items-center gap-2 rounded-md font-medium text-brand-700 hover:underline"
            >
              Autres formations de la catégorie {course.categoryName}
            </Link>
          </div>
        </div>
      </div>
    </main>
  );
}

/** An unknown or unpublished course: the French 404 inside the public layout. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <NotFoundContent message="Cette formation n'existe pas ou n'est plus proposée. Découvrez les autres formations de notre catalogue." />
    );
  }
  throw error;
}
