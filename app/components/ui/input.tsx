import type { ComponentProps } from "react";
import { controlClasses, cx } from "./control";

/** A native input. Text size 16 px so that phones do not zoom on focus. */
export function Input({ className, type = "text", ...props }: ComponentProps<"input">) {
  return <input type={type} className={cx(controlClasses, "min-h-11", className)} {...props} />;
}
