import type { ComponentProps } from "react";
import { controlClasses, cx } from "./control";

export function Textarea({ className, rows = 5, ...props }: ComponentProps<"textarea">) {
  return <textarea rows={rows} className={cx(controlClasses, "min-h-24", className)} {...props} />;
}
