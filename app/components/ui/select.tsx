import type { ComponentProps } from "react";
import { controlClasses, cx } from "./control";

export type SelectProps = ComponentProps<"select"> & {
  /** Options as plain strings (value = label) or { value, label } pairs. */
  options?: ReadonlyArray<string | { value: string; label: string }>;
  /** Text of a first, empty option ("Choisissez…"); omitted when undefined. */
  placeholder?: string;
};

/** A native <select>: works without JavaScript, keyboard and screen readers for free. */
export function Select({ className, options, placeholder, children, ...props }: SelectProps) {
  return (
    <select className={cx(controlClasses, "min-h-11", className)} {...props}>
      {placeholder !== undefined && <option value="">{placeholder}</option>}
      {options?.map((option) => {
        const { value, label } = typeof option === "string" ? { value: option, label: option } : option;
        return (
          <option key={value} value={value}>
            {label}
          </option>
        );
      })}
      {children}
    </select>
  );
}
