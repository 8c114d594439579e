import { plural } from "~/lib/format";
import { ANSWER_PREFIX, type PublicQuestion } from "~/lib/quiz";

export const questionFieldId = (questionId: string) => `question-${questionId}`;

/**
 * One question of a quiz as its learner answers it (an attempt's page, or the quiz answered
 * offline): radio buttons for a QCM or Vrai/Faux, a text field for a short answer, named
 * `answers.<question id>`. The callbacks hear each answer as it is given.
 */
export function QuestionField({
  question,
  index,
  value,
  onChoice,
  onText,
  onTextDone,
}: {
  question: PublicQuestion;
  index: number;
  value: string;
  onChoice?: (value: string) => void;
  onText?: (value: string) => void;
  onTextDone?: (value: string) => void;
}) {
  const name = `${ANSWER_PREFIX}${question.id}`;
  // The question's anchor (its field, or its group of choices): "Répondre aux questions" goes there.
  const fieldId = questionFieldId(question.id);
  const heading = (
    <span className="flex flex-wrap items-baseline justify-between gap-2">
      <span className="font-semibold text-slate-900">
        {index + 1}. {question.question}
      </span>
      <span className="text-xs font-normal text-slate-600">{plural(question.points, "point", "points")}</span>
    </span>
  );
  if (question.type === "short_answer") {
    return (
      <div className="rounded-lg border border-slate-200 bg-white p-4">
        <label htmlFor={fieldId} className="block">
          {heading}
        </label>
        <input
          id={fieldId}
          name={name}
          type="text"
          maxLength={500}
          autoComplete="off"
          defaultValue={value}
          onChange={(event) => onText?.(event.currentTarget.value)}
          onBlur={(event) => onTextDone?.(event.currentTarget.value)}
          className="mt-3 block min-h-11 w-full rounded-md border border-slate-400 px-3 py-2 text-base"
        />
      </div>
    );
  }
  const choices =
    question.type === "true_false"
      ? [
          { value: "true", label: "Vrai" },
          { value: "false", label: "Faux" },
        ]
      : question.options.map((option, optionIndex) => ({ value: String(optionIndex), label: option }));
  return (
    <fieldset id={fieldId} className="rounded-lg border border-slate-200 bg-white p-4">
      <legend className="sr-only">
        Question {index + 1} : {question.question}
      </legend>
      <div aria-hidden="true">{heading}</div>
      <div className="mt-3 grid gap-2">
        {choices.map((choice) => (
          <label
            key={choice.value}
            className="flex min-h-11 cursor-pointer items-center gap-3 rounded-md border border-slate-300 px-3 py-2 has-checked:border-brand-700 has-checked:bg-brand-50"
          >
            <input
              type="radio"
              name={name}
              value={choice.value}
              defaultChecked={value === choice.value}
              onChange={() => onChoice?.(choice.value)}
              className="size-5 accent-brand-700"
            />
            <span className="text-slate-900">{choice.label}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
