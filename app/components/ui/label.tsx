import type { ComponentProps } from "react";
import { cx } from "./control";

export type LabelProps = ComponentProps<"label"> & {
  /** Adds a visible asterisk (hidden from screen readers: the control carries `required`). */
  required?: boolean;
  /** Adds a visible "(facultatif)" mention. */
  optional?: boolean;
};

export function Label({ className, required, optional, children, ...props }: LabelProps) {
  return (
    <label className={cx("block text-sm font-medium text-slate-800", className)} {...props}>
      {children}
      {required && (
        <span aria-hidden="true" className="ml-0.5 text-red-700">
          *
        </span>
      )}
      {optional && <span className="font-normal text-slate-600"> (facultatif)</span>}
    </label>
  );
}
