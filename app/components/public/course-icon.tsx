import type { ComponentProps } from "react";
import { Icon, type IconName } from "./icon";

/** The icons a course may name in the database; anything else shows an open book. */
const courseIcons = new Set<string>([
  "book-open",
  "brain",
  "chart-column",
  "code",
  "cpu",
  "megaphone",
  "shield",
  "sprout",
  "sun",
  "truck",
  "wrench",
] satisfies IconName[]);

export function CourseIcon({ name, ...props }: { name: string } & Omit<ComponentProps<typeof Icon>, "name">) {
  return <Icon name={courseIcons.has(name) ? (name as IconName) : "book-open"} {...props} />;
}
