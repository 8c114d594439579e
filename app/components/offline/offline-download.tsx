import { CloudDownload, HardDrive } from "~/components/icons";
import { useEffect, useRef, useState } from "react";
import { Link } from "react-router";
import { ProgressBar } from "~/components/learning/progress-bar";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import {
  askPersistentStorage,
  DOWNLOADS_PATH,
  downloadLessons,
  listDownloads,
  offlineSupported,
  plannedBytes,
  storageEstimate,
  type OfflinePlan,
} from "~/lib/offline/store";
import { formatFileSize } from "~/lib/uploads";
import type { VideoChoice } from "~/lib/video-quality";

type State =
  | { step: "idle" }
  | { step: "planning" }
  | { step: "ready"; plan: OfflinePlan; space: { usage: number; quota: number } | null }
  | { step: "downloading"; plan: OfflinePlan; received: number; total: number }
  | { step: "done"; bytes: number; count: number }
  | { step: "failed"; message: string };

const choiceLabels: Record<VideoChoice, string> = { low: "Économie", high: "Haute qualité", original: "Originale" };

/**
 * "Télécharger pour hors ligne" (issue 13), for one lesson (the player) or a whole course (its
 * home): the size in the chosen video quality is shown, with the space left, before anything
 * starts; then the progress; then where to find it. Needs JavaScript (and a service worker):
 * without it, says so.
 */
export function OfflineDownload({
  userId,
  slug,
  lessonId,
  defaultChoice,
}: {
  userId: string;
  slug: string;
  /** One lesson; the whole course when absent. */
  lessonId?: number;
  defaultChoice: VideoChoice;
}) {
  const [supported, setSupported] = useState<boolean | null>(null);
  const [state, setState] = useState<State>({ step: "idle" });
  const [choice, setChoice] = useState<VideoChoice>(defaultChoice);
  const [stored, setStored] = useState<{ count: number; bytes: number }>({ count: 0, bytes: 0 });
  const abort = useRef<AbortController | null>(null);
  const scope = lessonId ? "cette leçon" : "cette formation";

  useEffect(() => {
    setSupported(offlineSupported());
    void listDownloads(userId).then((records) => {
      const mine = records.filter((record) => record.course.slug === slug && (!lessonId || record.lessonId === lessonId));
      setStored({
        count: mine.filter((record) => record.lessonId !== null).length,
        bytes: mine.reduce((sum, record) => sum + record.bytes, 0),
      });
    });
  }, [userId, slug, lessonId, state.step]);
  useEffect(() => () => abort.current?.abort(), []);

  async function plan() {
    setState({ step: "planning" });
    try {
      const response = await fetch(`/dashboard/formations/${encodeURIComponent(slug)}/hors-ligne${lessonId ? `?lecon=${lessonId}` : ""}`);
      if (!response.ok) throw new Error(((await response.json().catch(() => null)) as { message?: string } | null)?.message);
      const found = (await response.json()) as OfflinePlan;
      const offered = new Set(found.lessons.flatMap((lesson) => lesson.video?.options.map((option) => option.choice) ?? []));
      if (offered.size && !offered.has(choice)) setChoice(offered.has("low") ? "low" : "original");
      setState({ step: "ready", plan: found, space: await storageEstimate() });
    } catch (error) {
      setState({
        step: "failed",
        message: (error instanceof Error && error.message) || "Impossible de préparer le téléchargement : vérifiez votre connexion.",
      });
    }
  }

  async function start(found: OfflinePlan) {
    const { files, pages } = plannedBytes(found, choice);
    const controller = new AbortController();
    abort.current = controller;
    setState({ step: "downloading", plan: found, received: 0, total: files + pages });
    void askPersistentStorage();
    try {
      const records = await downloadLessons(
        userId,
        found,
        found.lessons,
        choice,
        (received) => setState((current) => (current.step === "downloading" ? { ...current, received } : current)),
        controller.signal,
      );
      setState({
        step: "done",
        bytes: records.reduce((sum, record) => sum + record.bytes, 0),
        count: records.filter((record) => record.lessonId !== null).length,
      });
    } catch {
      setState({
        step: "failed",
        message: controller.signal.aborted
          ? "Téléchargement annulé."
          : "Le téléchargement s'est interrompu (connexion perdue ou espace insuffisant). Réessayez : ce qui est déjà enregistré est gardé.",
      });
    } finally {
      abort.current = null;
    }
  }

  if (supported === null) {
    return (
      <noscript className="block">
        <p className="rounded-lg border border-slate-200 bg-white p-4 text-sm text-slate-700">
          Le téléchargement pour hors ligne demande JavaScript : activez-le pour enregistrer {scope} sur votre téléphone.
        </p>
      </noscript>
    );
  }
  if (!supported) return null;

  return (
    <section
      aria-labelledby={`hors-ligne-${lessonId ?? "formation"}`}
      className="space-y-3 rounded-lg border border-slate-200 bg-white p-4"
    >
      <h2 id={`hors-ligne-${lessonId ?? "formation"}`} className="flex items-center gap-2 font-semibold text-slate-900">
        <CloudDownload aria-hidden="true" className="size-5 text-brand-700" />
        Hors ligne
      </h2>
      {stored.count > 0 && state.step !== "done" ? (
        <p className="text-sm text-slate-700">
          {lessonId
            ? `Cette leçon est enregistrée sur cet appareil (${formatFileSize(stored.bytes)}).`
            : `${stored.count} ${stored.count > 1 ? "leçons enregistrées" : "leçon enregistrée"} sur cet appareil (${formatFileSize(stored.bytes)}).`}{" "}
          <Link to={DOWNLOADS_PATH} className="font-medium text-brand-700 underline">
            Mes téléchargements
          </Link>
        </p>
      ) : null}

      {state.step === "idle" || state.step === "planning" || state.step === "failed" ? (
        <>
          {state.step === "failed" ? <Alert>{state.message}</Alert> : null}
          <Button variant="outline" onClick={() => void plan()} disabled={state.step === "planning"}>
            <CloudDownload aria-hidden="true" className="size-4" />
            {state.step === "planning"
              ? "Calcul de la taille..."
              : stored.count > 0
                ? "Télécharger à nouveau pour hors ligne"
                : "Télécharger pour hors ligne"}
          </Button>
        </>
      ) : null}

      {state.step === "ready" ? (
        <ReadyPanel
          state={state}
          choice={choice}
          setChoice={setChoice}
          start={start}
          cancel={() => setState({ step: "idle" })}
          lessonId={lessonId}
        />
      ) : null}

      {state.step === "downloading" ? (
        <div className="space-y-2" aria-live="polite">
          <ProgressBar value={state.total ? (state.received / state.total) * 100 : 0} label="Téléchargement pour hors ligne" />
          <p className="text-sm text-slate-700">
            {formatFileSize(state.received)} sur environ {formatFileSize(state.total)}
          </p>
          <Button variant="ghost" size="sm" onClick={() => abort.current?.abort()}>
            Annuler
          </Button>
        </div>
      ) : null}

      {state.step === "done" ? (
        <p role="status" className="text-sm text-emerald-800">
          {state.count > 1 ? `${state.count} leçons enregistrées` : "Leçon enregistrée"} sur cet appareil ({formatFileSize(state.bytes)}) :
          elle s'ouvre sans connexion.{" "}
          <Link to={DOWNLOADS_PATH} className="font-medium text-brand-700 underline">
            Mes téléchargements
          </Link>
        </p>
      ) : null}
    </section>
  );
}

function ReadyPanel({
  state,
  choice,
  setChoice,
  start,
  cancel,
  lessonId,
}: {
  state: Extract<State, { step: "ready" }>;
  choice: VideoChoice;
  setChoice: (choice: VideoChoice) => void;
  start: (plan: OfflinePlan) => Promise<void>;
  cancel: () => void;
  lessonId?: number;
}) {
  const { plan, space } = state;
  const offered = (["low", "high", "original"] as const).filter((candidate) =>
    plan.lessons.some((lesson) => lesson.video?.options.some((option) => option.choice === candidate)),
  );
  const { files, pages } = plannedBytes(plan, choice);
  const total = files + pages;
  const available = space ? space.quota - space.usage : null;
  const tooBig = available !== null && total > available;
  const name = `qualite-hors-ligne-${lessonId ?? "formation"}`;
  return (
    <div className="space-y-3">
      {offered.length > 0 ? (
        <fieldset className="space-y-2">
          <legend className="text-sm font-medium text-slate-900">Qualité de la vidéo</legend>
          <div className="flex flex-wrap gap-2">
            {offered.map((candidate) => (
              <label
                key={candidate}
                className="flex cursor-pointer items-center gap-2 rounded-full border border-slate-300 px-3 py-1.5 text-sm has-[:checked]:border-brand-700 has-[:checked]:bg-brand-50"
              >
                <input type="radio" name={name} value={candidate} checked={choice === candidate} onChange={() => setChoice(candidate)} />
                {choiceLabels[candidate]} · {formatFileSize(plannedBytes(plan, candidate).files)}
              </label>
            ))}
          </div>
        </fieldset>
      ) : null}
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="text-slate-600">À télécharger</dt>
        <dd className="font-semibold text-slate-900" data-testid="taille-hors-ligne" data-files-bytes={files} data-total-bytes={total}>
          {formatFileSize(total)}
          <span className="font-normal text-slate-600">
            {" "}
            ({plan.lessons.length > 1 ? `${plan.lessons.length} leçons, ` : ""}
            {plan.quizzes.length > 0 ? `${plan.quizzes.length} quiz de fin de formation, ` : ""}vidéo et documents {formatFileSize(files)},
            pages ≈ {formatFileSize(pages)})
          </span>
        </dd>
        {space ? (
          <>
            <dt className="text-slate-600">Espace libre</dt>
            <dd className="text-slate-900">
              <HardDrive aria-hidden="true" className="mr-1 inline size-4" />
              {formatFileSize(Math.max(0, space.quota - space.usage))}
            </dd>
          </>
        ) : null}
      </dl>
      {tooBig ? (
        <Alert tone="warning">Pas assez d'espace sur cet appareil : libérez de la place ou choisissez une qualité plus légère.</Alert>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <Button onClick={() => void start(plan)} disabled={tooBig}>
          Télécharger ({formatFileSize(total)})
        </Button>
        <Button variant="ghost" onClick={cancel}>
          Annuler
        </Button>
      </div>
    </div>
  );
}
