import { useEffect, useId, useRef, useState } from "react";
import type { Upload } from "tus-js-client";
import { Button } from "~/components/ui/button";
import type { EditIntent } from "~/lib/course-form";
import { IntentButton } from "./intent-button";
import {
  acceptAttribute,
  acceptedLabel,
  fileUrl,
  formatFileSize,
  tooLargeMessage,
  UPLOAD_ENDPOINT,
  type UploadPurpose,
} from "~/lib/uploads";

/** A stored file as the form shows it (the server's FormFile). */
export type UploadedFile = { id: string; name: string; size: number; contentType: string; purpose: UploadPurpose };

type Progress = { sent: number; total: number };

/** The server's French message from a refused request, or a general one. */
function failureMessage(error: unknown): string {
  const response = (error as { originalResponse?: { getStatus(): number; getBody(): string } | null }).originalResponse;
  const status = response?.getStatus() ?? 0;
  const body = response?.getBody()?.trim() ?? "";
  if (status >= 400 && status < 500 && body && body.length < 300) return body;
  if (!response) return "La connexion a été perdue. Choisissez de nouveau le fichier : l'envoi reprendra là où il s'était arrêté.";
  return "L'envoi a échoué. Réessayez dans un instant : il reprendra là où il s'était arrêté.";
}

/**
 * One file sent with the tus protocol: a progress bar, a cancel button, automatic retries, and
 * resumption where it stopped (tus-js-client remembers unfinished uploads of the same file, so
 * choosing it again after a lost connection or a closed tab continues instead of restarting).
 * Needs JavaScript; the form says so to readers without it.
 */
export function FileUpload({
  purpose,
  maxBytes,
  label,
  onUploaded,
  describedBy,
}: {
  purpose: UploadPurpose;
  maxBytes: number;
  label: string;
  onUploaded: (file: UploadedFile) => void;
  describedBy?: string;
}) {
  const inputId = useId();
  const statusId = `${inputId}-status`;
  const [progress, setProgress] = useState<Progress | null>(null);
  const [error, setError] = useState<string | null>(null);
  const uploadRef = useRef<Upload | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  // The latest callback, so an upload started before a re-render reports to the current form.
  const onUploadedRef = useRef(onUploaded);
  onUploadedRef.current = onUploaded;

  useEffect(() => () => void uploadRef.current?.abort(), []);

  async function start(file: File) {
    setError(null);
    if (file.size > maxBytes) {
      setError(tooLargeMessage(purpose, maxBytes));
      return;
    }
    setProgress({ sent: 0, total: file.size });
    const { Upload } = await import("tus-js-client");
    const upload = new Upload(file, {
      endpoint: UPLOAD_ENDPOINT,
      chunkSize: 8 * 1024 * 1024,
      retryDelays: [0, 1000, 3000, 5000, 10_000, 20_000, 30_000],
      metadata: { filename: file.name, filetype: file.type, purpose },
      removeFingerprintOnSuccess: true,
      // Refusals (type, size, rights) are final; lost connections and server hiccups are retried.
      onShouldRetry: (retryError) => {
        const status = retryError.originalResponse?.getStatus() ?? 0;
        return status === 0 || status === 409 || status === 423 || status >= 500;
      },
      onProgress: (sent, total) => setProgress({ sent, total }),
      onSuccess: ({ lastResponse }) => {
        uploadRef.current = null;
        setProgress(null);
        if (inputRef.current) inputRef.current.value = "";
        let stored: UploadedFile | null = null;
        try {
          stored = JSON.parse(lastResponse.getBody()) as UploadedFile;
        } catch {
          // The final answer was lost on the way: the upload's id is the file's id.
          const id = upload.url?.split("/").pop();
          if (id) stored = { id, name: file.name, size: file.size, contentType: file.type, purpose };
        }
        if (stored) onUploadedRef.current({ ...stored, purpose });
        else setError("L'envoi s'est terminé sans réponse du serveur : réessayez.");
      },
      onError: (uploadError) => {
        uploadRef.current = null;
        setProgress(null);
        setError(failureMessage(uploadError));
      },
    });
    uploadRef.current = upload;
    const previous = await upload.findPreviousUploads().catch(() => []);
    if (previous[0]) upload.resumeFromPreviousUpload(previous[0]);
    upload.start();
  }

  function cancel() {
    void uploadRef.current?.abort(true);
    uploadRef.current = null;
    setProgress(null);
    if (inputRef.current) inputRef.current.value = "";
  }

  const percent = progress && progress.total > 0 ? Math.floor((progress.sent / progress.total) * 100) : 0;
  return (
    <div className="space-y-2">
      <label htmlFor={inputId} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      <input
        ref={inputRef}
        id={inputId}
        type="file"
        accept={acceptAttribute[purpose]}
        disabled={progress !== null}
        aria-describedby={[describedBy, statusId].filter(Boolean).join(" ")}
        onChange={(event) => {
          const file = event.currentTarget.files?.[0];
          if (file) void start(file);
        }}
        className="block w-full max-w-full text-sm text-slate-700 file:mr-3 file:min-h-10 file:cursor-pointer file:rounded-md file:border file:border-brand-700 file:bg-white file:px-3 file:py-1.5 file:font-medium file:text-brand-700 hover:file:bg-brand-50 disabled:opacity-60"
      />
      <p className="text-xs text-slate-600">
        {acceptedLabel[purpose].replace(/^un(e)? /, (article) => article.charAt(0).toUpperCase() + article.slice(1))},{" "}
        {formatFileSize(maxBytes)} au plus.
      </p>
      <div id={statusId} aria-live="polite">
        {progress ? (
          <div className="flex flex-wrap items-center gap-3">
            <progress
              value={progress.sent}
              max={Math.max(progress.total, 1)}
              aria-label={`Envoi en cours : ${percent} %`}
              className="h-3 w-48 max-w-full overflow-hidden rounded-full [&::-moz-progress-bar]:bg-brand-700 [&::-webkit-progress-bar]:bg-slate-200 [&::-webkit-progress-value]:bg-brand-700"
            />
            <span className="text-sm text-slate-700 tabular-nums">
              {percent} % · {formatFileSize(progress.sent)} sur {formatFileSize(progress.total)}
            </span>
            <Button size="sm" variant="ghost" onClick={cancel}>
              Annuler l'envoi
            </Button>
          </div>
        ) : null}
        {error ? <p className="text-sm font-medium text-red-700">{error}</p> : null}
      </div>
    </div>
  );
}

/** A stored file: its name and size, a link to open it, and a button to take it off the form. */
type VersionsState = { status: "pending" | "running" | "ready" | "failed"; progress: number };

/**
 * The low-data versions of an uploaded video as they are made (app/.server/files/transcode.ts):
 * asked every few seconds until they are ready. Learners get the original meanwhile.
 */
function VideoVersionsStatus({ fileId }: { fileId: string }) {
  const [state, setState] = useState<VersionsState | null>(null);
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const check = async () => {
      try {
        const response = await fetch(`/fichiers/${encodeURIComponent(fileId)}/versions`, { headers: { Accept: "application/json" } });
        if (response.ok && !stopped) {
          const next = (await response.json()) as VersionsState;
          setState(next);
          if (next.status === "ready" || next.status === "failed") return;
        }
      } catch {
        // offline for a moment: try again
      }
      if (!stopped) timer = setTimeout(check, 3000);
    };
    void check();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [fileId]);
  if (!state) return null;
  const text =
    state.status === "ready"
      ? "Versions légères prêtes"
      : state.status === "failed"
        ? "Versions légères impossibles : la vidéo originale est lue"
        : `Versions légères en préparation : ${state.progress} %`;
  return (
    <span
      role="status"
      className={state.status === "failed" ? "text-red-700" : state.status === "ready" ? "text-emerald-800" : "text-slate-700"}
    >
      {text}
      {state.status === "pending" || state.status === "running" ? (
        <progress className="ml-2 h-2 w-24 align-middle" max={100} value={state.progress} aria-label="Préparation des versions légères" />
      ) : null}
    </span>
  );
}

export function UploadedFileRow({
  file,
  removeIntent,
  onIntent,
  removeLabel,
}: {
  file: UploadedFile;
  removeIntent: EditIntent;
  onIntent: (intent: EditIntent) => void;
  removeLabel: string;
}) {
  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-md border border-slate-200 bg-slate-50 px-3 py-2 text-sm">
      <a
        href={fileUrl(file.id)}
        target="_blank"
        rel="noreferrer"
        className="min-w-0 font-medium break-all text-brand-700 underline-offset-2 hover:underline"
      >
        {file.name}
      </a>
      <span className="text-slate-600">{formatFileSize(file.size)}</span>
      {file.purpose === "lesson_video" ? <VideoVersionsStatus fileId={file.id} /> : null}
      <IntentButton size="sm" variant="ghost" className="ml-auto" intent={removeIntent} onIntent={onIntent} aria-label={removeLabel}>
        Retirer
      </IntentButton>
    </div>
  );
}
