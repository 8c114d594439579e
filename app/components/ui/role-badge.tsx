import type { ComponentProps } from "react";
import { roleLabels, type Role } from "~/lib/roles";
import { Badge, type BadgeTone } from "./badge";

/** The specification's role colours: red for administrators, blue for teachers, green for students. */
export const roleTones: Record<Role, BadgeTone> = { admin: "red", teacher: "blue", user: "green" };

/** "Administrateur", "Enseignant" or "Étudiant", in its colour. */
export function RoleBadge({ role, ...props }: { role: Role } & Omit<ComponentProps<typeof Badge>, "tone" | "children">) {
  return (
    <Badge tone={roleTones[role]} {...props}>
      {roleLabels[role]}
    </Badge>
  );
}
