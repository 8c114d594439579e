import { Link } from "react-router";
import { listPublishedCourses } from "~/.server/catalogue";
import { dbContext } from "~/.server/context";
import { countPlatformLearners } from "~/.server/reports";
import { CourseCard, toCourseCardData } from "~/components/public/course-card";
import { signInHref, signUpHref } from "~/components/public/links";
import { buttonClasses } from "~/components/ui/button";
import { plural } from "~/lib/format";
import { pageMeta } from "~/lib/seo";
import type { Route } from "./+types/home";
import { Icon } from "~/components/public/icon";

/** The spec's home page shows the first six courses of the catalogue. */
const HOME_COURSE_COUNT = 6;

export async function loader({ context }: Route.LoaderArgs) {
  const db = context.get(dbContext);
  const [courses, learners] = await Promise.all([listPublishedCourses(db, { limit: HOME_COURSE_COUNT }), countPlatformLearners(db)]);
  return { courses: courses.map((course) => toCourseCardData(course, "home")), learners };
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: "Formations professionnelles certifiées à Bamako",
    description:
      "Intelligence artificielle, cybersécurité, data science, marketing digital, énergie solaire… Des formations certifiantes en ligne et à Bamako, avec paiement par mobile money.",
    path: "/",
  });

const features = [
  {
    icon: "circle-play" as const,
    title: "Cours interactifs",
    text: "Vidéos HD, supports PDF, exercices et quiz pour apprendre en pratiquant.",
  },
  {
    icon: "award" as const,
    title: "Certifications reconnues",
    text: "Des certificats validés par l'institut, reconnus par les entreprises.",
  },
  {
    icon: "video" as const,
    title: "Webinaires en direct",
    text: "Des sessions live avec vos formateurs pour poser vos questions.",
  },
  {
    icon: "chart-line" as const,
    title: "Tableau de bord personnel",
    text: "Suivez votre progression, vos résultats et vos prochaines étapes.",
  },
  {
    icon: "messages-square" as const,
    title: "Forum communautaire",
    text: "Échangez avec les autres apprenants et les formateurs.",
  },
  {
    icon: "wallet" as const,
    title: "Paiements flexibles",
    text: "Mobile money, carte bancaire ou espèces dans nos bureaux.",
  },
  {
    icon: "download" as const,
    title: "Téléchargement hors ligne",
    text: "Téléchargez vos contenus et révisez même sans connexion.",
  },
  {
    icon: "smartphone" as const,
    title: "Accès mobile",
    text: "Une plateforme pensée pour le téléphone, légère en données.",
  },
];

export default function Home({ loaderData, matches }: Route.ComponentProps) {
  const layout = matches[1]?.loaderData;
  const institute = layout?.institute;

  return (
    <main>
      {/* Hero */}
      <section className="relative isolate overflow-hidden bg-brand-800 text-white">
        <div
          aria-hidden="true"
          className="absolute inset-0 -z-10 bg-[radial-gradient(ellipse_at_top_right,rgba(59,130,246,0.45),transparent_55%),radial-gradient(ellipse_at_bottom_left,rgba(245,158,11,0.18),transparent_50%)]"
        />
        <div className="mx-auto grid max-w-7xl items-center gap-12 px-4 py-16 sm:px-6 sm:py-20 lg:grid-cols-12 lg:px-8 lg:py-24">
          <div className="lg:col-span-7">
            {institute ? (
              <p className="inline-flex items-center gap-2 rounded-full bg-white/10 px-3 py-1 text-sm font-medium text-brand-50 ring-1 ring-white/20">
                <span className="size-2 rounded-full bg-accent-500" aria-hidden="true" />
                {institute.tagline}
              </p>
            ) : null}
            <h1 className="mt-5 text-3xl leading-tight font-extrabold tracking-tight text-balance sm:text-5xl">
              {institute?.name ?? "Institut de formation"}
            </h1>
            <p className="mt-4 text-xl font-semibold text-balance text-accent-500 sm:text-2xl">
              Formez-vous aux compétences qui font avancer le Mali.
            </p>
            <p className="mt-4 max-w-2xl text-base leading-relaxed text-brand-100 sm:text-lg">
              Intelligence artificielle, cybersécurité, technologies émergentes, commerce et industrie&nbsp;: des formations
              professionnelles certifiées, conçues avec les entreprises, en ligne et à Bamako.
            </p>
            <div className="mt-8 flex flex-col gap-3 sm:flex-row">
              <Link
                to="/formations"
                className={buttonClasses({ variant: "secondary", className: "font-semibold sm:min-h-12 sm:px-6 sm:text-lg" })}
              >
                Découvrir nos formations
                <Icon name="arrow-right" className="size-5" aria-hidden="true" />
              </Link>
              <Link
                to={signInHref}
                className={buttonClasses({
                  variant: "ghost",
                  className: "text-white ring-1 ring-white/40 hover:bg-white/10 sm:min-h-12 sm:px-6 sm:text-lg",
                })}
              >
                Connexion
              </Link>
            </div>
            {/* Counted from enrolments, not an imported figure (docs/decisions/0044-public-student-counts.md). */}
            {loaderData.learners > 0 ? (
              <p className="mt-8 flex items-center gap-3 text-brand-100">
                <span className="flex size-10 items-center justify-center rounded-full bg-white/10 ring-1 ring-white/20">
                  <Icon name="users" className="size-5 text-accent-500" aria-hidden="true" />
                </span>
                <span>
                  Déjà{" "}
                  <strong className="font-bold text-white">
                    {plural(loaderData.learners, "personne apprend", "personnes apprennent")}
                  </strong>{" "}
                  avec nous sur la plateforme
                </span>
              </p>
            ) : null}
          </div>

          <div className="hidden lg:col-span-5 lg:block">
            <div className="rounded-3xl bg-white/10 p-8 ring-1 ring-white/20 backdrop-blur">
              <p className="text-sm font-semibold tracking-wider text-brand-100 uppercase">Pourquoi nous choisir</p>
              <ul className="mt-6 space-y-5">
                {[
                  ["Formations certifiantes", "Des certificats délivrés par l'institut consulaire."],
                  ["Formateurs experts", "Des professionnels en activité, au Mali et à l'international."],
                  ["Paiement adapté", "Mobile money, carte bancaire ou espèces."],
                ].map(([title, text]) => (
                  <li key={title} className="flex gap-4">
                    <Icon name="badge-check" className="mt-0.5 size-6 shrink-0 text-accent-500" aria-hidden="true" />
                    <span>
                      <span className="block font-semibold text-white">{title}</span>
                      <span className="text-sm text-brand-100">{text}</span>
                    </span>
                  </li>
                ))}
              </ul>
            </div>
          </div>
        </div>
      </section>

      {/* Popular courses */}
      <section aria-labelledby="formations-populaires" className="bg-slate-50 py-16 sm:py-20">
        <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
          <div className="mx-auto max-w-2xl text-center">
            <p className="text-sm font-semibold tracking-wider text-brand-700 uppercase">Catalogue</p>
            <h2 id="formations-populaires" className="mt-2 text-3xl font-extrabold tracking-tight text-slate-900 sm:text-4xl">
              Nos formations populaires
            </h2>
            <p className="mt-4 text-slate-600">
              Des parcours professionnalisants, encadrés par des experts et sanctionnés par une certification.
            </p>
          </div>
          <ul className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {loaderData.courses.map((course) => (
              <li key={course.slug} className="flex">
                <CourseCard course={course} />
              </li>
            ))}
          </ul>
          <div className="mt-12 text-center">
            <Link to="/formations" className={buttonClasses({ variant: "outline", size: "lg" })}>
              Voir toutes les formations
              <Icon name="arrow-right" className="size-5" aria-hidden="true" />
            </Link>
          </div>
        </div>
      </section>

      {/* Features */}
      <section aria-labelledby="plateforme" className="py-16 sm:py-20">
        <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
          <div className="mx-auto max-w-2xl text-center">
            <p className="text-sm font-semibold tracking-wider text-brand-700 uppercase">La plateforme</p>
            <h2 id="plateforme" className="mt-2 text-3xl font-extrabold tracking-tight text-slate-900 sm:text-4xl">
              Une plateforme pensée pour votre réussite
            </h2>
            <p className="mt-4 text-slate-600">
              Tout ce qu'il faut pour apprendre à votre rythme, où que vous soyez, même avec une connexion limitée.
            </p>
          </div>
          <ul className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
            {features.map(({ icon, title, text }) => (
              <li
                key={title}
                className="flex gap-4 rounded-2xl border border-slate-200 bg-white p-4 transition-shadow hover:shadow-md sm:block sm:p-6"
              >
                <span className="flex size-12 shrink-0 items-center justify-center rounded-xl bg-brand-50 text-brand-700">
                  <Icon name={icon} className="size-6" aria-hidden="true" />
                </span>
                <div>
                  <h3 className="text-lg font-bold text-slate-900 sm:mt-4">{title}</h3>
                  <p className="mt-1 text-sm leading-relaxed text-slate-600 sm:mt-2">{text}</p>
                </div>
              </li>
            ))}
          </ul>
        </div>
      </section>

      {/* Call to action */}
      <section aria-labelledby="cta" className="px-4 pb-16 sm:px-6 sm:pb-20 lg:px-8">
        <div className="relative isolate mx-auto max-w-7xl overflow-hidden rounded-3xl bg-brand-700 px-6 py-12 text-center text-white sm:px-12 sm:py-16">
          <div
            aria-hidden="true"
            className="absolute inset-0 -z-10 bg-[radial-gradient(circle_at_20%_0%,rgba(245,158,11,0.25),transparent_40%),radial-gradient(circle_at_90%_100%,rgba(30,58,138,0.9),transparent_55%)]"
          />
          <h2 id="cta" className="text-2xl font-extrabold tracking-tight sm:text-4xl">
            Prêt à commencer votre formation&nbsp;?
          </h2>
          <p className="mx-auto mt-4 max-w-2xl text-brand-100 sm:text-lg">
            Créez votre compte en quelques minutes et rejoignez les professionnels qui se forment avec nous.
          </p>
          <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
            <Link to={signUpHref} className={buttonClasses({ variant: "secondary", size: "lg", className: "font-semibold" })}>
              Créer mon compte
            </Link>
            <Link
              to="/formations"
              className={buttonClasses({ variant: "ghost", size: "lg", className: "text-white ring-1 ring-white/50 hover:bg-white/10" })}
            >
              Découvrir les formations
            </Link>
          </div>
        </div>
      </section>
    </main>
  );
}
