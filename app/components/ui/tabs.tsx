import type { ComponentProps, ReactNode } from "react";
import { Link } from "react-router";
import { Tabs as TabsPrimitive } from "radix-ui";
import { cx } from "./control";

// On a phone the tabs may wrap: each grows to fill its row, so no tab is left alone on half of one.
const listClasses = "inline-flex flex-wrap gap-1 rounded-lg bg-slate-100 p-1";
const triggerClasses =
  "inline-flex min-h-10 items-center justify-center gap-2 rounded-md px-4 py-2 text-sm font-medium text-slate-700 " +
  "transition-colors hover:text-slate-900 focus-visible:outline-3 focus-visible:outline-offset-2 " +
  "focus-visible:outline-accent-500";
const activeClasses = "bg-white text-slate-900 shadow-sm";

/** Radix tabs (client-side switching; every panel is rendered, so it also works without JS for reading). */
export function Tabs(props: ComponentProps<typeof TabsPrimitive.Root>) {
  return <TabsPrimitive.Root {...props} />;
}

export function TabsList({ className, ...props }: ComponentProps<typeof TabsPrimitive.List>) {
  return <TabsPrimitive.List className={cx(listClasses, className)} {...props} />;
}

export function TabsTrigger({ className, ...props }: ComponentProps<typeof TabsPrimitive.Trigger>) {
  return (
    <TabsPrimitive.Trigger
      className={cx(triggerClasses, "grow data-[state=active]:bg-white data-[state=active]:shadow-sm", className)}
      {...props}
    />
  );
}

export function TabsContent({ className, ...props }: ComponentProps<typeof TabsPrimitive.Content>) {
  return <TabsPrimitive.Content className={cx("mt-4 focus-visible:outline-3", className)} {...props} />;
}

/**
 * Tabs made of links (`?onglet=...`): each tab is a URL, so they work without JavaScript,
 * can be bookmarked, and the server renders only the selected panel.
 */
export function LinkTabs({
  label,
  items,
  current,
}: {
  label: string;
  items: ReadonlyArray<{ value: string; label: ReactNode; to: string }>;
  current: string;
}) {
  return (
    <nav aria-label={label}>
      <ul className={listClasses}>
        {items.map((item) => {
          const active = item.value === current;
          return (
            <li key={item.value} className="flex grow">
              <Link
                to={item.to}
                preventScrollReset
                aria-current={active ? "page" : undefined}
                className={cx(triggerClasses, "grow", active && activeClasses)}
              >
                {item.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
