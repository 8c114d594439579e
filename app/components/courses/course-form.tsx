import { Plus, Save, X } from "~/components/icons";
import { useRef, useState, type KeyboardEvent } from "react";
import { Form, Link, useNavigation } from "react-router";
import { Button, buttonClasses } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { Select } from "~/components/ui/select";
import { Textarea } from "~/components/ui/textarea";
import { useHydrated } from "~/components/ui/use-hydrated";
import {
  applyEditIntent,
  courseFormTabs,
  courseSummary,
  fieldId,
  tabOfField,
  type CourseFormTab,
  type CourseFormValues,
  type EditIntent,
  type LessonValues,
} from "~/lib/course-form";
import { courseStatuses, courseStatusLabels } from "~/lib/course-status";
import { formatMinutes, formatPrice, plural } from "~/lib/format";
import { fileUrl, type UploadPurpose } from "~/lib/uploads";
import { FileUpload, UploadedFileRow, type UploadedFile } from "./file-upload";
import { IntentButton } from "./intent-button";
import { LessonEditor } from "./lesson-editor";

export type CourseFormOptions = {
  categories: Array<{ slug: string; name: string }>;
  levels: Array<{ slug: string; name: string }>;
  /** Teachers (and admins) an admin may assign; empty for a teacher. */
  instructors: Array<{ id: string; firstName: string; lastName: string; email: string }>;
};

export type CourseFormProps = {
  mode: "create" | "edit";
  values: CourseFormValues;
  tab: CourseFormTab;
  files: Record<string, UploadedFile>;
  errors: Record<string, string>;
  formError: string | null;
  options: CourseFormOptions;
  limits: Record<UploadPurpose, number>;
  cancelHref: string;
  /** The public page of the course being edited (a preview while it is not published). */
  previewHref?: string;
};

/**
 * "Créer un Nouveau Cours" / "Modifier le Cours": one form in four tabs. Every field of every tab
 * stays in the form (inactive tabs are only hidden), so one save sends everything. Without
 * JavaScript, the tab and editing buttons submit the form and the server sends it back changed;
 * with it, the same changes happen in the page. Typed input is never lost: a failed save comes
 * back with the values and a message beside each field.
 */
export function CourseForm(props: CourseFormProps) {
  const { mode, errors, formError, options, limits, cancelHref, previewHref } = props;
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const saving = navigation.state === "submitting" && navigation.formData?.get("intent") === "save";
  const [values, setValues] = useState(props.values);
  const [tab, setTab] = useState<CourseFormTab>(props.tab);
  const [files, setFiles] = useState(props.files);
  const tabRefs = useRef<Array<HTMLButtonElement | null>>([]);

  const update = (change: Partial<CourseFormValues>) => setValues((current) => ({ ...current, ...change }));
  const updateLesson = (index: number, change: Partial<LessonValues>) =>
    setValues((current) => ({
      ...current,
      lessons: current.lessons.map((lesson, position) => (position === index ? { ...lesson, ...change } : lesson)),
    }));
  const onIntent = (intent: EditIntent) => setValues((current) => applyEditIntent(current, intent));
  const remember = (file: UploadedFile) => setFiles((current) => ({ ...current, [file.id]: file }));
  // A lesson's upload reports by the lesson's key: the lesson may have moved meanwhile.
  const onLessonUpload = (key: string, file: UploadedFile) => {
    remember(file);
    setValues((current) => ({
      ...current,
      lessons: current.lessons.map((lesson) =>
        lesson.key !== key
          ? lesson
          : file.purpose === "lesson_video"
            ? { ...lesson, videoFileId: file.id }
            : { ...lesson, attachmentIds: [...lesson.attachmentIds, file.id] },
      ),
    }));
  };

  const errorCount = (id: CourseFormTab) => Object.keys(errors).filter((field) => tabOfField(field) === id).length;
  const error = (field: string) => errors[field];
  const summary = courseSummary(values);
  const thumbnail = values.thumbnailFileId ? files[values.thumbnailFileId] : undefined;

  function onTabKeyDown(event: KeyboardEvent<HTMLButtonElement>, index: number) {
    const moves: Record<string, number> = { ArrowRight: 1, ArrowLeft: -1, Home: -index, End: courseFormTabs.length - 1 - index };
    const step = moves[event.key];
    if (step === undefined) return;
    event.preventDefault();
    const next = (index + step + courseFormTabs.length) % courseFormTabs.length;
    setTab(courseFormTabs[next]!.id);
    tabRefs.current[next]?.focus();
  }

  /** Enter in an "add" box adds the item instead of saving the whole form. */
  const addOnEnter = (kind: "add-objective" | "add-prerequisite") => (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== "Enter") return;
    event.preventDefault();
    onIntent({ kind });
  };

  const title = mode === "create" ? "Créer un Nouveau Cours" : "Modifier le Cours";
  return (
    <Form method="post" noValidate className="space-y-6" aria-labelledby="course-form-title">
      <input type="hidden" name="tab" value={tab} />
      <header className="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
        <div>
          <h1 id="course-form-title" className="text-2xl font-bold text-slate-900">
            {title}
          </h1>
          <p className="mt-1 text-slate-600">
            {mode === "create" ? "Renseignez le cours, ses leçons et ses objectifs, puis enregistrez." : values.title || "Cours sans titre"}
          </p>
        </div>
        {/* First submit button of the form: Enter in a field saves (never a tab or list button). */}
        <div className="flex flex-wrap gap-2">
          <Button type="submit" name="intent" value="save" disabled={saving}>
            <Save aria-hidden="true" className="size-4" />
            {saving ? "Enregistrement..." : "Enregistrer"}
          </Button>
          <Link to={cancelHref} className={buttonClasses({ variant: "outline" })}>
            Annuler
          </Link>
          {previewHref ? (
            <Link to={previewHref} className={buttonClasses({ variant: "ghost" })}>
              Aperçu
            </Link>
          ) : null}
        </div>
      </header>

      {formError ? (
        <div role="alert" className="rounded-md border border-red-300 bg-red-50 px-4 py-3 text-red-900">
          <p className="font-semibold">{formError}</p>
          {Object.keys(errors).length > 0 ? (
            <ul className="mt-2 list-disc space-y-1 pl-5 text-sm">
              {Object.entries(errors).map(([field, message]) => (
                <li key={field}>
                  <a
                    href={`#${fieldId(field)}`}
                    className="underline underline-offset-2"
                    onClick={(event) => {
                      event.preventDefault();
                      setTab(tabOfField(field));
                      // The field's tab shows on the next frame; then it can take the focus.
                      requestAnimationFrame(() => document.getElementById(fieldId(field))?.focus());
                    }}
                  >
                    {message}
                  </a>
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}

      <div
        role="tablist"
        aria-label="Parties du formulaire"
        className="grid grid-cols-2 gap-1 rounded-lg bg-slate-100 p-1 sm:flex sm:flex-wrap"
      >
        {courseFormTabs.map((item, index) => {
          const active = item.id === tab;
          const count = errorCount(item.id);
          return (
            <button
              key={item.id}
              ref={(element) => {
                tabRefs.current[index] = element;
              }}
              type="submit"
              name="intent"
              value={`tab:${item.id}`}
              formNoValidate
              role="tab"
              id={`tab-${item.id}`}
              aria-selected={active}
              aria-controls={`panel-${item.id}`}
              tabIndex={active ? 0 : -1}
              onClick={(event) => {
                event.preventDefault();
                setTab(item.id);
              }}
              onKeyDown={(event) => onTabKeyDown(event, index)}
              className={
                "inline-flex min-h-10 items-center justify-center gap-2 rounded-md px-3 py-2 text-sm font-medium text-slate-700 hover:text-slate-900 focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-accent-500 sm:px-4 " +
                (active ? "bg-white text-slate-900 shadow-sm" : "")
              }
            >
              {item.label}
              {count > 0 ? (
                <span className="rounded-full bg-red-700 px-2 text-xs font-semibold text-white">
                  {count}
                  <span className="sr-only"> {count > 1 ? "erreurs" : "erreur"}</span>
                </span>
              ) : null}
            </button>
          );
        })}
      </div>

      <section
        role="tabpanel"
        id="panel-informations"
        aria-labelledby="tab-informations"
        hidden={tab !== "informations"}
        className="space-y-5 rounded-lg border border-slate-200 bg-white p-4 sm:p-6"
      >
        <Field label="Titre du cours" name="title" id={fieldId("title")} required error={error("title")}>
          {(field) => <Input {...field} value={values.title} maxLength={200} onChange={(event) => update({ title: event.target.value })} />}
        </Field>
        <Field label="Description" name="description" id={fieldId("description")} required error={error("description")}>
          {(field) => (
            <Textarea
              {...field}
              rows={5}
              maxLength={5000}
              value={values.description}
              onChange={(event) => update({ description: event.target.value })}
            />
          )}
        </Field>
        <div className="grid gap-5 sm:grid-cols-2">
          <Field label="Catégorie" name="category" id={fieldId("category")} required error={error("category")}>
            {(field) => (
              <Select
                {...field}
                value={values.category}
                placeholder="Choisissez une catégorie"
                options={options.categories.map((category) => ({ value: category.slug, label: category.name }))}
                onChange={(event) => update({ category: event.target.value })}
              />
            )}
          </Field>
          <Field label="Niveau" name="level" id={fieldId("level")} required error={error("level")}>
            {(field) => (
              <Select
                {...field}
                value={values.level}
                placeholder="Choisissez un niveau"
                options={options.levels.map((level) => ({ value: level.slug, label: level.name }))}
                onChange={(event) => update({ level: event.target.value })}
              />
            )}
          </Field>
          <Field label="Durée (semaines)" name="durationWeeks" id={fieldId("durationWeeks")} error={error("durationWeeks")}>
            {(field) => (
              <Input
                {...field}
                inputMode="numeric"
                value={values.durationWeeks}
                placeholder="0"
                onChange={(event) => update({ durationWeeks: event.target.value })}
              />
            )}
          </Field>
          <Field
            label="Prix (FCFA)"
            name="priceFcfa"
            id={fieldId("priceFcfa")}
            hint="0 ou vide : le cours est gratuit."
            error={error("priceFcfa")}
          >
            {(field) => (
              <Input
                {...field}
                inputMode="numeric"
                value={values.priceFcfa}
                placeholder="0"
                onChange={(event) => update({ priceFcfa: event.target.value })}
              />
            )}
          </Field>
          <Field
            label="Nombre maximum d'étudiants"
            name="maxStudents"
            id={fieldId("maxStudents")}
            optional
            hint="Vide : sans limite."
            error={error("maxStudents")}
          >
            {(field) => (
              <Input
                {...field}
                inputMode="numeric"
                value={values.maxStudents}
                onChange={(event) => update({ maxStudents: event.target.value })}
              />
            )}
          </Field>
          <Field
            label="Lien des sessions en direct"
            name="liveSessionUrl"
            id={fieldId("liveSessionUrl")}
            optional
            hint="Zoom, Google Meet, Jitsi…"
            error={error("liveSessionUrl")}
          >
            {(field) => (
              <Input
                {...field}
                type="url"
                inputMode="url"
                placeholder="https://"
                value={values.liveSessionUrl}
                onChange={(event) => update({ liveSessionUrl: event.target.value })}
              />
            )}
          </Field>
          <Field
            label="Prochaine session en direct"
            name="nextLiveAt"
            id={fieldId("nextLiveAt")}
            optional
            hint="Heure de Bamako ; annoncée aux inscrits."
            error={error("nextLiveAt")}
          >
            {(field) => (
              <Input
                {...field}
                type="datetime-local"
                value={values.nextLiveAt}
                onChange={(event) => update({ nextLiveAt: event.target.value })}
              />
            )}
          </Field>
        </div>
        {options.instructors.length > 0 ? (
          <Field
            label="Formateur"
            name="instructorId"
            id={fieldId("instructorId")}
            hint="Vide : vous-même pour un nouveau cours, le formateur actuel sinon."
            error={error("instructorId")}
          >
            {(field) => (
              <Select
                {...field}
                value={values.instructorId}
                placeholder="Formateur actuel (ou vous-même)"
                options={options.instructors.map((person) => ({
                  value: person.id,
                  label: `${person.firstName} ${person.lastName} (${person.email})`,
                }))}
                onChange={(event) => update({ instructorId: event.target.value })}
              />
            )}
          </Field>
        ) : null}
        <div className="space-y-3" id={fieldId("thumbnailFileId")}>
          <input type="hidden" name="thumbnailFileId" value={values.thumbnailFileId} />
          <p className="text-sm font-medium text-slate-800">Image de couverture</p>
          {thumbnail ? (
            <div className="flex flex-col gap-3 sm:flex-row sm:items-start">
              <img
                src={fileUrl(thumbnail.id, 320)}
                alt=""
                width={320}
                height={180}
                className="h-auto w-full max-w-80 rounded-md border border-slate-200 object-cover"
              />
              <div className="flex-1">
                <UploadedFileRow
                  file={thumbnail}
                  removeIntent={{ kind: "remove-thumbnail" }}
                  onIntent={onIntent}
                  removeLabel="Retirer l'image de couverture"
                />
              </div>
            </div>
          ) : hydrated ? (
            <FileUpload
              purpose="thumbnail"
              maxBytes={limits.thumbnail}
              label="Choisir une image"
              onUploaded={(file) => {
                remember(file);
                update({ thumbnailFileId: file.id });
              }}
            />
          ) : (
            <p className="text-sm text-slate-600">L'envoi d'une image demande JavaScript.</p>
          )}
          {error("thumbnailFileId") ? <p className="text-sm font-medium text-red-700">{error("thumbnailFileId")}</p> : null}
        </div>
      </section>

      <section role="tabpanel" id="panel-lecons" aria-labelledby="tab-lecons" hidden={tab !== "lecons"} className="space-y-4">
        <p className="text-slate-700">
          {values.lessons.length === 0
            ? "Ce cours n'a pas encore de leçon."
            : `${plural(values.lessons.length, "leçon", "leçons")} · ${formatMinutes(summary.totalMinutes)} au total. Les leçons gardent leur identité quand vous les modifiez ou les déplacez : la progression des apprenants est conservée.`}
        </p>
        {values.lessons.length > 0 ? (
          <ol className="space-y-4">
            {values.lessons.map((lesson, index) => (
              <LessonEditor
                key={lesson.key}
                index={index}
                count={values.lessons.length}
                lesson={lesson}
                errors={errors}
                files={files}
                limits={limits}
                hydrated={hydrated}
                onChange={(change) => updateLesson(index, change)}
                onIntent={onIntent}
                onUploaded={(file) => onLessonUpload(lesson.key, file)}
              />
            ))}
          </ol>
        ) : null}
        <IntentButton variant="outline" intent={{ kind: "add-lesson" }} onIntent={onIntent}>
          <Plus aria-hidden="true" className="size-4" />
          Ajouter une leçon
        </IntentButton>
      </section>

      <section
        role="tabpanel"
        id="panel-objectifs"
        aria-labelledby="tab-objectifs"
        hidden={tab !== "objectifs"}
        className="grid gap-6 lg:grid-cols-2"
      >
        {(
          [
            {
              list: "objectives",
              newField: "newObjective",
              add: "add-objective",
              remove: "remove-objective",
              title: "Objectifs d'apprentissage",
              placeholder: "Ex. : Dimensionner une installation solaire",
            },
            {
              list: "prerequisites",
              newField: "newPrerequisite",
              add: "add-prerequisite",
              remove: "remove-prerequisite",
              title: "Prérequis",
              placeholder: "Ex. : Notions d'électricité",
            },
          ] as const
        ).map((group) => (
          <fieldset key={group.list} className="space-y-3 rounded-lg border border-slate-200 bg-white p-4 sm:p-6">
            <legend className="px-1 text-base font-semibold text-slate-900">{group.title}</legend>
            {values[group.list].length > 0 ? (
              <ul className="space-y-2">
                {values[group.list].map((item, index) => (
                  <li key={`${index}-${item}`} className="flex items-start gap-2 rounded-md bg-slate-50 px-3 py-2">
                    <input type="hidden" name={`${group.list}[${index}]`} value={item} />
                    <span className="flex-1 break-words text-slate-800">{item}</span>
                    <IntentButton
                      size="sm"
                      variant="ghost"
                      intent={{ kind: group.remove, index }}
                      onIntent={onIntent}
                      aria-label={`Retirer « ${item} »`}
                    >
                      <X aria-hidden="true" className="size-4" />
                    </IntentButton>
                  </li>
                ))}
              </ul>
            ) : (
              <p className="text-sm text-slate-600">Aucun élément pour l'instant.</p>
            )}
            {error(group.list) ? <p className="text-sm font-medium text-red-700">{error(group.list)}</p> : null}
            <div className="flex flex-col gap-2 sm:flex-row sm:items-end">
              <Field label={`Ajouter : ${group.title.toLowerCase()}`} name={group.newField} id={fieldId(group.newField)} className="flex-1">
                {(field) => (
                  <Input
                    {...field}
                    value={values[group.newField]}
                    maxLength={500}
                    placeholder={group.placeholder}
                    onChange={(event) => update({ [group.newField]: event.target.value })}
                    onKeyDown={addOnEnter(group.add)}
                  />
                )}
              </Field>
              <IntentButton variant="outline" intent={{ kind: group.add }} onIntent={onIntent}>
                <Plus aria-hidden="true" className="size-4" />
                Ajouter
              </IntentButton>
            </div>
          </fieldset>
        ))}
      </section>

      <section
        role="tabpanel"
        id="panel-parametres"
        aria-labelledby="tab-parametres"
        hidden={tab !== "parametres"}
        className="grid gap-6 lg:grid-cols-2"
      >
        <fieldset className="space-y-3 rounded-lg border border-slate-200 bg-white p-4 sm:p-6" id={fieldId("status")}>
          <legend className="px-1 text-base font-semibold text-slate-900">Statut</legend>
          {courseStatuses.map((status) => (
            <label key={status} className="flex items-start gap-3 rounded-md p-2 hover:bg-slate-50">
              <input
                type="radio"
                name="status"
                value={status}
                checked={values.status === status}
                onChange={() => update({ status })}
                className="mt-1 size-5 accent-brand-700"
              />
              <span>
                <span className="font-medium text-slate-900">{courseStatusLabels[status]}</span>
                <span className="block text-sm text-slate-600">
                  {status === "draft"
                    ? "Visible par vous et les administrateurs seulement."
                    : status === "published"
                      ? "Visible dans le catalogue, ouvert aux inscriptions ; les inscrits sont prévenus des leçons ajoutées."
                      : "Retiré du catalogue ; les inscrits gardent leur accès."}
                </span>
              </span>
            </label>
          ))}
          {error("status") ? <p className="text-sm font-medium text-red-700">{error("status")}</p> : null}
        </fieldset>
        <section aria-labelledby="summary-title" className="rounded-lg border border-slate-200 bg-white p-4 sm:p-6">
          <h2 id="summary-title" className="text-base font-semibold text-slate-900">
            Résumé
          </h2>
          <dl className="mt-3 divide-y divide-slate-100 text-sm">
            {[
              ["Leçons", String(summary.lessonCount)],
              ["Durée totale", formatMinutes(summary.totalMinutes)],
              ["Prix", formatPrice(summary.priceFcfa)],
              ["Statut", courseStatusLabels[summary.status]],
            ].map(([label, value]) => (
              <div key={label} className="flex justify-between gap-4 py-2">
                <dt className="text-slate-600">{label}</dt>
                <dd className="font-semibold text-slate-900">{value}</dd>
              </div>
            ))}
          </dl>
        </section>
      </section>

      <div className="flex flex-wrap gap-2 border-t border-slate-200 pt-4">
        <Button type="submit" name="intent" value="save" disabled={saving}>
          <Save aria-hidden="true" className="size-4" />
          {saving ? "Enregistrement..." : "Enregistrer"}
        </Button>
        <Link to={cancelHref} className={buttonClasses({ variant: "outline" })}>
          Annuler
        </Link>
      </div>
    </Form>
  );
}
