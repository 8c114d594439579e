import Building2 from "lucide-react/icons/building-2";
import Clock from "lucide-react/icons/clock";
import Mail from "lucide-react/icons/mail";
import MapPin from "lucide-react/icons/map-pin";
import Phone from "lucide-react/icons/phone";
import type { ReactNode } from "react";
import { buttonClasses } from "~/components/ui/button";
import { telHref } from "~/components/public/links";

export interface InstituteContact {
  name: string;
  shortName: string;
  chamberName: string;
  chamberAcronym: string;
  phones: string[];
  email: string;
  address: string;
  openingHours: { days: string; hours: string }[];
  mapsUrl: string;
}

function InfoCard({ icon, title, children }: { icon: ReactNode; title: string; children: ReactNode }) {
  return (
    <section className="flex gap-4 rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
      <div className="flex size-11 shrink-0 items-center justify-center rounded-lg bg-brand-50 text-brand-700" aria-hidden="true">
        {icon}
      </div>
      <div className="min-w-0">
        <h3 className="font-semibold text-slate-900">{title}</h3>
        <div className="mt-1 text-slate-700">{children}</div>
      </div>
    </section>
  );
}

/** "Call us / write to us" card. */
export function QuickContactCard({ institute }: { institute: InstituteContact }) {
  const mainPhone = institute.phones[0];
  return (
    <section aria-labelledby="quick-contact-title" className="rounded-xl bg-brand-700 p-6 text-white shadow-sm">
      <h2 id="quick-contact-title" className="text-lg font-semibold">
        Contact rapide
      </h2>
      <p className="mt-1 text-brand-100">Une question urgente ? Appelez-nous ou écrivez-nous directement.</p>
      <div className="mt-4 flex flex-col gap-3">
        {mainPhone && (
          <a href={telHref(mainPhone)} className={buttonClasses({ variant: "secondary", className: "w-full" })}>
            <Phone className="size-5" aria-hidden="true" />
            Appeler le {mainPhone}
          </a>
        )}
        <a href={`mailto:${institute.email}`} className={buttonClasses({ variant: "inverse", className: "w-full" })}>
          <Mail className="size-5 shrink-0" aria-hidden="true" />
          Écrire un e-mail
        </a>
      </div>
    </section>
  );
}

export function ContactInfoCards({ institute }: { institute: InstituteContact }) {
  return (
    <div className="space-y-4">
      <InfoCard icon={<MapPin className="size-5" />} title="Adresse">
        <address className="not-italic">{institute.address}</address>
      </InfoCard>
      <InfoCard icon={<Phone className="size-5" />} title="Téléphones">
        <ul className="space-y-0.5">
          {institute.phones.map((phone) => (
            <li key={phone}>
              <a href={telHref(phone)} className="text-brand-700 underline-offset-2 hover:underline">
                {phone}
              </a>
            </li>
          ))}
        </ul>
      </InfoCard>
      <InfoCard icon={<Mail className="size-5" />} title="E-mail">
        <a href={`mailto:${institute.email}`} className="break-all text-brand-700 underline-offset-2 hover:underline">
          {institute.email}
        </a>
      </InfoCard>
      <InfoCard icon={<Clock className="size-5" />} title="Horaires d'ouverture">
        <dl className="space-y-0.5">
          {institute.openingHours.map((slot) => (
            <div key={slot.days} className="flex flex-wrap gap-x-2">
              <dt className="font-medium">{slot.days} :</dt>
              <dd>{slot.hours}</dd>
            </div>
          ))}
        </dl>
      </InfoCard>
    </div>
  );
}

export function ChamberCard({ institute }: { institute: InstituteContact }) {
  return (
    <section aria-labelledby="chamber-title" className="rounded-xl border border-accent-500/40 bg-amber-50 p-5">
      <div className="flex items-center gap-3">
        <Building2 className="size-6 text-accent-600" aria-hidden="true" />
        <h2 id="chamber-title" className="font-semibold text-slate-900">
          {institute.chamberName} ({institute.chamberAcronym})
        </h2>
      </div>
      <p className="mt-2 text-slate-700">
        {institute.shortName} est une œuvre de la {institute.chamberAcronym}. Entreprises et organisations membres : parlons de vos besoins
        de formation sur mesure.
      </p>
    </section>
  );
}

export function LocationBlock({ institute }: { institute: InstituteContact }) {
  return (
    <section aria-labelledby="location-title" className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
      <h2 id="location-title" className="text-xl font-semibold text-slate-900">
        Notre localisation
      </h2>
      <p className="mt-1 text-slate-700">{institute.address}</p>
      <div className="mt-4 flex min-h-40 flex-col items-center justify-center gap-2 rounded-lg border-2 border-dashed border-slate-300 bg-slate-50 p-6 text-center">
        <MapPin className="size-8 text-brand-700" aria-hidden="true" />
        <p className="font-medium text-slate-800">
          {institute.name}, {institute.address}
        </p>
        <p className="max-w-md text-sm text-slate-600">
          Pour économiser vos données mobiles, la carte interactive n'est pas chargée sur cette page. Ouvrez Google Maps pour voir
          l'itinéraire.
        </p>
      </div>
      <a
        href={institute.mapsUrl}
        target="_blank"
        rel="noopener noreferrer"
        className={buttonClasses({ variant: "primary", className: "mt-4" })}
      >
        <MapPin className="size-5" aria-hidden="true" />
        Voir sur Google Maps
        <span className="sr-only"> (nouvel onglet)</span>
      </a>
    </section>
  );
}
