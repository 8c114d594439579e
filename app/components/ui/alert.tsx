import type { ComponentProps, ReactNode } from "react";
import { cx } from "./control";

export type AlertTone = "error" | "warning" | "success" | "info";

const tones: Record<AlertTone, string> = {
  error: "border-red-300 bg-red-50 text-red-900",
  warning: "border-amber-300 bg-amber-50 text-amber-950",
  success: "border-green-300 bg-green-50 text-green-900",
  info: "border-brand-200 bg-brand-50 text-slate-900",
};

/**
 * A message in a box above a form or a list: an error is announced at once (role="alert"), the
 * other tones politely (role="status"). Nothing is rendered without a message, so a form can always
 * place it: `<Alert>{failure?.message}</Alert>`.
 */
export function Alert({
  tone = "error",
  title,
  children,
  className,
  ...props
}: { tone?: AlertTone; title?: ReactNode } & Omit<ComponentProps<"div">, "title" | "role">) {
  if (children == null || children === false || children === "") return null;
  return (
    <div
      role={tone === "error" ? "alert" : "status"}
      className={cx("rounded-md border px-4 py-3 text-sm", tones[tone], className)}
      {...props}
    >
      {title ? <span className="font-semibold">{title} : </span> : null}
      {children}
    </div>
  );
}
