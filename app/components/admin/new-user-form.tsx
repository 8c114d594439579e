import { useEffect, useRef } from "react";
import { Form } from "react-router";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { Select } from "~/components/ui/select";
import { roleLabels, roles } from "~/lib/roles";

export type NewUserValues = { firstName?: string; lastName?: string; email?: string; role?: string };

const roleOptions = roles.map((role) => ({ value: role, label: roleLabels[role] }));

/**
 * The "Nouvel utilisateur" form: shown in the dialog with JavaScript, inline on the page
 * (/admin/users?nouveau=1) without. What was typed comes back with the errors.
 */
export function NewUserForm({
  errors,
  values,
  pending,
  action,
  idPrefix,
  onCancel,
  cancelHref,
}: {
  errors?: Record<string, string>;
  values?: NewUserValues;
  pending?: boolean;
  action?: string;
  idPrefix: string;
  onCancel?: () => void;
  cancelHref?: string;
}) {
  const form = useRef<HTMLFormElement>(null);
  // After a refused submission, take the keyboard to the first field to fix.
  useEffect(() => {
    if (errors) form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [errors]);
  return (
    <Form ref={form} method="post" action={action} noValidate className="space-y-4">
      <input type="hidden" name="intent" value="create" />
      {errors?.form && (
        <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm font-medium text-red-800">
          {errors.form}
        </p>
      )}
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Prénom" name="firstName" id={`${idPrefix}-firstName`} required error={errors?.firstName}>
          {(props) => <Input autoComplete="off" defaultValue={values?.firstName} maxLength={100} {...props} />}
        </Field>
        <Field label="Nom" name="lastName" id={`${idPrefix}-lastName`} required error={errors?.lastName}>
          {(props) => <Input autoComplete="off" defaultValue={values?.lastName} maxLength={100} {...props} />}
        </Field>
      </div>
      <Field
        label="Adresse e-mail"
        name="email"
        id={`${idPrefix}-email`}
        required
        error={errors?.email}
        hint="Une invitation à choisir un mot de passe sera envoyée à cette adresse."
      >
        {(props) => <Input type="email" autoComplete="off" inputMode="email" defaultValue={values?.email} maxLength={254} {...props} />}
      </Field>
      <Field label="Rôle" name="role" id={`${idPrefix}-role`} required error={errors?.role}>
        {(props) => (
          <Select options={roleOptions} defaultValue={values?.role && values.role in roleLabels ? values.role : "user"} {...props} />
        )}
      </Field>
      <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
        {onCancel && (
          <Button variant="ghost" onClick={onCancel}>
            Annuler
          </Button>
        )}
        {cancelHref && (
          <a
            href={cancelHref}
            className="inline-flex min-h-11 items-center justify-center rounded-md px-4 font-medium text-brand-700 hover:bg-brand-50"
          >
            Annuler
          </a>
        )}
        <Button type="submit" disabled={pending}>
          {pending ? "Création…" : "Créer et envoyer l'invitation"}
        </Button>
      </div>
    </Form>
  );
}
