import type { ComponentProps } from "react";
import { Popover as PopoverPrimitive } from "radix-ui";
import { cx } from "./control";

export const Popover = PopoverPrimitive.Root;
export const PopoverTrigger = PopoverPrimitive.Trigger;
export const PopoverClose = PopoverPrimitive.Close;

export function PopoverContent({ className, sideOffset = 8, align = "end", ...props }: ComponentProps<typeof PopoverPrimitive.Content>) {
  return (
    <PopoverPrimitive.Portal>
      <PopoverPrimitive.Content
        sideOffset={sideOffset}
        align={align}
        collisionPadding={8}
        className={cx("z-50 rounded-md border border-slate-200 bg-white shadow-lg focus:outline-none", className)}
        {...props}
      />
    </PopoverPrimitive.Portal>
  );
}
