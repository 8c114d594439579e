import { useState } from "react";
import { Form, Link, useSubmit, href } from "react-router";
import { Alert } from "~/components/ui/alert";
import { Badge, type BadgeTone } from "~/components/ui/badge";
import { Button, buttonClasses } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { FilterBar } from "~/components/ui/filter-bar";
import { Input } from "~/components/ui/input";
import { useHydrated } from "~/components/ui/use-hydrated";
import { usePendingIntent } from "~/components/ui/use-pending-intent";
import { contentTargetValue, FILE_NAME_MAX, purposeLabels } from "~/lib/content";
import { courseStatusLabels } from "~/lib/course-status";
import { failureOf } from "~/lib/form-result";
import { plural } from "~/lib/format";
import { fileUrl, type UploadPurpose } from "~/lib/uploads";
import { FileUpload } from "./file-upload";

type Use = { label: string; lessonId: number | null };
type Transcode = { status: "pending" | "running" | "ready" | "failed"; progress: number; versions: string[] } | null;
export type LibraryFile = {
  id: string;
  name: string;
  purpose: UploadPurpose;
  size: string;
  versionsSize: string | null;
  addedOn: string;
  uses: Use[];
  transcode: Transcode;
};
type LibraryLesson = { id: number; title: string; position: number };
type LibraryCourse = {
  id: number;
  title: string;
  status: keyof typeof courseStatusLabels;
  lessons: LibraryLesson[];
  files: LibraryFile[];
  quizzes: { id: number; title: string; questions: number }[] | null;
};
type LibraryData = {
  filters: { course: string; kind: string };
  here: string;
  courseOptions: { value: string; label: string }[];
  kindOptions: { value: string; label: string }[];
  limits: Record<UploadPurpose, number>;
  courses: LibraryCourse[];
  unattached: LibraryFile[] | null;
  deleting: { id: string; name: string; used: boolean } | null;
};
type Values = { fileId: string; name: string; target: string };

const statusTones: Record<keyof typeof courseStatusLabels, BadgeTone> = { draft: "amber", published: "green", archived: "neutral" };

/** Where a file of `purpose` may go in `course`: its lessons (videos, documents) or its cover (images). */
function targetsOf(course: Pick<LibraryCourse, "id" | "lessons">, purpose: UploadPurpose) {
  if (purpose === "thumbnail") return [{ value: contentTargetValue({ kind: "cover", courseId: course.id }), label: "Image de couverture" }];
  return course.lessons.map((lesson) => ({
    value: contentTargetValue({ kind: "lesson", lessonId: lesson.id }),
    label: `Leçon ${lesson.position + 1} · ${lesson.title}`,
  }));
}

function TargetSelect({
  id,
  courses,
  purpose,
  value,
  onChange,
  invalid,
}: {
  id: string;
  courses: Pick<LibraryCourse, "id" | "title" | "lessons">[];
  purpose: UploadPurpose;
  value?: string;
  onChange?: (value: string) => void;
  invalid?: boolean;
}) {
  return (
    <select
      id={id}
      name="target"
      required
      {...(onChange ? { value, onChange: (event) => onChange(event.currentTarget.value) } : { defaultValue: value ?? "" })}
      aria-invalid={invalid || undefined}
      className="min-h-11 w-full rounded-md border border-slate-400 bg-white px-3 text-sm text-slate-900 focus-visible:ring-2 focus-visible:ring-brand-600 focus-visible:outline-none"
    >
      <option value="">Choisissez…</option>
      {courses.map((course) => {
        const targets = targetsOf(course, purpose);
        return targets.length ? (
          <optgroup key={course.id} label={course.title}>
            {targets.map((target) => (
              <option key={target.value} value={target.value}>
                {target.label}
              </option>
            ))}
          </optgroup>
        ) : null;
      })}
    </select>
  );
}

function TranscodeState({ transcode }: { transcode: Transcode }) {
  if (!transcode) return <span className="text-slate-600">Versions légères : pas encore demandées</span>;
  if (transcode.status === "ready") {
    return <span className="text-emerald-800">Versions légères prêtes ({transcode.versions.join(", ") || "aucune"})</span>;
  }
  if (transcode.status === "failed") return <span className="text-red-700">Versions légères impossibles : la vidéo originale est lue</span>;
  return (
    <span className="text-slate-700">
      Versions légères en préparation : {transcode.progress} %
      <progress className="ml-2 h-2 w-24 align-middle" max={100} value={transcode.progress} aria-label="Préparation des versions légères" />
    </span>
  );
}

const noScriptNote = "L'envoi d'un fichier demande JavaScript : activez-le pour ajouter ou remplacer un fichier.";

/** "Remplacer": the new file is sent (tus, resumable), then put in place of the old one everywhere. */
function ReplaceUpload({ file, maxBytes }: { file: LibraryFile; maxBytes: number }) {
  const submit = useSubmit();
  const hydrated = useHydrated();
  if (!hydrated) return <p className="text-sm text-slate-600">{noScriptNote}</p>;
  return (
    <FileUpload
      purpose={file.purpose}
      maxBytes={maxBytes}
      label={`Nouveau fichier pour « ${file.name} »`}
      onUploaded={(uploaded) => void submit({ intent: "replace", fileId: file.id, replacementId: uploaded.id }, { method: "post" })}
    />
  );
}

function FileRow({
  file,
  courses,
  limits,
  here,
  failure,
}: {
  file: LibraryFile;
  /** Where it may be attached: its own course, or (an unattached upload) every course. */
  courses: Pick<LibraryCourse, "id" | "title" | "lessons">[];
  limits: Record<UploadPurpose, number>;
  here: string;
  failure: ReturnType<typeof failureOf<Values>>;
}) {
  const mine = failure?.values?.fileId === file.id ? failure : null;
  const renaming = usePendingIntent("rename", { fileId: file.id });
  const attaching = usePendingIntent("attach", { fileId: file.id });
  const attached = file.uses.length > 0;
  const deleteHref = `${here}${here.includes("?") ? "&" : "?"}supprimer=${encodeURIComponent(file.id)}`;
  const Icon = file.purpose === "lesson_video" ? "Vidéo" : file.purpose === "thumbnail" ? "Image" : "Document";
  return (
    <li className="space-y-2 py-4 first:pt-0 last:pb-0">
      <div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-1">
        <div className="min-w-0 space-y-1">
          <p className="flex flex-wrap items-center gap-2">
            <Badge tone={file.purpose === "lesson_video" ? "blue" : file.purpose === "thumbnail" ? "brand" : "neutral"}>{Icon}</Badge>
            <a href={fileUrl(file.id)} target="_blank" rel="noreferrer" className="font-semibold break-all text-slate-900 hover:underline">
              {file.name}
            </a>
          </p>
          <p className="text-sm text-slate-600">
            {file.size}
            {file.versionsSize ? ` + ${file.versionsSize} de versions légères` : ""} · ajouté le {file.addedOn}
          </p>
          {file.purpose === "lesson_video" ? (
            <p className="text-sm">
              <TranscodeState transcode={file.transcode} />
            </p>
          ) : null}
        </div>
        {!attached ? (
          <Link
            to={deleteHref}
            className={buttonClasses({ variant: "outline", size: "sm", className: "text-red-800" })}
            aria-label={`Supprimer « ${file.name} »`}
          >
            Supprimer
          </Link>
        ) : null}
      </div>

      <div className="text-sm">
        {attached ? (
          <ul className="flex flex-wrap gap-2" aria-label={`Où « ${file.name} » est utilisé`}>
            {file.uses.map((use) => (
              <li key={use.label} className="flex items-center gap-1 rounded-md border border-slate-200 bg-slate-50 py-0.5 pr-1 pl-2">
                <span>{use.label}</span>
                <Form method="post">
                  <input type="hidden" name="fileId" value={file.id} />
                  {use.lessonId ? <input type="hidden" name="lessonId" value={use.lessonId} /> : null}
                  <button
                    type="submit"
                    name="intent"
                    value="detach"
                    className="min-h-8 rounded px-2 text-xs font-medium text-red-800 underline-offset-2 hover:underline"
                    aria-label={`Retirer « ${file.name} » de : ${use.label}`}
                  >
                    Retirer
                  </button>
                </Form>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-amber-900">Utilisé nulle part.</p>
        )}
      </div>

      {mine ? <Alert>{mine.message ?? Object.values(mine.fieldErrors).join(" ")}</Alert> : null}

      <div className="flex flex-wrap gap-2">
        <details className="group w-full rounded-md border border-slate-200 sm:w-auto" open={mine?.intent === "rename" || undefined}>
          <summary className="min-h-10 cursor-pointer px-3 py-2 text-sm font-medium text-brand-700">Renommer</summary>
          <Form method="post" className="flex flex-wrap items-end gap-2 p-3 pt-0">
            <input type="hidden" name="fileId" value={file.id} />
            <label className="min-w-0 flex-1 space-y-1 text-sm font-medium text-slate-900">
              <span>Nouveau nom</span>
              <Input
                name="name"
                required
                maxLength={FILE_NAME_MAX}
                defaultValue={mine?.intent === "rename" ? mine.values?.name : file.name}
              />
            </label>
            <Button type="submit" size="sm" name="intent" value="rename" disabled={renaming}>
              {renaming ? "Envoi…" : "Renommer"}
            </Button>
          </Form>
        </details>
        <details className="w-full rounded-md border border-slate-200 sm:w-auto" open={mine?.intent === "attach" || undefined}>
          <summary className="min-h-10 cursor-pointer px-3 py-2 text-sm font-medium text-brand-700">
            {file.purpose === "thumbnail"
              ? "Utiliser comme couverture"
              : file.purpose === "lesson_video"
                ? "Utiliser dans une leçon"
                : "Déplacer vers une leçon"}
          </summary>
          <Form method="post" className="flex flex-wrap items-end gap-2 p-3 pt-0">
            <input type="hidden" name="fileId" value={file.id} />
            <label htmlFor={`cible-${file.id}`} className="sr-only">
              Où utiliser « {file.name} »
            </label>
            <div className="min-w-0 flex-1">
              <TargetSelect
                id={`cible-${file.id}`}
                courses={courses}
                purpose={file.purpose}
                value={mine?.values?.target}
                invalid={Boolean(mine?.fieldErrors.target)}
              />
            </div>
            <Button type="submit" size="sm" name="intent" value="attach" disabled={attaching}>
              {attaching ? "Envoi…" : "Rattacher"}
            </Button>
          </Form>
        </details>
        {attached ? (
          <details className="w-full rounded-md border border-slate-200 sm:w-auto">
            <summary className="min-h-10 cursor-pointer px-3 py-2 text-sm font-medium text-brand-700">Remplacer</summary>
            <div className="p-3 pt-0">
              <ReplaceUpload file={file} maxBytes={limits[file.purpose]} />
            </div>
          </details>
        ) : null}
      </div>
    </li>
  );
}

/** "Ajouter un fichier": choose its kind and where it goes, then send it; it is attached as soon as it arrives. */
function UploadPanel({ courses, limits }: { courses: LibraryCourse[]; limits: Record<UploadPurpose, number> }) {
  const hydrated = useHydrated();
  const submit = useSubmit();
  const [purpose, setPurpose] = useState<UploadPurpose>("lesson_video");
  const [target, setTarget] = useState("");
  return (
    <Card aria-labelledby="ajouter-fichier">
      <CardHeader>
        <CardTitle id="ajouter-fichier">Ajouter un fichier</CardTitle>
      </CardHeader>
      <CardContent>
        {!hydrated ? (
          <p className="text-sm text-slate-600">{noScriptNote}</p>
        ) : courses.length === 0 ? (
          <p className="text-sm text-slate-600">Créez d'abord un cours pour y ajouter des fichiers.</p>
        ) : (
          <div className="grid gap-4 md:grid-cols-[1fr_2fr]">
            <fieldset className="space-y-2">
              <legend className="text-sm font-medium text-slate-900">Type de fichier</legend>
              {(["lesson_video", "lesson_attachment", "thumbnail"] as const).map((value) => (
                <label key={value} className="flex min-h-8 items-center gap-2 text-sm text-slate-800">
                  <input
                    type="radio"
                    name="purpose"
                    value={value}
                    checked={purpose === value}
                    onChange={() => {
                      setPurpose(value);
                      setTarget("");
                    }}
                    className="size-4 accent-brand-700"
                  />
                  {purposeLabels[value]}
                </label>
              ))}
            </fieldset>
            <div className="space-y-4">
              <div className="space-y-1">
                <label htmlFor="ajout-cible" className="text-sm font-medium text-slate-900">
                  {purpose === "thumbnail" ? "Cours" : "Leçon"}
                </label>
                <TargetSelect id="ajout-cible" courses={courses} purpose={purpose} value={target} onChange={setTarget} />
                {purpose === "lesson_video" ? (
                  <p className="text-xs text-slate-600">La vidéo remplace celle de la leçon, s'il y en avait une.</p>
                ) : null}
              </div>
              {target ? (
                <FileUpload
                  key={`${purpose}-${target}`}
                  purpose={purpose}
                  maxBytes={limits[purpose]}
                  label="Fichier"
                  onUploaded={(file) => void submit({ intent: "attach", fileId: file.id, target }, { method: "post" })}
                />
              ) : (
                <p className="text-sm text-slate-600">Choisissez d'abord où utiliser le fichier.</p>
              )}
            </div>
          </div>
        )}
      </CardContent>
    </Card>
  );
}

/** The screen below the title: filters, the upload panel, a deletion to confirm, then each course's content. */
export function ContentLibrary({ data, actionData }: { data: LibraryData; actionData: unknown }) {
  const { filters, here, courses, unattached, deleting, limits } = data;
  const failure = failureOf<Values>(actionData);
  const orphanFailure = failure && !failure.values?.fileId ? failure : null;
  const deletingNow = usePendingIntent("delete");
  const filtered = Boolean(filters.course || filters.kind);
  return (
    <div className="space-y-6">
      <FilterBar
        label="Filtrer les contenus"
        id="contenus"
        choices={[
          {
            name: "cours",
            label: "Cours",
            value: filters.course,
            options: [{ value: "", label: "Tous les cours" }, ...data.courseOptions],
          },
          { name: "type", label: "Type", value: filters.kind, options: [{ value: "", label: "Tous les types" }, ...data.kindOptions] },
        ]}
        clearHref={filtered ? "/teacher/content" : null}
      />

      {orphanFailure ? <Alert>{orphanFailure.message ?? Object.values(orphanFailure.fieldErrors).join(" ")}</Alert> : null}

      {deleting ? (
        <div role="alertdialog" aria-labelledby="confirmer-suppression" className="rounded-lg border border-red-200 bg-red-50 p-4">
          <p id="confirmer-suppression" className="font-semibold text-red-900">
            Supprimer « {deleting.name} » ?
          </p>
          <p className="text-sm text-red-900">
            {deleting.used
              ? "Ce fichier est encore utilisé : retirez-le de ses leçons ou remplacez-le d'abord."
              : "Le fichier et ses versions seront effacés définitivement."}
          </p>
          <Form method="post" action={here} className="mt-3 flex flex-wrap gap-2">
            <input type="hidden" name="fileId" value={deleting.id} />
            <button
              type="submit"
              name="intent"
              value="delete"
              disabled={deletingNow}
              className={buttonClasses({ size: "sm", className: "bg-red-700 hover:bg-red-800" })}
            >
              {deletingNow ? "Suppression…" : "Supprimer définitivement"}
            </button>
            <Link to={here} className={buttonClasses({ variant: "outline", size: "sm" })}>
              Annuler
            </Link>
          </Form>
        </div>
      ) : null}

      {filters.kind !== "quiz" ? <UploadPanel courses={courses} limits={limits} /> : null}

      {courses.length === 0 ? (
        <div className="rounded-lg border border-dashed border-slate-300 bg-white p-10 text-center">
          <h2 className="text-lg font-semibold text-slate-900">Aucun cours</h2>
          <p className="mt-1 text-slate-700">Vos fichiers apparaîtront ici dès que vous aurez créé un cours.</p>
          <Link to="/teacher/create-course" className={buttonClasses({ className: "mt-4" })}>
            Créer un cours
          </Link>
        </div>
      ) : (
        courses.map((course) => (
          <Card key={course.id} aria-labelledby={`cours-${course.id}`}>
            <CardHeader className="flex flex-row flex-wrap items-center justify-between gap-2">
              <div className="flex min-w-0 flex-wrap items-center gap-2">
                <CardTitle id={`cours-${course.id}`} className="break-words">
                  {course.title}
                </CardTitle>
                <Badge tone={statusTones[course.status]}>{courseStatusLabels[course.status]}</Badge>
              </div>
              <Link
                to={`${href("/dashboard/course-creator/:id", { id: String(course.id) })}?retour=/teacher/content`}
                className="text-sm font-medium text-brand-700 underline"
                aria-label={`Modifier le cours « ${course.title} »`}
              >
                Modifier le cours
              </Link>
            </CardHeader>
            <CardContent className="space-y-4">
              <p className="text-sm text-slate-600">
                {plural(course.lessons.length, "leçon", "leçons")}
                {filters.kind !== "quiz" ? ` · ${plural(course.files.length, "fichier", "fichiers")}` : ""}
                {course.quizzes ? ` · ${plural(course.quizzes.length, "quiz", "quiz")}` : ""}
              </p>
              {filters.kind !== "quiz" ? (
                course.files.length ? (
                  <ul className="divide-y divide-slate-100">
                    {course.files.map((file) => (
                      <FileRow key={file.id} file={file} courses={[course]} limits={limits} here={here} failure={failure} />
                    ))}
                  </ul>
                ) : (
                  <p className="text-slate-700">Aucun fichier{filters.kind ? " de ce type" : ""} dans ce cours.</p>
                )
              ) : null}
              {course.quizzes ? (
                <div>
                  <h3 className="text-sm font-semibold text-slate-900">Quiz et exercices</h3>
                  {course.quizzes.length ? (
                    <ul className="mt-1 space-y-1 text-sm">
                      {course.quizzes.map((quiz) => (
                        <li key={quiz.id}>
                          <Link to={`/teacher/quiz?quiz=${quiz.id}`} className="font-medium text-brand-700 underline">
                            {quiz.title}
                          </Link>{" "}
                          <span className="text-slate-600">· {plural(quiz.questions, "question", "questions")}</span>
                        </li>
                      ))}
                    </ul>
                  ) : (
                    <p className="text-sm text-slate-600">
                      Aucun quiz.{" "}
                      <Link to="/teacher/quiz?quiz=nouveau" className="font-medium text-brand-700 underline">
                        Créer un quiz
                      </Link>
                    </p>
                  )}
                </div>
              ) : null}
            </CardContent>
          </Card>
        ))
      )}

      {unattached ? (
        <Card aria-labelledby="non-rattaches">
          <CardHeader>
            <CardTitle id="non-rattaches">Envois non rattachés</CardTitle>
            <p className="text-sm text-slate-600">
              Fichiers envoyés qu'aucune leçon n'utilise : rattachez-les pour les garder, sinon ils sont effacés automatiquement 24 heures
              après leur envoi.
            </p>
          </CardHeader>
          <CardContent>
            {unattached.length ? (
              <ul className="divide-y divide-slate-100">
                {unattached.map((file) => (
                  <FileRow key={file.id} file={file} courses={courses} limits={limits} here={here} failure={failure} />
                ))}
              </ul>
            ) : (
              <p className="text-slate-700">Aucun envoi en attente.</p>
            )}
          </CardContent>
        </Card>
      ) : null}
    </div>
  );
}
