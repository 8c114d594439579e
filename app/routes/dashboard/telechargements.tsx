import { CloudDownload, CloudUpload, Trash2 } from "~/components/icons";
import { useCallback, useEffect, useState } from "react";
import { Link, href } from "react-router";
import { userContext } from "~/.server/context";
import { usePendingEntries } from "~/components/offline/offline-sync";
import { Alert } from "~/components/ui/alert";
import { Button, buttonClasses } from "~/components/ui/button";
import { formatDateTime } from "~/lib/dates";
import { plural } from "~/lib/format";
import {
  askPersistentStorage,
  deleteDownload,
  listDownloads,
  offlineSupported,
  storageEstimate,
  type DownloadRecord,
} from "~/lib/offline/store";
import { isQuizAttempt, type PendingEntry } from "~/lib/offline/outbox";
import { formatFileSize } from "~/lib/uploads";
import type { Route } from "./+types/telechargements";

export async function loader({ context }: Route.LoaderArgs) {
  return { userId: context.get(userContext).id };
}

export const meta = () => [{ title: "Téléchargements" }];

const qualityNames = { low: "vidéo économie", high: "vidéo haute qualité", original: "vidéo originale" } as const;

type Listing = { records: DownloadRecord[]; space: { usage: number; quota: number } | null; persisted: boolean };

/** One thing waiting to be sent, in words. */
function pendingLine(entry: PendingEntry): string {
  if (isQuizAttempt(entry)) {
    const count = Object.values(entry.answers).filter((answer) => answer.trim() !== "").length;
    return `Quiz « ${entry.title} » : ${plural(count, "réponse donnée", "réponses données")} le ${formatDateTime(new Date(entry.answeredAt))}, corrigé à l'envoi`;
  }
  const parts = [
    entry.doneAt ? "marquée comme terminée" : null,
    entry.seconds !== undefined ? `vidéo regardée jusqu'à ${Math.floor(entry.seconds / 60)} min ${entry.seconds % 60} s` : null,
  ];
  return `${entry.title} : ${parts.filter(Boolean).join(", ")}`;
}

/**
 * "Téléchargements" (issue 13): the lessons stored on this device for offline use, course by
 * course, with their sizes; the space used and left; deleting; and the progress and quiz answers
 * given offline that wait to be sent. What is stored lives in the browser, so the list is read there.
 */
export default function DownloadsPage({ loaderData }: Route.ComponentProps) {
  const { userId } = loaderData;
  const [listing, setListing] = useState<Listing | null>(null);
  const [supported, setSupported] = useState(true);
  const pending = usePendingEntries(userId);

  const refresh = useCallback(async () => {
    const [records, space, persisted] = await Promise.all([
      listDownloads(userId),
      storageEstimate(),
      navigator.storage?.persisted?.() ?? Promise.resolve(false),
    ]);
    setListing({ records, space, persisted });
  }, [userId]);

  useEffect(() => {
    setSupported(offlineSupported());
    void refresh();
  }, [refresh]);

  async function remove(record: DownloadRecord) {
    await deleteDownload(userId, record);
    await refresh();
  }

  const courses = new Map<string, { title: string; records: DownloadRecord[] }>();
  for (const record of listing?.records ?? []) {
    const group = courses.get(record.course.slug) ?? { title: record.course.title, records: [] };
    group.records.push(record);
    courses.set(record.course.slug, group);
  }
  const storedBytes = (listing?.records ?? []).reduce((sum, record) => sum + record.bytes, 0);

  return (
    <div className="mx-auto max-w-4xl space-y-6">
      <div>
        <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">Téléchargements</h1>
        <p className="mt-2 text-slate-700">
          Les leçons enregistrées sur cet appareil s'ouvrent sans connexion. Pour en ajouter, utilisez « Télécharger pour hors ligne » dans
          une leçon ou sur la page d'une formation.
        </p>
      </div>

      <noscript className="block">
        <p className="rounded-lg border border-slate-200 bg-white p-4 text-slate-700">
          Cette page et le téléchargement pour hors ligne demandent JavaScript : activez-le pour voir et gérer les leçons enregistrées.
        </p>
      </noscript>
      {!supported ? <Alert tone="warning">Ce navigateur ne permet pas d'enregistrer des leçons pour hors ligne.</Alert> : null}

      {pending.length > 0 ? (
        <section aria-labelledby="en-attente" className="space-y-2 rounded-lg border border-amber-300 bg-amber-50 p-4 text-amber-950">
          <h2 id="en-attente" className="flex items-center gap-2 font-semibold">
            <CloudUpload aria-hidden="true" className="size-5" />
            En attente d'envoi
          </h2>
          <p className="text-sm">Fait sans connexion, envoyé dès le retour du réseau :</p>
          <ul className="list-disc space-y-1 pl-5 text-sm">
            {pending.map((entry) => (
              <li key={isQuizAttempt(entry) ? entry.attemptId : entry.lessonId}>{pendingLine(entry)}</li>
            ))}
          </ul>
        </section>
      ) : null}

      {listing ? (
        <section aria-labelledby="espace" className="rounded-lg border border-slate-200 bg-white p-4">
          <h2 id="espace" className="font-semibold text-slate-900">
            Espace de stockage
          </h2>
          <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
            <dt className="text-slate-600">Leçons enregistrées</dt>
            <dd className="font-semibold text-slate-900" data-testid="octets-enregistres" data-bytes={storedBytes}>
              {formatFileSize(storedBytes)}
            </dd>
            {listing.space ? (
              <>
                <dt className="text-slate-600">Utilisé par Campus</dt>
                <dd className="text-slate-900">{formatFileSize(listing.space.usage)}</dd>
                <dt className="text-slate-600">Disponible</dt>
                <dd className="text-slate-900">{formatFileSize(Math.max(0, listing.space.quota - listing.space.usage))}</dd>
              </>
            ) : null}
          </dl>
          {listing.persisted ? (
            <p className="mt-2 text-sm text-slate-600">Le navigateur garde ces leçons même quand l'espace manque.</p>
          ) : listing.records.length > 0 ? (
            <Button variant="ghost" size="sm" className="mt-2" onClick={() => void askPersistentStorage().then(refresh)}>
              Demander au navigateur de garder ces leçons
            </Button>
          ) : null}
        </section>
      ) : null}

      {listing && listing.records.length === 0 ? (
        <div className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-center">
          <CloudDownload aria-hidden="true" className="mx-auto size-8 text-slate-400" />
          <p className="mt-2 text-slate-700">Aucune leçon enregistrée sur cet appareil.</p>
          <Link to="/dashboard/formations" className={buttonClasses({ variant: "outline", size: "sm", className: "mt-3" })}>
            Mes Formations
          </Link>
        </div>
      ) : null}

      {[...courses.entries()].map(([slug, group]) => (
        <section key={slug} aria-labelledby={`cours-${slug}`} className="space-y-2">
          <h2 id={`cours-${slug}`} className="text-lg font-semibold text-slate-900">
            <Link to={href("/dashboard/formations/:slug", { slug })} className="hover:underline">
              {group.title}
            </Link>
          </h2>
          <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white">
            {group.records.map((record) => (
              <li key={record.lessonId ?? "quiz"} className="flex flex-wrap items-center gap-x-3 gap-y-1 px-4 py-3">
                <div className="min-w-0 flex-1">
                  {/* Whole-page loads: the service worker answers them from the phone when offline. */}
                  {(record.quizzes ?? [record]).map((item) => (
                    <a key={item.path} href={item.path} className="mr-3 font-medium break-words text-brand-700 hover:underline">
                      {item.title}
                    </a>
                  ))}
                  <p className="text-sm text-slate-600">
                    {record.quizzes ? "Quiz de fin de formation · " : ""}
                    {formatFileSize(record.bytes)}
                    {record.quality ? ` · ${qualityNames[record.quality]}` : ""} · {record.quizzes ? "enregistrés" : "enregistrée"} le{" "}
                    {formatDateTime(new Date(record.savedAt))}
                  </p>
                </div>
                <Button variant="ghost" size="sm" onClick={() => void remove(record)}>
                  <Trash2 aria-hidden="true" className="size-4" />
                  Supprimer<span className="sr-only"> {record.quizzes ? "les quiz de fin de formation" : record.title}</span>
                </Button>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}
