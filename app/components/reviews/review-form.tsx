import { formatNumber } from "~/lib/format";
import { Form } from "react-router";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Textarea } from "~/components/ui/textarea";
import { usePendingIntent } from "~/components/ui/use-pending-intent";
import type { FormFailure } from "~/lib/form-result";
import { ratingLabels, REVIEW_LIMITS, REVIEW_RATINGS } from "~/lib/reviews";
import { Stars } from "./stars";

export type ReviewFormValues = { rating: string; body: string };

/**
 * A learner's review of a course they follow: the stars (radio buttons, so it works without
 * JavaScript) and a short text. With a review already written, the same form edits it.
 */
export function ReviewForm({
  review,
  failure,
}: {
  review: { rating: number; body: string; updatedLabel: string; hidden: boolean } | null;
  failure: FormFailure<ReviewFormValues> | null;
}) {
  const saving = usePendingIntent("review");
  const rating = failure?.values?.rating ?? (review ? String(review.rating) : "");
  const ratingError = failure?.fieldErrors.rating;
  return (
    <section aria-labelledby="mon-avis" className="rounded-lg border border-slate-200 bg-white p-5">
      <h2 id="mon-avis" className="font-semibold text-slate-900">
        {review ? "Votre avis" : "Donnez votre avis"}
      </h2>
      {review ? (
        <div className="mt-2 space-y-1 text-sm text-slate-700">
          <p className="flex flex-wrap items-center gap-2">
            <Stars rating={review.rating} /> <span>Publié ou modifié le {review.updatedLabel}. Vous pouvez le modifier ci-dessous.</span>
          </p>
          {review.hidden ? (
            <Alert tone="warning">Votre avis a été masqué par l'administration : il n'apparaît plus sur la page de la formation.</Alert>
          ) : null}
        </div>
      ) : (
        <p className="mt-1 text-sm text-slate-700">Votre note et votre avis aident les futurs apprenants à choisir.</p>
      )}
      <Form method="post" noValidate className="mt-4 space-y-4">
        <input type="hidden" name="intent" value="review" />
        <Alert>{failure?.message}</Alert>
        <fieldset aria-describedby={ratingError ? "note-erreur" : undefined}>
          <legend className="text-sm font-medium text-slate-900">
            Votre note <span className="text-red-700">*</span>
          </legend>
          <div className="mt-2 flex flex-wrap gap-2">
            {REVIEW_RATINGS.map((value) => (
              <label
                key={value}
                className="flex cursor-pointer items-center gap-2 rounded-md border border-slate-300 px-3 py-2 text-sm has-checked:border-brand-700 has-checked:bg-brand-50 has-focus-visible:outline-3 has-focus-visible:outline-accent-500"
              >
                <input
                  type="radio"
                  name="rating"
                  value={value}
                  defaultChecked={rating === String(value)}
                  className="size-4 accent-brand-700"
                />
                <Stars rating={value} className="size-3.5" />
                <span className="text-slate-800" aria-hidden="true">
                  {ratingLabels[value]}
                </span>
              </label>
            ))}
          </div>
          {ratingError ? (
            <p id="note-erreur" className="mt-1.5 text-sm font-medium text-red-700">
              {ratingError}
            </p>
          ) : null}
        </fieldset>
        <Field
          label="Votre avis"
          name="body"
          required
          hint={`De ${REVIEW_LIMITS.minBody} à ${formatNumber(REVIEW_LIMITS.maxBody)} caractères. Il sera publié avec votre prénom et l'initiale de votre nom.`}
          error={failure?.fieldErrors.body}
        >
          {(props) => (
            <Textarea {...props} rows={4} maxLength={REVIEW_LIMITS.maxBody} defaultValue={failure?.values?.body ?? review?.body ?? ""} />
          )}
        </Field>
        <Button type="submit" disabled={saving}>
          {saving ? "Envoi…" : review ? "Modifier mon avis" : "Publier mon avis"}
        </Button>
      </Form>
    </section>
  );
}
