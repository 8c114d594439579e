import { GraduationCap, ShieldCheck, UserPlus, Users, BookOpen } from "lucide-react";
import type { ReactNode } from "react";
import { plural } from "~/lib/format";

export type UserStatsView = {
  total: number;
  students: number;
  teachers: number;
  admins: number;
  newThisMonth: number;
  deactivated: number;
};

/** One figure of a stat-card row (users, courses); a number is written the French way. */
export function StatCard({ label, value, note, icon, wide }: { label: string; value: number | string; note?: string; icon: ReactNode; wide?: boolean }) {
  // dt and dd sit directly in a div directly in the dl, as HTML allows.
  return (
    <div className={`rounded-lg border border-slate-200 bg-white p-4 shadow-sm ${wide ? "col-span-2 md:col-span-1" : ""}`}>
      <dt className="flex items-start justify-between gap-2 text-sm font-medium text-slate-600">
        {label}
        <span aria-hidden="true" className="text-brand-700">
          {icon}
        </span>
      </dt>
      <dd className="mt-2 text-3xl font-bold text-slate-900">{typeof value === "number" ? value.toLocaleString("fr-FR") : value}</dd>
      {note && <dd className="mt-1 text-xs text-slate-600">{note}</dd>}
    </div>
  );
}

/** The five stat cards of "Gestion des Utilisateurs", every figure counted in the database. */
export function UserStats({ stats }: { stats: UserStatsView }) {
  const iconClass = "size-5";
  return (
    <section aria-labelledby="user-stats-title">
      <h2 id="user-stats-title" className="sr-only">
        Statistiques des utilisateurs
      </h2>
      <dl className="grid grid-cols-2 gap-3 sm:gap-4 md:grid-cols-3 xl:grid-cols-5">
      <StatCard
        label="Total utilisateurs"
        wide
        value={stats.total}
        note={stats.deactivated > 0 ? `dont ${plural(stats.deactivated, "compte désactivé", "comptes désactivés")}` : "Tous les comptes sont actifs"}
        icon={<Users className={iconClass} />}
      />
      <StatCard label="Étudiants" value={stats.students} icon={<GraduationCap className={iconClass} />} />
      <StatCard label="Enseignants" value={stats.teachers} icon={<BookOpen className={iconClass} />} />
      <StatCard label="Administrateurs" value={stats.admins} icon={<ShieldCheck className={iconClass} />} />
      <StatCard label="Nouveaux ce mois" value={stats.newThisMonth} note="Inscrits depuis le 1er du mois" icon={<UserPlus className={iconClass} />} />
      </dl>
    </section>
  );
}
