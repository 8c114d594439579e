import { Link } from "react-router";
import { ArrowRight, Award, BookOpen, Library, Mail, MessagesSquare, User } from "lucide-react";
import { requireUser } from "~/.server/auth/guards";
import { roleLabels } from "~/lib/roles";
import type { Route } from "./+types/index";

export async function loader(args: Route.LoaderArgs) {
  const user = await requireUser(args);
  return { firstName: user.firstName.trim(), role: user.role };
}

export function meta() {
  return [{ title: "Tableau de bord" }];
}

const shortcuts = [
  { to: "/dashboard/profile", label: "Mon Profil", text: "Vos informations, la sécurité de votre compte et votre activité.", icon: User },
  { to: "/formations", label: "Catalogue des formations", text: "Parcourez les formations certifiantes de l'institut.", icon: Library },
  { to: "/dashboard/formations", label: "Mes Formations", text: "Les formations auxquelles vous êtes inscrit.", icon: BookOpen },
  { to: "/dashboard/forum", label: "Forum", text: "Échangez avec les autres apprenants et les formateurs.", icon: MessagesSquare },
  { to: "/dashboard/messages", label: "Messagerie", text: "Vos conversations avec vos formateurs.", icon: Mail },
  { to: "/dashboard/certificates", label: "Certificats", text: "Vos certificats obtenus et à venir.", icon: Award },
] as const;

/**
 * The student dashboard's welcome. The spec's figures are hard-coded samples: they are not shown;
 * the real overview (courses, progress, live sessions) comes with enrolments.
 */
export default function DashboardIndex({ loaderData }: Route.ComponentProps) {
  const { firstName, role } = loaderData;
  return (
    <div className="mx-auto max-w-5xl space-y-8">
      <div>
        <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">Bienvenue, {firstName || "Utilisateur"} !</h1>
        <p className="mt-2 text-slate-700">
          Votre espace {roleLabels[role].toLowerCase()} : retrouvez ici vos formations, vos échanges et vos certificats.
        </p>
      </div>
      <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {shortcuts.map(({ to, label, text, icon: Icon }) => (
          <li key={to}>
            <Link
              to={to}
              className="group flex h-full flex-col gap-2 rounded-lg border border-slate-200 bg-white p-5 shadow-sm transition-colors hover:border-brand-600"
            >
              <span className="flex items-center gap-2 font-semibold text-slate-900">
                <Icon aria-hidden="true" className="size-5 text-brand-700" />
                {label}
                <ArrowRight aria-hidden="true" className="ml-auto size-4 text-slate-500 group-hover:text-brand-700" />
              </span>
              <span className="text-sm text-slate-700">{text}</span>
            </Link>
          </li>
        ))}
      </ul>
      {role !== "user" && (
        <p className="text-sm text-slate-700">
          {role === "admin" ? (
            <>
              Administration : <Link className="font-medium text-brand-700 underline" to="/admin/users">gérer les utilisateurs</Link>.
            </>
          ) : (
            <>
              Enseignement : <Link className="font-medium text-brand-700 underline" to="/teacher">ouvrir le portail enseignant</Link>.
            </>
          )}
        </p>
      )}
    </div>
  );
}
