import type { ComponentProps } from "react";
import { controlClasses, cx } from "./control";

export type SelectProps = ComponentProps<"select"> & {
  /** Options as plain strings (value = label) or { value, label } pairs. */
  options?: ReadonlyArray<string | { value: string; label: string }>;
  /** Text of a first, empty option ("Choisissez…"); omitted when undefined. */
  placeholder?: string;
  /** Small and as wide as its options, for a choice on a table's row. */
  compact?: boolean;
};

// Its own list rather than overrides of controlClasses: which of two clashing utilities wins
// depends on the stylesheet's order, not the class attribute's.
const compactClasses =
  "min-h-9 rounded-md border border-slate-400 bg-white px-2 py-1 text-sm text-slate-900 " +
  "focus-visible:outline-3 focus-visible:outline-offset-1 focus-visible:outline-accent-500";

/** A native <select>: works without JavaScript, keyboard and screen readers for free. */
export function Select({ className, options, placeholder, compact, children, ...props }: SelectProps) {
  return (
    <select className={cx(compact ? compactClasses : cx(controlClasses, "min-h-11"), className)} {...props}>
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
