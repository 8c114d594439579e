import { Avatar } from "~/components/ui/avatar";
import { RoleBadge } from "~/components/ui/role-badge";
import type { Role } from "~/lib/roles";

export type AuthorView = { name: string; role: Role } | null;

/** "Aïssata Keïta [Étudiant] · il y a 5 minutes (modifié)": who wrote a post and when. */
export function AuthorLine({
  author,
  when,
  at,
  iso,
  edited,
}: {
  author: AuthorView;
  when: string;
  at: string;
  iso: string;
  edited?: boolean;
}) {
  const [firstName, ...rest] = (author?.name ?? "").split(" ");
  return (
    <div className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm">
      <Avatar firstName={firstName} lastName={rest.join(" ")} size="sm" />
      <span className="font-semibold text-slate-900">{author?.name ?? "Compte supprimé"}</span>
      {author && <RoleBadge role={author.role} />}
      <span aria-hidden="true" className="text-slate-500">
        ·
      </span>
      <time dateTime={iso} title={at} className="text-slate-600">
        {when}
      </time>
      {edited && <span className="text-slate-600">(modifié)</span>}
    </div>
  );
}
