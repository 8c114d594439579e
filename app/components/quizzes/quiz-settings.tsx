import { cx } from "~/components/ui/control";
import type { FieldErrors } from "~/lib/form-result";
import { correctionModeChoices, correctionModes } from "~/lib/quiz";
import { quizFieldId, type QuizFormValues } from "~/lib/quiz-form";
import { describedBy, FieldError, inputClasses, labelClasses } from "./quiz-fields";

/**
 * The editor's "Paramètres" panel: time limit, attempts, passing score, the questions drawn per
 * attempt, shuffling, when the corrections open, and the certificate rule.
 */
export function QuizSettings({ values, errors, hidden }: { values: QuizFormValues; errors: FieldErrors; hidden: boolean }) {
  const drawHint = `${quizFieldId("drawCount")}-aide`;
  const dateHint = `${quizFieldId("correctionsAt")}-aide`;
  return (
    <section id="quiz-panel-parametres" role="tabpanel" aria-label="Paramètres" hidden={hidden} className="space-y-4">
      <div className="rounded-md border border-slate-200 p-3">
        <input type="hidden" name="timeLimitOn" value="false" />
        <label className="flex min-h-11 items-center gap-3">
          <input type="checkbox" name="timeLimitOn" defaultChecked={values.timeLimitOn} className="size-5 accent-brand-700" />
          <span className="font-medium text-slate-900">Limite de temps</span>
        </label>
        <div className="mt-2">
          <label htmlFor={quizFieldId("timeLimitMinutes")} className={labelClasses}>
            Durée en minutes (30 par défaut, comptée si la limite est activée)
          </label>
          <input
            id={quizFieldId("timeLimitMinutes")}
            name="timeLimitMinutes"
            defaultValue={values.timeLimitMinutes}
            inputMode="numeric"
            aria-invalid={errors.timeLimitMinutes ? true : undefined}
            aria-describedby={describedBy("timeLimitMinutes", errors)}
            className={cx(inputClasses, "max-w-40")}
          />
          <FieldError field="timeLimitMinutes" errors={errors} />
        </div>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <div>
          <label htmlFor={quizFieldId("maxAttempts")} className={labelClasses}>
            Tentatives autorisées (1 à 10)
          </label>
          <input
            id={quizFieldId("maxAttempts")}
            name="maxAttempts"
            defaultValue={values.maxAttempts}
            inputMode="numeric"
            aria-invalid={errors.maxAttempts ? true : undefined}
            aria-describedby={describedBy("maxAttempts", errors)}
            className={inputClasses}
          />
          <FieldError field="maxAttempts" errors={errors} />
        </div>
        <div>
          <label htmlFor={quizFieldId("passingScore")} className={labelClasses}>
            Score de réussite en % (0 à 100)
          </label>
          <input
            id={quizFieldId("passingScore")}
            name="passingScore"
            defaultValue={values.passingScore}
            inputMode="numeric"
            aria-invalid={errors.passingScore ? true : undefined}
            aria-describedby={describedBy("passingScore", errors)}
            className={inputClasses}
          />
          <FieldError field="passingScore" errors={errors} />
        </div>
      </div>
      <div>
        <label htmlFor={quizFieldId("drawCount")} className={labelClasses}>
          Questions posées à chaque tentative
        </label>
        <input
          id={quizFieldId("drawCount")}
          name="drawCount"
          defaultValue={values.drawCount}
          inputMode="numeric"
          placeholder={`Toutes (${values.questions.length})`}
          aria-invalid={errors.drawCount ? true : undefined}
          aria-describedby={describedBy("drawCount", errors, drawHint)}
          className={cx(inputClasses, "max-w-40")}
        />
        <p id={drawHint} className="mt-1 text-sm text-slate-600">
          Laissez vide pour poser toutes les questions. Un nombre plus petit tire les questions au hasard parmi celles du quiz : chaque
          tentative reçoit un autre tirage.
        </p>
        <FieldError field="drawCount" errors={errors} />
      </div>
      {(
        [
          ["shuffleQuestions", "Mélanger les questions"],
          ["shuffleOptions", "Mélanger les options des QCM"],
        ] as const
      ).map(([field, label]) => (
        <div key={field}>
          <input type="hidden" name={field} value="false" />
          <label className="flex min-h-11 items-center gap-3">
            <input type="checkbox" name={field} defaultChecked={values[field]} className="size-5 accent-brand-700" />
            <span className="text-slate-900">{label}</span>
          </label>
        </div>
      ))}
      <fieldset className="rounded-md border border-slate-200 p-3">
        <legend className="px-1 font-medium text-slate-900">Quand l'apprenant voit-il les corrections ?</legend>
        <div className="space-y-2">
          {correctionModes.map((mode) => {
            const id = quizFieldId(`corrections-${mode}`);
            return (
              <div key={mode} className="flex items-start gap-3">
                <input
                  id={id}
                  type="radio"
                  name="corrections"
                  value={mode}
                  defaultChecked={values.corrections === mode}
                  aria-describedby={`${id}-aide`}
                  className="mt-3 size-5 shrink-0 accent-brand-700"
                />
                <div>
                  <label htmlFor={id} className="flex min-h-11 items-center text-slate-900">
                    {correctionModeChoices[mode].label}
                  </label>
                  <p id={`${id}-aide`} className="text-sm text-slate-600">
                    {correctionModeChoices[mode].hint}
                  </p>
                </div>
              </div>
            );
          })}
        </div>
        <div className="mt-3">
          <label htmlFor={quizFieldId("correctionsAt")} className={labelClasses}>
            Date d'ouverture des corrections
          </label>
          <input
            id={quizFieldId("correctionsAt")}
            name="correctionsAt"
            type="datetime-local"
            defaultValue={values.correctionsAt}
            aria-invalid={errors.correctionsAt ? true : undefined}
            aria-describedby={describedBy("correctionsAt", errors, dateHint)}
            className={cx(inputClasses, "max-w-64")}
          />
          <p id={dateHint} className="mt-1 text-sm text-slate-600">
            Heure de Bamako ; comptée seulement pour « {correctionModeChoices.after_date.label} ».
          </p>
          <FieldError field="correctionsAt" errors={errors} />
        </div>
      </fieldset>
      <div>
        <input type="hidden" name="required" value="false" />
        <label className="flex min-h-11 items-center gap-3">
          <input type="checkbox" name="required" defaultChecked={values.required} className="size-5 accent-brand-700" />
          <span className="text-slate-900">Obligatoire pour le certificat de la formation</span>
        </label>
      </div>
    </section>
  );
}
