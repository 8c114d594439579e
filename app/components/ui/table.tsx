import type { ComponentProps } from "react";
import { cx } from "./control";

/** A native table in a horizontally scrollable, focusable region (keyboard users can scroll it). */
export function Table({ className, label, ...props }: ComponentProps<"table"> & { label?: string }) {
  return (
    <div
      className="relative w-full overflow-x-auto"
      role={label ? "region" : undefined}
      aria-label={label}
      tabIndex={label ? 0 : undefined}
    >
      <table className={cx("w-full caption-bottom border-collapse text-left text-sm", className)} {...props} />
    </div>
  );
}

export function TableHeader({ className, ...props }: ComponentProps<"thead">) {
  return <thead className={cx("bg-slate-50 text-slate-700", className)} {...props} />;
}

export function TableBody({ className, ...props }: ComponentProps<"tbody">) {
  return <tbody className={cx("divide-y divide-slate-200", className)} {...props} />;
}

export function TableRow({ className, ...props }: ComponentProps<"tr">) {
  return <tr className={cx("align-middle", className)} {...props} />;
}

export function TableHead({ className, scope = "col", ...props }: ComponentProps<"th">) {
  return <th scope={scope} className={cx("px-3 py-2 font-semibold whitespace-nowrap", className)} {...props} />;
}

export function TableCell({ className, ...props }: ComponentProps<"td">) {
  return <td className={cx("px-3 py-2", className)} {...props} />;
}

export function TableCaption({ className, ...props }: ComponentProps<"caption">) {
  return <caption className={cx("mt-3 text-sm text-slate-600", className)} {...props} />;
}
