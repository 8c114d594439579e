import { cx } from "./control";

/** "Awa Traoré" → "AT"; falls back to the e-mail's first letter, then "?". */
export function initialsOf(firstName?: string | null, lastName?: string | null, email?: string | null): string {
  const first = firstName?.trim().charAt(0) ?? "";
  const last = lastName?.trim().charAt(0) ?? "";
  const initials = `${first}${last}`.toLocaleUpperCase("fr");
  if (initials) return initials;
  return email?.trim().charAt(0).toLocaleUpperCase("fr") || "?";
}

const sizes = {
  sm: "size-8 text-xs",
  md: "size-10 text-sm",
  lg: "size-16 text-xl",
} as const;

/**
 * A round avatar showing initials. No image loading (no uploaded pictures yet), so no radix
 * Avatar machinery is needed; the name is given to assistive technology by the caller's text,
 * so the avatar itself is decorative unless `label` is set.
 */
export function Avatar({
  firstName,
  lastName,
  email,
  size = "md",
  label,
  className,
}: {
  firstName?: string | null;
  lastName?: string | null;
  email?: string | null;
  size?: keyof typeof sizes;
  label?: string;
  className?: string;
}) {
  return (
    <span
      className={cx(
        "inline-flex shrink-0 items-center justify-center rounded-full bg-brand-700 font-semibold text-white select-none",
        sizes[size],
        className,
      )}
      role={label ? "img" : undefined}
      aria-label={label}
      aria-hidden={label ? undefined : true}
    >
      {initialsOf(firstName, lastName, email)}
    </span>
  );
}
