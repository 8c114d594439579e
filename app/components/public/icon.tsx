import type { SVGProps } from "react";
import type { IconName } from "./icons/names";
import spriteHref from "./icons/sprite.svg?no-inline";

export type { IconName };

/**
 * A lucide icon drawn from the public sprite (one cached file, see icons/generate.ts): the page
 * carries `<use href="…#name">` instead of the paths, and no icon code ships in the JavaScript.
 * Same attributes as lucide's own <svg>, so the look (stroke, size classes, fill-*) is unchanged.
 * Decorative by default (aria-hidden); pass aria-hidden={false} and a title/label otherwise.
 */
export function Icon({ name, strokeWidth = 2, ...props }: { name: IconName } & Omit<SVGProps<SVGSVGElement>, "name">) {
  return (
    <svg
      width="24"
      height="24"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={strokeWidth}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      {...props}
    >
      <use href={`${spriteHref}#${name}`} />
    </svg>
  );
}
