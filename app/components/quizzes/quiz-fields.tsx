import type { FieldErrors } from "~/lib/form-result";
import { quizFieldId } from "~/lib/quiz-form";

/** The quiz editor's controls and their error messages, shared by its panels. */
export const inputClasses = "mt-1 block min-h-11 w-full rounded-md border border-slate-400 bg-white px-3 py-2 text-base";
export const labelClasses = "block text-sm font-medium text-slate-800";

export function FieldError({ field, errors }: { field: string; errors: FieldErrors }) {
  const message = errors[field];
  if (!message) return null;
  return (
    <p id={`${quizFieldId(field)}-erreur`} className="mt-1 text-sm font-medium text-red-700">
      {message}
    </p>
  );
}

export const describedBy = (field: string, errors: FieldErrors, ...others: string[]) =>
  [...others, errors[field] ? `${quizFieldId(field)}-erreur` : ""].filter(Boolean).join(" ") || undefined;
