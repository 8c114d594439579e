import { SpriteIcon, type IconProps } from "../icons";
import type { IconName } from "../icons/names";
import spriteHref from "../icons/public-sprite.svg?no-inline";

export type { IconName };

/**
 * A lucide icon drawn from the public sprite (one cached file, see ../icons/generate.ts): the page
 * carries `<use href="…#name">` instead of the paths, and no icon code ships in the JavaScript.
 */
export function Icon({ name, ...props }: { name: IconName } & IconProps) {
  return <SpriteIcon href={`${spriteHref}#${name}`} {...props} />;
}
