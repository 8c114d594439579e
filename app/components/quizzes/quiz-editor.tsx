import { ArrowDown, ArrowUp, Plus, Trash2 } from "~/components/icons";
import { useEffect, useRef, useState } from "react";
import { Form, Link, useNavigation } from "react-router";
import { buttonClasses } from "~/components/ui/button";
import { cx } from "~/components/ui/control";
import type { FieldErrors } from "~/lib/form-result";
import { describedBy, FieldError, inputClasses, labelClasses } from "./quiz-fields";
import { QuizSettings } from "./quiz-settings";
import { questionTypeLabels, questionTypes } from "~/lib/quiz";
import { quizEditIntentValue, quizFieldId, quizFormTabs, type QuizFormTab, type QuizFormValues } from "~/lib/quiz-form";

export type PlacementOption = { id: number; title: string; lessons: Array<{ id: number; title: string }> };

/**
 * The create/edit dialog of /teacher/quiz: tabs Informations, Questions, Paramètres, in one form.
 * Rendered by the server (a URL opens it), so it works without JavaScript: the tab, add, remove,
 * move and type buttons submit the form and the server sends it back changed, nothing typed lost.
 * With JavaScript, tabs switch in place and a new type applies as soon as it is chosen.
 */
export function QuizEditor({
  quizId,
  values,
  errors,
  message,
  notice,
  tab: initialTab,
  courses,
  closeHref,
}: {
  quizId: number | null;
  values: QuizFormValues;
  errors: FieldErrors;
  message: string | null;
  /** A confirmation after an editing button ("Question ajoutée"). */
  notice: string | null;
  tab: QuizFormTab;
  courses: PlacementOption[];
  closeHref: string;
}) {
  const [tab, setTab] = useState(initialTab);
  const [courseId, setCourseId] = useState(values.courseId);
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  const title = useRef<HTMLHeadingElement>(null);
  useEffect(() => setTab(initialTab), [initialTab]);
  useEffect(() => title.current?.focus(), []);
  const lessons = courses.find((course) => String(course.id) === courseId)?.lessons ?? [];
  const errorCount = Object.keys(errors).length;

  return (
    <div className="fixed inset-0 z-40 overflow-y-auto bg-slate-900/50 p-2 sm:p-6">
      <div
        role="dialog"
        aria-modal="true"
        aria-labelledby="quiz-dialog-title"
        className="relative mx-auto w-full max-w-3xl rounded-lg bg-white p-4 shadow-xl sm:p-6"
        onKeyDown={(event) => {
          if (event.key === "Escape") document.getElementById("quiz-dialog-close")?.click();
        }}
      >
        <div className="mb-4 flex items-start justify-between gap-3">
          <div>
            <h2 id="quiz-dialog-title" ref={title} tabIndex={-1} className="text-xl font-semibold text-slate-900 focus:outline-none">
              {quizId ? "Modifier le quiz" : "Créer un quiz"}
            </h2>
            <p className="text-sm text-slate-600">Les champs marqués * sont obligatoires.</p>
          </div>
          <Link id="quiz-dialog-close" to={closeHref} className={buttonClasses({ variant: "ghost", size: "sm" })}>
            Fermer
          </Link>
        </div>
        {notice ? (
          <p role="status" className="mb-4 rounded-md border border-green-300 bg-green-50 p-3 text-sm font-medium text-green-900">
            {notice}
          </p>
        ) : null}
        {message || errorCount ? (
          <div role="alert" className="mb-4 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-900">
            <p className="font-semibold">{message ?? "Impossible de sauvegarder le quiz."}</p>
            {errorCount ? <p>Corrigez {errorCount > 1 ? `les ${errorCount} champs signalés` : "le champ signalé"}.</p> : null}
          </div>
        ) : null}

        <Form method="post" noValidate>
          {quizId ? <input type="hidden" name="quizId" value={quizId} /> : null}
          <input type="hidden" name="tab" value={tab} />
          <div role="tablist" aria-label="Sections du quiz" className="mb-4 inline-flex flex-wrap gap-1 rounded-lg bg-slate-100 p-1">
            {quizFormTabs.map((item) => (
              <button
                key={item.id}
                type="submit"
                name="intent"
                value={`tab:${item.id}`}
                role="tab"
                aria-selected={tab === item.id}
                aria-controls={`quiz-panel-${item.id}`}
                onClick={(event) => {
                  event.preventDefault();
                  setTab(item.id);
                }}
                className={cx(
                  "min-h-10 rounded-md px-4 py-2 text-sm font-medium text-slate-700",
                  tab === item.id && "bg-white text-slate-900 shadow-sm",
                )}
              >
                {item.label}
                {item.id === "questions" ? ` (${values.questions.length})` : ""}
              </button>
            ))}
          </div>

          <section
            id="quiz-panel-informations"
            role="tabpanel"
            aria-label="Informations"
            hidden={tab !== "informations"}
            className="space-y-4"
          >
            <div>
              <label htmlFor={quizFieldId("title")} className={labelClasses}>
                Titre *
              </label>
              <input
                id={quizFieldId("title")}
                name="title"
                defaultValue={values.title}
                maxLength={200}
                aria-invalid={errors.title ? true : undefined}
                aria-describedby={describedBy("title", errors)}
                className={inputClasses}
              />
              <FieldError field="title" errors={errors} />
            </div>
            <div>
              <label htmlFor={quizFieldId("description")} className={labelClasses}>
                Description
              </label>
              <textarea
                id={quizFieldId("description")}
                name="description"
                defaultValue={values.description}
                rows={3}
                maxLength={5000}
                className={inputClasses}
              />
              <FieldError field="description" errors={errors} />
            </div>
            <div className="grid gap-4 sm:grid-cols-2">
              <div>
                <label htmlFor={quizFieldId("courseId")} className={labelClasses}>
                  Cours *
                </label>
                <select
                  id={quizFieldId("courseId")}
                  name="courseId"
                  value={courseId}
                  onChange={(event) => {
                    setCourseId(event.currentTarget.value);
                    // A new course clears the lesson (the spec's rule).
                    const lesson = event.currentTarget.form?.elements.namedItem("lessonId");
                    if (lesson instanceof HTMLSelectElement) lesson.value = "";
                  }}
                  aria-invalid={errors.courseId ? true : undefined}
                  aria-describedby={describedBy("courseId", errors)}
                  className={inputClasses}
                >
                  <option value="">Choisissez un cours</option>
                  {courses.map((course) => (
                    <option key={course.id} value={course.id}>
                      {course.title}
                    </option>
                  ))}
                </select>
                <FieldError field="courseId" errors={errors} />
              </div>
              <div>
                <label htmlFor={quizFieldId("lessonId")} className={labelClasses}>
                  Leçon (facultatif)
                </label>
                <select
                  id={quizFieldId("lessonId")}
                  name="lessonId"
                  defaultValue={values.lessonId}
                  aria-invalid={errors.lessonId ? true : undefined}
                  aria-describedby={describedBy("lessonId", errors)}
                  className={inputClasses}
                >
                  <option value="">Aucune : quiz de fin de cours</option>
                  {courseId
                    ? lessons.map((lesson) => (
                        <option key={lesson.id} value={lesson.id}>
                          {lesson.title}
                        </option>
                      ))
                    : courses.map((course) => (
                        <optgroup key={course.id} label={course.title}>
                          {course.lessons.map((lesson) => (
                            <option key={lesson.id} value={lesson.id}>
                              {lesson.title}
                            </option>
                          ))}
                        </optgroup>
                      ))}
                </select>
                <FieldError field="lessonId" errors={errors} />
              </div>
            </div>
          </section>

          <section id="quiz-panel-questions" role="tabpanel" aria-label="Questions" hidden={tab !== "questions"} className="space-y-4">
            {errors.questions ? <p className="text-sm font-medium text-red-700">{errors.questions}</p> : null}
            {values.questions.length === 0 ? (
              <p className="rounded-md border border-dashed border-slate-300 p-4 text-center text-slate-700">
                Aucune question pour l'instant : ajoutez-en une.
              </p>
            ) : null}
            <ol className="space-y-4">
              {values.questions.map((question, index) => {
                const name = (field: string) => `questions[${index}].${field}`;
                const key = (field: string) => `questions.${index}.${field}`;
                return (
                  <li key={question.key} className="rounded-lg border border-slate-200 p-4">
                    <input type="hidden" name={name("key")} value={question.key} />
                    <input type="hidden" name={name("id")} value={question.id} />
                    <input type="hidden" name={name("shownType")} value={question.shownType} />
                    <div className="flex flex-wrap items-center justify-between gap-2">
                      <h3 className="font-semibold text-slate-900">Question {index + 1}</h3>
                      <div className="flex gap-1">
                        <button
                          type="submit"
                          name="intent"
                          value={quizEditIntentValue({ kind: "move-question-up", index })}
                          disabled={index === 0 || busy}
                          className={buttonClasses({ variant: "ghost", size: "sm" })}
                        >
                          <ArrowUp aria-hidden="true" className="size-4" />
                          <span className="sr-only">Monter la question {index + 1}</span>
                        </button>
                        <button
                          type="submit"
                          name="intent"
                          value={quizEditIntentValue({ kind: "move-question-down", index })}
                          disabled={index === values.questions.length - 1 || busy}
                          className={buttonClasses({ variant: "ghost", size: "sm" })}
                        >
                          <ArrowDown aria-hidden="true" className="size-4" />
                          <span className="sr-only">Descendre la question {index + 1}</span>
                        </button>
                        <button
                          type="submit"
                          name="intent"
                          value={quizEditIntentValue({ kind: "remove-question", index })}
                          disabled={busy}
                          className={buttonClasses({ variant: "ghost", size: "sm", className: "text-red-700" })}
                        >
                          <Trash2 aria-hidden="true" className="size-4" />
                          <span className="sr-only">Retirer la question {index + 1}</span>
                        </button>
                      </div>
                    </div>
                    <div className="mt-2 grid gap-3 sm:grid-cols-[1fr_auto_7rem] sm:items-end">
                      <div>
                        <label htmlFor={quizFieldId(key("type"))} className={labelClasses}>
                          Type
                        </label>
                        <select
                          id={quizFieldId(key("type"))}
                          name={name("type")}
                          defaultValue={question.type}
                          aria-invalid={errors[key("type")] ? true : undefined}
                          aria-describedby={describedBy(key("type"), errors)}
                          onChange={(event) => {
                            // Switching type resets the options and the answer: applied at once.
                            const button = event.currentTarget.form?.querySelector<HTMLButtonElement>(
                              `button[value="apply-type:${index}"]`,
                            );
                            if (button) event.currentTarget.form?.requestSubmit(button);
                          }}
                          className={inputClasses}
                        >
                          {questionTypes.map((type) => (
                            <option key={type} value={type}>
                              {questionTypeLabels[type]}
                            </option>
                          ))}
                        </select>
                        <FieldError field={key("type")} errors={errors} />
                      </div>
                      <button
                        type="submit"
                        name="intent"
                        value={quizEditIntentValue({ kind: "apply-type", index })}
                        className={buttonClasses({ variant: "outline", size: "sm" })}
                      >
                        Appliquer le type
                      </button>
                      <div>
                        <label htmlFor={quizFieldId(key("points"))} className={labelClasses}>
                          Points
                        </label>
                        <input
                          id={quizFieldId(key("points"))}
                          name={name("points")}
                          defaultValue={question.points}
                          inputMode="numeric"
                          aria-invalid={errors[key("points")] ? true : undefined}
                          aria-describedby={describedBy(key("points"), errors)}
                          className={inputClasses}
                        />
                      </div>
                    </div>
                    <FieldError field={key("points")} errors={errors} />
                    <div className="mt-3">
                      <label htmlFor={quizFieldId(key("question"))} className={labelClasses}>
                        Question *
                      </label>
                      <textarea
                        id={quizFieldId(key("question"))}
                        name={name("question")}
                        defaultValue={question.question}
                        rows={2}
                        maxLength={2000}
                        aria-invalid={errors[key("question")] ? true : undefined}
                        aria-describedby={describedBy(key("question"), errors)}
                        className={inputClasses}
                      />
                      <FieldError field={key("question")} errors={errors} />
                    </div>
                    {question.shownType === "multiple_choice" ? (
                      <fieldset className="mt-3">
                        <legend className={labelClasses}>Options (cochez la bonne réponse) *</legend>
                        <div className="mt-1 space-y-2">
                          {question.options.map((option, optionIndex) => (
                            <div key={optionIndex} className="flex items-center gap-2">
                              <input
                                type="radio"
                                name={name("correctAnswer")}
                                value={String(optionIndex)}
                                defaultChecked={question.correctAnswer === String(optionIndex)}
                                aria-label={`Option ${optionIndex + 1} : bonne réponse`}
                                className="size-5 accent-brand-700"
                              />
                              <input
                                id={quizFieldId(key(`options.${optionIndex}`))}
                                name={`${name("options")}[${optionIndex}]`}
                                defaultValue={option}
                                aria-label={`Option ${optionIndex + 1}`}
                                maxLength={500}
                                aria-invalid={errors[key(`options.${optionIndex}`)] ? true : undefined}
                                className={cx(inputClasses, "mt-0")}
                              />
                            </div>
                          ))}
                        </div>
                        {question.options.map((_, optionIndex) => (
                          <FieldError key={optionIndex} field={key(`options.${optionIndex}`)} errors={errors} />
                        ))}
                        <FieldError field={key("correctAnswer")} errors={errors} />
                      </fieldset>
                    ) : question.shownType === "true_false" ? (
                      <fieldset className="mt-3">
                        <legend className={labelClasses}>Bonne réponse *</legend>
                        <div className="mt-1 flex gap-4">
                          {[
                            { value: "true", label: "Vrai" },
                            { value: "false", label: "Faux" },
                          ].map((choice) => (
                            <label key={choice.value} className="flex min-h-11 items-center gap-2">
                              <input
                                type="radio"
                                name={name("correctAnswer")}
                                value={choice.value}
                                defaultChecked={question.correctAnswer === choice.value}
                                className="size-5 accent-brand-700"
                              />
                              {choice.label}
                            </label>
                          ))}
                        </div>
                        <FieldError field={key("correctAnswer")} errors={errors} />
                      </fieldset>
                    ) : (
                      <div className="mt-3">
                        <label htmlFor={quizFieldId(key("correctAnswer"))} className={labelClasses}>
                          Réponse attendue * (la casse, les accents et les espaces en trop ne comptent pas)
                        </label>
                        <input
                          id={quizFieldId(key("correctAnswer"))}
                          name={name("correctAnswer")}
                          defaultValue={question.correctAnswer}
                          maxLength={500}
                          aria-invalid={errors[key("correctAnswer")] ? true : undefined}
                          aria-describedby={describedBy(key("correctAnswer"), errors)}
                          className={inputClasses}
                        />
                        <FieldError field={key("correctAnswer")} errors={errors} />
                      </div>
                    )}
                    <div className="mt-3">
                      <label htmlFor={quizFieldId(key("explanation"))} className={labelClasses}>
                        Explication (facultatif, montrée avec la correction)
                      </label>
                      <textarea
                        id={quizFieldId(key("explanation"))}
                        name={name("explanation")}
                        defaultValue={question.explanation}
                        rows={2}
                        maxLength={2000}
                        className={inputClasses}
                      />
                    </div>
                  </li>
                );
              })}
            </ol>
            <button type="submit" name="intent" value="add-question" className={buttonClasses({ variant: "outline" })} disabled={busy}>
              <Plus aria-hidden="true" className="size-4" />
              Ajouter une question
            </button>
          </section>

          <QuizSettings values={values} errors={errors} hidden={tab !== "parametres"} />

          <div className="mt-6 flex flex-col-reverse gap-2 border-t border-slate-200 pt-4 sm:flex-row sm:justify-end">
            <Link to={closeHref} className={buttonClasses({ variant: "outline" })}>
              Annuler
            </Link>
            <button type="submit" name="intent" value="save" className={buttonClasses()} disabled={busy}>
              {busy ? "Enregistrement..." : quizId ? "Enregistrer les modifications" : "Créer le quiz"}
            </button>
          </div>
        </Form>
      </div>
    </div>
  );
}
