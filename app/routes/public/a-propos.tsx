import { Link } from "react-router";
import { LeaderCard } from "~/components/about/leader-card";
import { QuoteRotator } from "~/components/about/quote-rotator";
import { courseHref, telHref } from "~/components/public/links";
import { buttonClasses } from "~/components/ui/button";
import { getAboutPage } from "~/.server/about";
import { getInstitute } from "~/.server/catalogue";
import { dbContext } from "~/.server/context";
import { countPlatformLearners } from "~/.server/reports";
import { formatHighlight, QUOTE_ROTATION_MS } from "~/lib/about";
import { plural } from "~/lib/format";
import { pageMeta } from "~/lib/seo";
import type { Route } from "./+types/a-propos";
import { Icon } from "~/components/public/icon";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: "À propos",
    description:
      "Une œuvre de la Chambre de Commerce et d'Industrie du Mali : notre histoire, nos expertises en IA, cybersécurité et technologies émergentes, notre équipe de direction.",
    path: "/a-propos",
  });

export async function loader({ context }: Route.LoaderArgs) {
  const db = context.get(dbContext);
  const [institute, { highlights, leaders, quotes }, learners] = await Promise.all([
    getInstitute(db),
    getAboutPage(db),
    countPlatformLearners(db),
  ]);
  return {
    highlights,
    learners,
    leaders,
    quotes,
    institute: {
      name: institute.name,
      shortName: institute.shortName,
      tagline: institute.tagline,
      chamberName: institute.chamberName,
      chamberAcronym: institute.chamberAcronym,
      phones: institute.phones,
      email: institute.email,
      address: institute.address,
    },
  };
}

const expertises = [
  {
    icon: "brain" as const,
    title: "Intelligence Artificielle",
    text: "Apprentissage automatique, IA générative et science des données appliquées aux besoins des entreprises maliennes.",
    href: courseHref("intelligence-artificielle"),
    linkLabel: "La formation en intelligence artificielle",
  },
  {
    icon: "shield" as const,
    title: "Cybersécurité",
    text: "Protéger les systèmes d'information, détecter les attaques et former les équipes aux bons réflexes.",
    href: courseHref("cybersecurite"),
    linkLabel: "La formation en cybersécurité",
  },
  {
    icon: "cpu" as const,
    title: "Technologies émergentes",
    text: "Développement web, énergie solaire, mécatronique : les compétences techniques qui transforment l'industrie.",
    href: "/formations?categorie=tech",
    linkLabel: "Les formations Tech",
  },
];

export default function About({ loaderData }: Route.ComponentProps) {
  const { institute, highlights, learners, leaders, quotes } = loaderData;
  return (
    <main>
      {/* Hero */}
      <section className="relative isolate overflow-hidden bg-brand-800 px-4 py-16 text-white sm:py-24">
        <div
          aria-hidden="true"
          className="absolute inset-0 -z-10 bg-[radial-gradient(ellipse_at_top_left,rgba(59,130,246,0.45),transparent_55%),radial-gradient(ellipse_at_bottom_right,rgba(245,158,11,0.2),transparent_50%)]"
        />
        <div className="mx-auto max-w-5xl text-center">
          <p className="inline-flex items-center gap-2 rounded-full bg-white/10 px-3 py-1 text-sm font-medium ring-1 ring-white/20">
            <span className="size-2 rounded-full bg-accent-500" aria-hidden="true" />
            {institute.tagline}
          </p>
          <h1 className="mt-5 text-3xl leading-tight font-extrabold tracking-tight sm:text-5xl">À propos de l'{institute.shortName}</h1>
          <p className="mt-3 text-lg font-semibold text-accent-500 sm:text-xl">{institute.name}</p>
          <p className="mx-auto mt-4 max-w-3xl text-base leading-relaxed text-brand-100 sm:text-lg">
            Nous formons les professionnels du Mali et de l'Afrique de l'Ouest aux métiers d'aujourd'hui et de demain, au plus près des
            besoins des entreprises.
          </p>
          <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
            <a href="#histoire" className={buttonClasses({ variant: "secondary", size: "lg", className: "font-semibold" })}>
              Découvrir notre histoire
            </a>
            <Link to="/contact" className={buttonClasses({ variant: "inverse", size: "lg" })}>
              Nous contacter
            </Link>
          </div>
        </div>
      </section>

      {/* Statistics */}
      {highlights.length > 0 && (
        <section aria-labelledby="chiffres-title" className="border-b border-slate-200 bg-white px-4 py-12">
          <h2 id="chiffres-title" className="sr-only">
            L'institut en chiffres
          </h2>
          <dl className="mx-auto grid max-w-5xl grid-cols-2 gap-6 text-center lg:grid-cols-4">
            {highlights.map((stat) => (
              <div key={stat.id} className="flex flex-col-reverse rounded-xl bg-brand-50 p-5">
                <dt className="mt-1 text-sm font-medium text-slate-700">{stat.label}</dt>
                <dd className="text-3xl font-extrabold text-brand-700 sm:text-4xl">{formatHighlight(stat.value, stat.suffix)}</dd>
              </div>
            ))}
          </dl>
          {/* Editorial figures are disclosed as such; the platform's own is counted (decision 0044). */}
          <p className="mx-auto mt-6 max-w-5xl text-center text-sm text-slate-600">
            Chiffres déclarés par l'institut depuis sa création, formations en salle comprises.
            {learners > 0
              ? ` Sur cette plateforme : ${plural(learners, "personne inscrite", "personnes inscrites")} à nos formations.`
              : null}
          </p>
        </section>
      )}

      {/* History: a creation of the chamber of commerce */}
      <section id="histoire" aria-labelledby="histoire-title" className="scroll-mt-20 px-4 py-16">
        <div className="mx-auto grid max-w-5xl items-center gap-10 lg:grid-cols-2">
          <div>
            <h2 id="histoire-title" className="text-2xl font-bold text-slate-900 sm:text-3xl">
              Une création de la {institute.chamberAcronym}
            </h2>
            <p className="mt-4 leading-relaxed text-slate-700">
              L'{institute.name} est une œuvre de la {institute.chamberName}. La Chambre l'a créé pour donner aux entreprises maliennes les
              compétences dont elles ont besoin et aux jeunes diplômés un accès direct à l'emploi.
            </p>
            <p className="mt-4 leading-relaxed text-slate-700">
              Formations certifiantes, programmes sur mesure pour les entreprises membres, partenariats avec des établissements
              internationaux : l'institut relie le monde de la formation et celui de l'économie.
            </p>
            <a href="#equipe" className={buttonClasses({ variant: "outline", className: "mt-6" })}>
              Rencontrer notre équipe
            </a>
          </div>
          <div className="rounded-2xl border border-slate-200 bg-slate-50 p-6">
            <div className="flex items-center gap-3">
              <Icon name="building-2" className="size-8 text-brand-700" aria-hidden="true" />
              <p className="font-semibold text-slate-900">{institute.chamberName}</p>
            </div>
            <ul className="mt-4 space-y-3 text-slate-700">
              <li className="flex gap-2">
                <span className="mt-2 size-2 shrink-0 rounded-full bg-accent-500" aria-hidden="true" />
                Un établissement consulaire, au service des entreprises et des apprenants.
              </li>
              <li className="flex gap-2">
                <span className="mt-2 size-2 shrink-0 rounded-full bg-accent-500" aria-hidden="true" />
                Des formateurs issus de l'entreprise et des certifications reconnues.
              </li>
              <li className="flex gap-2">
                <span className="mt-2 size-2 shrink-0 rounded-full bg-accent-500" aria-hidden="true" />
                Des cours en ligne, en présentiel à Bamako, et téléchargeables pour apprendre hors connexion.
              </li>
            </ul>
          </div>
        </div>
      </section>

      {/* Expertise */}
      <section id="expertises" aria-labelledby="expertises-title" className="scroll-mt-20 bg-slate-50 px-4 py-16">
        <div className="mx-auto max-w-6xl">
          <h2 id="expertises-title" className="text-center text-2xl font-bold text-slate-900 sm:text-3xl">
            Nos domaines d'expertise
          </h2>
          <div className="mt-10 grid gap-6 md:grid-cols-3">
            {expertises.map(({ icon, title, text, href, linkLabel }) => (
              <article key={title} className="flex flex-col rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
                <div className="flex size-12 items-center justify-center rounded-xl bg-brand-700 text-white" aria-hidden="true">
                  <Icon name={icon} className="size-6" />
                </div>
                <h3 className="mt-4 text-lg font-semibold text-slate-900">{title}</h3>
                <p className="mt-2 flex-1 text-slate-700">{text}</p>
                <Link to={href} className="mt-4 inline-flex items-center gap-1 font-medium text-brand-700 hover:underline">
                  {linkLabel}
                  <Icon name="arrow-right" className="size-4" aria-hidden="true" />
                </Link>
              </article>
            ))}
          </div>
          <div className="mt-10 text-center">
            <Link to="/formations" className={buttonClasses({ variant: "primary", size: "lg" })}>
              En savoir plus sur nos formations
            </Link>
          </div>
        </div>
      </section>

      {/* Leadership */}
      <section id="equipe" aria-labelledby="equipe-title" className="scroll-mt-20 px-4 py-16">
        <div className="mx-auto max-w-6xl">
          <h2 id="equipe-title" className="text-center text-2xl font-bold text-slate-900 sm:text-3xl">
            Notre équipe de direction
          </h2>
          <p className="mx-auto mt-3 max-w-2xl text-center text-slate-700">
            Des professionnels expérimentés, engagés pour la réussite de chaque apprenant.
          </p>
          <div className="mt-10 grid gap-6 md:grid-cols-2 lg:grid-cols-3">
            {leaders.map((leader) => (
              <LeaderCard key={leader.id} leader={leader} />
            ))}
          </div>
        </div>
      </section>

      {/* Rotating quote */}
      {quotes.length > 0 && (
        <section aria-labelledby="citations-title" className="bg-brand-800 px-4 py-14">
          <h2 id="citations-title" className="sr-only">
            Paroles de la direction
          </h2>
          <QuoteRotator quotes={quotes} intervalMs={QUOTE_ROTATION_MS} />
        </section>
      )}

      {/* Contact block */}
      <section aria-labelledby="coordonnees-title" className="px-4 py-16">
        <div className="mx-auto max-w-5xl rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-10">
          <h2 id="coordonnees-title" className="text-2xl font-bold text-slate-900">
            Nous rendre visite ou nous joindre
          </h2>
          <div className="mt-6 grid gap-6 md:grid-cols-3">
            <div className="flex gap-3">
              <Icon name="map-pin" className="mt-1 size-5 shrink-0 text-brand-700" aria-hidden="true" />
              <div>
                <h3 className="font-semibold text-slate-900">Adresse</h3>
                <address className="text-slate-700 not-italic">{institute.address}</address>
              </div>
            </div>
            <div className="flex gap-3">
              <Icon name="phone" className="mt-1 size-5 shrink-0 text-brand-700" aria-hidden="true" />
              <div>
                <h3 className="font-semibold text-slate-900">Téléphones</h3>
                <ul>
                  {institute.phones.map((phone) => (
                    <li key={phone}>
                      <a href={telHref(phone)} className="text-brand-700 hover:underline">
                        {phone}
                      </a>
                    </li>
                  ))}
                </ul>
              </div>
            </div>
            <div className="flex min-w-0 gap-3">
              <Icon name="mail" className="mt-1 size-5 shrink-0 text-brand-700" aria-hidden="true" />
              <div className="min-w-0">
                <h3 className="font-semibold text-slate-900">E-mail</h3>
                <a href={`mailto:${institute.email}`} className="break-all text-brand-700 hover:underline">
                  {institute.email}
                </a>
              </div>
            </div>
          </div>
          <Link to="/contact" className={buttonClasses({ variant: "primary", className: "mt-8" })}>
            Nous contacter
          </Link>
        </div>
      </section>
    </main>
  );
}
