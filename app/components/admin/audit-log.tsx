import { roleLabels, isRole } from "~/lib/roles";
import { formatDateTime } from "~/lib/dates";

export type AuditEntryView = {
  id: number;
  action: string;
  details: Record<string, unknown>;
  createdAt: Date | string;
  actorName: string | null;
  targetName: string | null;
  targetEmail: string | null;
};

function roleName(value: unknown): string {
  return isRole(value) ? roleLabels[value] : String(value ?? "?");
}

const forumModerationWords: Record<string, string> = {
  forum_thread_pin: "a épinglé le sujet",
  forum_thread_unpin: "a désépinglé le sujet",
  forum_thread_lock: "a verrouillé le sujet",
  forum_thread_unlock: "a déverrouillé le sujet",
  forum_thread_hide: "a masqué le sujet",
  forum_thread_unhide: "a rétabli le sujet",
  forum_reply_hide: "a masqué une réponse du sujet",
  forum_reply_unhide: "a rétabli une réponse du sujet",
};

/** One sentence per entry, in French: who did what to whom. */
export function describeAudit(entry: AuditEntryView): string {
  const target = entry.targetName?.trim() || entry.targetEmail || "un compte supprimé";
  switch (entry.action) {
    case "role_changed":
      return `a changé le rôle de ${target} : ${roleName(entry.details.from)} → ${roleName(entry.details.to)}`;
    case "user_created":
      return `a créé le compte de ${target} (${roleName(entry.details.role)}) et envoyé une invitation`;
    case "invitation_resent":
      return `a renvoyé l'invitation de ${target}`;
    case "user_deactivated":
      return `a désactivé le compte de ${target}`;
    case "user_reactivated":
      return `a réactivé le compte de ${target}`;
    case "users_exported":
      return `a exporté la liste des utilisateurs (${Number(entry.details.count ?? 0)} lignes)`;
    case "contact_replied":
      return `a répondu au message de contact n° ${Number(entry.details.messageId ?? 0)}`;
    case "contact_archived":
      return `a archivé le message de contact n° ${Number(entry.details.messageId ?? 0)}`;
    case "contact_restored":
      return `a remis le message de contact n° ${Number(entry.details.messageId ?? 0)} dans la boîte de réception`;
    case "newsletter_sent":
      return `a envoyé la lettre « ${String(entry.details.subject ?? "")} » à ${Number(entry.details.subscribers ?? 0)} abonnés`;
    case "newsletter_exported":
      return `a exporté la liste des abonnés à la lettre (${Number(entry.details.count ?? 0)} lignes)`;
    case "enrolment_granted":
      return `a inscrit ${target} à la main (${entry.details.kind === "scholarship" ? "bourse" : "place gratuite"} : ${String(entry.details.reason ?? "")})`;
    case "enrolment_paused":
      return `a suspendu l'inscription de ${target}`;
    case "enrolment_resumed":
      return `a repris l'inscription de ${target}`;
    case "enrolment_cancelled":
      return `a annulé l'inscription de ${target}`;
    case "forum_thread_pin":
    case "forum_thread_unpin":
    case "forum_thread_lock":
    case "forum_thread_unlock":
    case "forum_thread_hide":
    case "forum_thread_unhide":
    case "forum_reply_hide":
    case "forum_reply_unhide":
      return `${forumModerationWords[entry.action]} « ${String(entry.details.title ?? "")} » (forum, message de ${target})`;
    default:
      return `${entry.action} (${target})`;
  }
}

export function AuditLogList({ entries }: { entries: AuditEntryView[] }) {
  if (entries.length === 0) return <p className="text-sm text-slate-600">Aucune action enregistrée pour le moment.</p>;
  return (
    <ol className="divide-y divide-slate-100">
      {entries.map((entry) => (
        <li key={entry.id} className="flex flex-col gap-0.5 py-2 text-sm sm:flex-row sm:gap-3">
          <time dateTime={new Date(entry.createdAt).toISOString()} className="shrink-0 text-slate-600 sm:w-44">
            {formatDateTime(new Date(entry.createdAt))}
          </time>
          <span>
            <strong className="font-semibold">{entry.actorName?.trim() || "Un administrateur"}</strong> {describeAudit(entry)}
          </span>
        </li>
      ))}
    </ol>
  );
}
