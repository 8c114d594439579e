import Award from "lucide-react/icons/award";
import { formatExperience, formatProjects, initialsOf } from "~/lib/about";

/** A leadership card's data, as the about page's loader reads it from `team_members`. */
export interface Leader {
  name: string;
  role: string;
  expertise: string;
  experienceYears: number;
  projectsCount: number;
  description: string;
  specialties: string[];
  achievement: string;
}

export function LeaderCard({ leader }: { leader: Leader }) {
  return (
    <article className="group relative flex flex-col overflow-hidden rounded-2xl border border-slate-200 bg-white p-6 shadow-sm transition hover:shadow-md motion-safe:hover:-translate-y-1">
      {/* Decorative dots that drift on hover (CSS only; still under prefers-reduced-motion). */}
      <span
        aria-hidden="true"
        className="pointer-events-none absolute -top-12 -right-12 size-24 rounded-full bg-brand-50 transition-transform duration-500 motion-safe:group-hover:scale-125"
      />
      <span
        aria-hidden="true"
        className="pointer-events-none absolute -bottom-3 -left-3 size-6 rounded-full bg-accent-500/30 transition-transform duration-700 motion-safe:group-hover:translate-x-2 motion-safe:group-hover:-translate-y-2"
      />
      <div className="relative flex items-center gap-4">
        <div
          aria-hidden="true"
          className="flex size-16 shrink-0 items-center justify-center rounded-full bg-brand-700 text-xl font-bold text-white"
        >
          {initialsOf(leader.name)}
        </div>
        <div className="min-w-0">
          <h3 className="text-lg font-semibold text-slate-900">{leader.name}</h3>
          <p className="font-medium text-brand-700">{leader.role}</p>
          <p className="text-sm text-slate-600">{leader.expertise}</p>
        </div>
      </div>
      <dl className="relative mt-5 grid grid-cols-2 gap-3 text-center">
        <div className="rounded-lg bg-brand-50 p-3">
          <dt className="text-xs text-slate-600">Expérience</dt>
          <dd className="text-lg font-bold text-brand-800">{formatExperience(leader.experienceYears)}</dd>
        </div>
        <div className="rounded-lg bg-amber-50 p-3">
          <dt className="text-xs text-slate-600">Projets menés</dt>
          <dd className="text-lg font-bold text-amber-800">{formatProjects(leader.projectsCount)}</dd>
        </div>
      </dl>
      <p className="relative mt-4 text-slate-700">{leader.description}</p>
      <ul className="relative mt-4 flex flex-wrap gap-2" aria-label={`Spécialités de ${leader.name}`}>
        {leader.specialties.map((specialty) => (
          <li key={specialty} className="rounded-full bg-slate-100 px-3 py-1 text-sm text-slate-700">
            {specialty}
          </li>
        ))}
      </ul>
      <p className="relative mt-4 flex items-start gap-2 border-t border-slate-100 pt-4 text-sm text-slate-700">
        <Award className="mt-0.5 size-4 shrink-0 text-accent-600" aria-hidden="true" />
        <span>{leader.achievement}</span>
      </p>
    </article>
  );
}
