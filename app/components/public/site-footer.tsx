import { Link } from "react-router";
import { catalogueSearchHref, telHref } from "./links";
import { LogoMark } from "./logo";
import { NewsletterForm } from "./newsletter-form";
import { SocialIcon } from "./social-icon";
import { Icon } from "~/components/public/icon";

export interface FooterInstitute {
  name: string;
  shortName: string;
  tagline: string;
  phones: string[];
  email: string;
  address: string;
  openingHours: { days: string; hours: string }[];
  socialLinks: { network: string; label: string; url: string }[];
}

const legalLinks = [
  { to: "/confidentialite", label: "Politique de confidentialité" },
  { to: "/conditions-utilisation", label: "Conditions d'utilisation" },
  { to: "/mentions-legales", label: "Mentions légales" },
];

export function SiteFooter({
  institute,
  techCourses,
  year,
}: {
  institute: FooterInstitute;
  techCourses: { slug: string; title: string }[];
  year: number;
}) {
  const headingClass = "text-sm font-semibold tracking-wider text-white uppercase";
  return (
    <footer className="bg-slate-900 text-slate-300">
      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-14 sm:grid-cols-2 sm:px-6 lg:grid-cols-12 lg:gap-8 lg:px-8">
        <div className="lg:col-span-4">
          <Link to="/" className="inline-flex items-center gap-3 rounded-md">
            <LogoMark className="size-11 shrink-0" />
            <span className="flex flex-col leading-tight">
              <span className="text-lg font-extrabold text-white">{institute.shortName}</span>
              <span className="text-sm text-slate-300">{institute.name}</span>
            </span>
          </Link>
          <p className="mt-4 max-w-sm text-sm leading-relaxed text-slate-400">
            L'excellence de la formation professionnelle au Mali&nbsp;: des formations certifiantes, conçues avec les entreprises, pour les
            talents du Mali et de l'Afrique de l'Ouest. <span className="font-medium text-slate-300">{institute.tagline}.</span>
          </p>
          {institute.socialLinks.length > 0 ? (
            <ul className="mt-6 flex gap-3" aria-label="Réseaux sociaux">
              {institute.socialLinks.map((link) => (
                <li key={link.url}>
                  <a
                    href={link.url}
                    target="_blank"
                    rel="noopener noreferrer"
                    aria-label={`${link.label} (nouvel onglet)`}
                    className="flex size-10 items-center justify-center rounded-full bg-slate-800 text-slate-200 transition-colors hover:bg-brand-700 hover:text-white"
                  >
                    <SocialIcon network={link.network} />
                  </a>
                </li>
              ))}
            </ul>
          ) : null}
        </div>

        <nav aria-labelledby="footer-tech" className="lg:col-span-2">
          <h2 id="footer-tech" className={headingClass}>
            Formations Tech
          </h2>
          <ul className="mt-4 space-y-2.5 text-sm">
            {techCourses.map((course) => (
              <li key={course.slug}>
                <Link to={catalogueSearchHref(course.title)} className="hover:text-white hover:underline">
                  {course.title}
                </Link>
              </li>
            ))}
            <li>
              <Link to="/formations" className="font-medium text-accent-500 hover:underline">
                Tout le catalogue
              </Link>
            </li>
          </ul>
        </nav>

        <div className="lg:col-span-3">
          <h2 className={headingClass}>Contact</h2>
          <address className="mt-4 space-y-3 text-sm not-italic">
            <p className="flex gap-2.5">
              <Icon name="map-pin" className="mt-0.5 size-4 shrink-0 text-accent-500" aria-hidden="true" />
              <span>{institute.address}</span>
            </p>
            <div className="flex gap-2.5">
              <Icon name="phone" className="mt-0.5 size-4 shrink-0 text-accent-500" aria-hidden="true" />
              <ul className="space-y-1">
                {institute.phones.map((phone) => (
                  <li key={phone}>
                    <a href={telHref(phone)} className="hover:text-white hover:underline">
                      {phone}
                    </a>
                  </li>
                ))}
              </ul>
            </div>
            <p className="flex gap-2.5">
              <Icon name="mail" className="mt-0.5 size-4 shrink-0 text-accent-500" aria-hidden="true" />
              <a href={`mailto:${institute.email}`} className="break-all hover:text-white hover:underline">
                {institute.email}
              </a>
            </p>
            {institute.openingHours.length > 0 ? (
              <div className="flex gap-2.5">
                <Icon name="clock" className="mt-0.5 size-4 shrink-0 text-accent-500" aria-hidden="true" />
                <ul className="space-y-1">
                  {institute.openingHours.map((slot) => (
                    <li key={slot.days}>
                      {slot.days}&nbsp;: {slot.hours}
                    </li>
                  ))}
                </ul>
              </div>
            ) : null}
          </address>
        </div>

        <div className="sm:col-span-2 lg:col-span-3">
          <h2 className={headingClass}>Newsletter</h2>
          <p className="mt-4 text-sm text-slate-400">
            Nouvelles formations, sessions et événements&nbsp;: recevez l'essentiel, une à deux fois par mois.
          </p>
          <NewsletterForm />
        </div>
      </div>

      <div className="border-t border-slate-800">
        <div className="mx-auto flex max-w-7xl flex-col gap-4 px-4 py-6 text-sm text-slate-400 sm:px-6 md:flex-row md:items-center md:justify-between lg:px-8">
          <p>
            © {year} {institute.name}. Tous droits réservés.
          </p>
          <nav aria-label="Informations légales">
            <ul className="flex flex-wrap gap-x-6 gap-y-2">
              {legalLinks.map((link) => (
                <li key={link.to}>
                  <Link to={link.to} className="hover:text-white hover:underline">
                    {link.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        </div>
      </div>
    </footer>
  );
}
