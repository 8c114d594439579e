import { GraduationCap, ShieldCheck, UserPlus, Users, BookOpen } from "~/components/icons";
import { plural } from "~/lib/format";
import { StatCard } from "~/components/ui/stat-card";

export type UserStatsView = {
  total: number;
  students: number;
  teachers: number;
  admins: number;
  newThisMonth: number;
  deactivated: number;
};

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
          note={
            stats.deactivated > 0
              ? `dont ${plural(stats.deactivated, "compte désactivé", "comptes désactivés")}`
              : "Tous les comptes sont actifs"
          }
          icon={<Users className={iconClass} />}
        />
        <StatCard label="Étudiants" value={stats.students} icon={<GraduationCap className={iconClass} />} />
        <StatCard label="Enseignants" value={stats.teachers} icon={<BookOpen className={iconClass} />} />
        <StatCard label="Administrateurs" value={stats.admins} icon={<ShieldCheck className={iconClass} />} />
        <StatCard
          label="Nouveaux ce mois"
          value={stats.newThisMonth}
          note="Inscrits depuis le 1er du mois"
          icon={<UserPlus className={iconClass} />}
        />
      </dl>
    </section>
  );
}
