import { ArrowDown, ArrowUp, Trash2 } from "~/components/icons";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { Textarea } from "~/components/ui/textarea";
import { fieldId, type EditIntent, type LessonValues } from "~/lib/course-form";
import type { UploadPurpose } from "~/lib/uploads";
import { FileUpload, UploadedFileRow, type UploadedFile } from "./file-upload";
import { IntentButton } from "./intent-button";

export type LessonEditorProps = {
  index: number;
  count: number;
  lesson: LessonValues;
  errors: Record<string, string>;
  files: Record<string, UploadedFile>;
  limits: Record<UploadPurpose, number>;
  /** Uploads need JavaScript: until it runs, the form says so instead of showing a dead picker. */
  hydrated: boolean;
  onChange: (change: Partial<LessonValues>) => void;
  onIntent: (intent: EditIntent) => void;
  onUploaded: (file: UploadedFile) => void;
};

/** One lesson of "Contenu & Leçons": its fields, its video and documents, and its row buttons. */
export function LessonEditor({ index, count, lesson, errors, files, limits, hydrated, onChange, onIntent, onUploaded }: LessonEditorProps) {
  const name = (field: string) => `lessons[${index}].${field}`;
  const error = (field: string) => errors[`lessons.${index}.${field}`];
  const number = index + 1;
  const title = lesson.title.trim() || "sans titre";
  const video = lesson.videoFileId ? files[lesson.videoFileId] : undefined;
  const headingId = `lesson-${lesson.key}-heading`;

  return (
    <li className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-5">
      <fieldset aria-labelledby={headingId} className="space-y-4">
        <input type="hidden" name={name("key")} value={lesson.key} />
        <input type="hidden" name={name("id")} value={lesson.id} />
        <input type="hidden" name={name("videoFileId")} value={lesson.videoFileId} />
        {lesson.attachmentIds.map((id) => (
          <input key={id} type="hidden" name={name("attachmentIds")} value={id} />
        ))}
        <div className="flex flex-wrap items-center gap-2">
          <h3 id={headingId} className="mr-auto text-base font-semibold text-slate-900">
            Leçon {number}
            <span className="sr-only"> : {title}</span>
          </h3>
          <IntentButton
            size="sm"
            variant="ghost"
            intent={{ kind: "move-lesson-up", index }}
            onIntent={onIntent}
            disabled={index === 0}
            aria-label={`Monter la leçon ${number} (${title})`}
          >
            <ArrowUp aria-hidden="true" className="size-4" />
            <span className="hidden sm:inline">Monter</span>
          </IntentButton>
          <IntentButton
            size="sm"
            variant="ghost"
            intent={{ kind: "move-lesson-down", index }}
            onIntent={onIntent}
            disabled={index === count - 1}
            aria-label={`Descendre la leçon ${number} (${title})`}
          >
            <ArrowDown aria-hidden="true" className="size-4" />
            <span className="hidden sm:inline">Descendre</span>
          </IntentButton>
          <IntentButton
            size="sm"
            variant="ghost"
            intent={{ kind: "remove-lesson", index }}
            onIntent={onIntent}
            className="text-red-700 hover:bg-red-50"
            aria-label={`Supprimer la leçon ${number} (${title})`}
          >
            <Trash2 aria-hidden="true" className="size-4" />
            <span className="hidden sm:inline">Supprimer</span>
          </IntentButton>
        </div>
        {error("id") ? <p className="text-sm font-medium text-red-700">{error("id")}</p> : null}

        <div className="grid gap-4 sm:grid-cols-[1fr_10rem]">
          <Field label="Titre de la leçon" name={name("title")} id={fieldId(`lessons.${index}.title`)} required error={error("title")}>
            {(props) => (
              <Input {...props} value={lesson.title} maxLength={200} onChange={(event) => onChange({ title: event.target.value })} />
            )}
          </Field>
          <Field
            label="Durée (minutes)"
            name={name("durationMinutes")}
            id={fieldId(`lessons.${index}.durationMinutes`)}
            error={error("durationMinutes")}
          >
            {(props) => (
              <Input
                {...props}
                inputMode="numeric"
                value={lesson.durationMinutes}
                onChange={(event) => onChange({ durationMinutes: event.target.value })}
              />
            )}
          </Field>
        </div>
        <Field
          label="Description"
          name={name("description")}
          id={fieldId(`lessons.${index}.description`)}
          optional
          error={error("description")}
        >
          {(props) => (
            <Textarea
              {...props}
              rows={2}
              maxLength={2000}
              value={lesson.description}
              onChange={(event) => onChange({ description: event.target.value })}
            />
          )}
        </Field>
        <Field
          label="Contenu (texte de la leçon)"
          name={name("content")}
          id={fieldId(`lessons.${index}.content`)}
          optional
          hint="Les paragraphes séparés par une ligne vide s'affichent tels quels."
          error={error("content")}
        >
          {(props) => (
            <Textarea {...props} rows={5} value={lesson.content} onChange={(event) => onChange({ content: event.target.value })} />
          )}
        </Field>

        <div className="space-y-3 rounded-md border border-dashed border-slate-300 p-3">
          <p className="text-sm font-semibold text-slate-900">Vidéo</p>
          {video ? (
            <UploadedFileRow
              file={video}
              removeIntent={{ kind: "remove-video", index }}
              onIntent={onIntent}
              removeLabel={`Retirer la vidéo de la leçon ${number}`}
            />
          ) : hydrated ? (
            <FileUpload purpose="lesson_video" maxBytes={limits.lesson_video} label="Envoyer une vidéo" onUploaded={onUploaded} />
          ) : (
            <p className="text-sm text-slate-600">L'envoi de fichiers demande JavaScript : vous pouvez indiquer un lien vers la vidéo.</p>
          )}
          {error("videoFileId") ? <p className="text-sm font-medium text-red-700">{error("videoFileId")}</p> : null}
          <Field
            label="ou lien vers une vidéo (YouTube, Vimeo…)"
            name={name("videoUrl")}
            id={fieldId(`lessons.${index}.videoUrl`)}
            optional
            error={error("videoUrl")}
          >
            {(props) => (
              <Input
                {...props}
                type="url"
                inputMode="url"
                placeholder="https://"
                value={lesson.videoUrl}
                onChange={(event) => onChange({ videoUrl: event.target.value })}
              />
            )}
          </Field>
        </div>

        <div className="space-y-3 rounded-md border border-dashed border-slate-300 p-3">
          <p className="text-sm font-semibold text-slate-900">Documents (PDF et autres pièces jointes)</p>
          {lesson.attachmentIds.length > 0 ? (
            <ul className="space-y-2">
              {lesson.attachmentIds.map((id, attachment) => {
                const file = files[id];
                return file ? (
                  <li key={id}>
                    <UploadedFileRow
                      file={file}
                      removeIntent={{ kind: "remove-attachment", index, attachment }}
                      onIntent={onIntent}
                      removeLabel={`Retirer ${file.name} de la leçon ${number}`}
                    />
                  </li>
                ) : null;
              })}
            </ul>
          ) : null}
          {error("attachmentIds") ? <p className="text-sm font-medium text-red-700">{error("attachmentIds")}</p> : null}
          {hydrated ? (
            <FileUpload
              purpose="lesson_attachment"
              maxBytes={limits.lesson_attachment}
              label="Ajouter un document"
              onUploaded={onUploaded}
            />
          ) : null}
        </div>

        <div className="flex items-start gap-3">
          <input
            id={fieldId(`lessons.${index}.isFree`)}
            type="checkbox"
            name={name("isFree")}
            checked={lesson.isFree}
            onChange={(event) => onChange({ isFree: event.target.checked })}
            className="mt-1 size-5 accent-brand-700"
          />
          <label htmlFor={fieldId(`lessons.${index}.isFree`)} className="text-sm text-slate-800">
            <span className="font-medium">Aperçu gratuit</span>
            <span className="block text-slate-600">Tout visiteur peut suivre cette leçon depuis la page publique du cours.</span>
          </label>
        </div>
      </fieldset>
    </li>
  );
}
