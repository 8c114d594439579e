import { type ReactNode, useId } from "react";
import { cx } from "./control";
import { Label } from "./label";

/** Props a Field hands to its control: spread them on an Input, Textarea or Select. */
export type FieldControlProps = {
  id: string;
  name: string;
  required?: boolean;
  "aria-invalid"?: true;
  "aria-describedby"?: string;
};

export type FieldProps = {
  label: ReactNode;
  name: string;
  /** Defaults to a generated id. */
  id?: string;
  required?: boolean;
  /** Shows "(facultatif)" after the label. */
  optional?: boolean;
  hint?: ReactNode;
  /** A French error message shown under the control; sets aria-invalid. */
  error?: string | null;
  className?: string;
  children: (control: FieldControlProps) => ReactNode;
};

/**
 * Label + control + hint + error, wired for assistive technology:
 * the label points at the control, the control is described by the hint and
 * the error, and marked aria-invalid when there is an error.
 *
 *   <Field label="E-mail" name="email" required error={errors?.email}>
 *     {(props) => <Input type="email" defaultValue={values.email} {...props} />}
 *   </Field>
 */
export function Field({ label, name, id, required, optional, hint, error, className, children }: FieldProps) {
  const generatedId = useId();
  const controlId = id ?? `${name}-${generatedId}`;
  const hintId = hint ? `${controlId}-hint` : undefined;
  const errorId = error ? `${controlId}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(" ") || undefined;

  return (
    <div className={cx("space-y-1.5", className)}>
      <Label htmlFor={controlId} required={required} optional={optional}>
        {label}
      </Label>
      {children({
        id: controlId,
        name,
        required: required || undefined,
        "aria-invalid": error ? true : undefined,
        "aria-describedby": describedBy,
      })}
      {hint && (
        <p id={hintId} className="text-sm text-slate-600">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="text-sm font-medium text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}
