import { formatNumber } from "~/lib/format";
import type { ComponentProps } from "react";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { Select } from "~/components/ui/select";
import { Textarea } from "~/components/ui/textarea";
import { CONTACT_INTERESTS, CONTACT_LIMITS, CONTACT_SUBJECTS, type ContactFieldErrors, type ContactValues } from "~/lib/contact";

type ContactInputProps = Omit<ComponentProps<typeof Input>, "name" | "maxLength" | "defaultValue" | "required"> & {
  field: "name" | "email" | "phone";
  label: string;
  required?: boolean;
  optional?: boolean;
  values: ContactValues;
  fieldErrors: ContactFieldErrors;
};

/** A one-line field of the form: its name, bound, kept value and error all follow from `field`. */
function ContactInput({ field, label, required, optional, values, fieldErrors, ...inputProps }: ContactInputProps) {
  return (
    <Field label={label} name={field} required={required} optional={optional} error={fieldErrors[field]}>
      {(props) => <Input {...props} {...inputProps} maxLength={CONTACT_LIMITS[field]} defaultValue={values[field]} />}
    </Field>
  );
}

export interface ContactFormProps {
  values?: ContactValues;
  fieldErrors?: ContactFieldErrors;
  /** An error about the whole form (too many messages, request too large). */
  formError?: string;
}

/**
 * The contact form: a plain POST to /contact that works without JavaScript. Browser rules
 * (required, type=email, maxLength) mirror the server's zod schema in ~/lib/contact. With
 * JavaScript (app/enhance/progressive.ts) it is sent without leaving the page: the answer replaces
 * the element `regionId` (the form, or the confirmation) and the focus goes to the first error.
 */
export function ContactForm({ values = {}, fieldErrors = {}, formError, regionId }: ContactFormProps & { regionId: string }) {
  const errorCount = Object.values(fieldErrors).filter(Boolean).length;

  return (
    <form method="post" action="/contact" data-enhance={regionId} className="space-y-5" aria-labelledby="contact-form-title">
      {formError && (
        <div tabIndex={-1} role="alert" className="rounded-md border border-red-300 bg-red-50 p-4 text-red-800">
          {formError}
        </div>
      )}
      {errorCount > 0 && (
        <p role="alert" className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-800">
          {errorCount === 1
            ? "Le formulaire contient une erreur : corrigez le champ signalé."
            : `Le formulaire contient ${errorCount} erreurs : corrigez les champs signalés.`}
        </p>
      )}
      <p className="text-sm text-slate-600">
        Les champs marqués d'un astérisque (<span aria-hidden="true">*</span>
        <span className="sr-only">astérisque</span>) sont obligatoires.
      </p>

      <div className="grid gap-5 sm:grid-cols-2">
        <ContactInput
          field="name"
          label="Nom complet"
          required
          values={values}
          fieldErrors={fieldErrors}
          autoComplete="name"
          placeholder="Votre nom et prénom"
        />
        <ContactInput
          field="email"
          label="E-mail"
          required
          values={values}
          fieldErrors={fieldErrors}
          type="email"
          autoComplete="email"
          inputMode="email"
          placeholder="nom@exemple.ml"
        />
        <ContactInput
          field="phone"
          label="Téléphone"
          optional
          values={values}
          fieldErrors={fieldErrors}
          type="tel"
          autoComplete="tel"
          placeholder="+223 XX XX XX XX"
        />
        <Field label="Sujet" name="subject" required error={fieldErrors.subject}>
          {(props) => (
            <Select {...props} defaultValue={values.subject ?? ""} placeholder="Choisissez un sujet" options={CONTACT_SUBJECTS} />
          )}
        </Field>
      </div>

      <Field
        label="Message"
        name="message"
        required
        error={fieldErrors.message}
        hint={`${formatNumber(CONTACT_LIMITS.message)} caractères au maximum.`}
      >
        {(props) => (
          <Textarea
            {...props}
            rows={6}
            maxLength={CONTACT_LIMITS.message}
            defaultValue={values.message}
            placeholder="Comment pouvons-nous vous aider ?"
          />
        )}
      </Field>

      <Field label="Centre d'intérêt" name="interest" optional error={fieldErrors.interest}>
        {(props) => (
          <Select {...props} defaultValue={values.interest ?? ""} placeholder="Aucun en particulier" options={CONTACT_INTERESTS} />
        )}
      </Field>

      {/* Honeypot: hidden from people (display: none), filled by naive bots. */}
      <div className="hidden">
        <label htmlFor="contact-website">Ne remplissez pas ce champ</label>
        <input id="contact-website" type="text" name="website" tabIndex={-1} autoComplete="off" defaultValue="" />
      </div>

      <Button type="submit" size="lg" className="w-full sm:w-auto" data-pending-label="Envoi en cours…">
        Envoyer le message
      </Button>
    </form>
  );
}
