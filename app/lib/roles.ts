/** Account roles, stored on the user row. Browser-safe (no server imports). */
export const roles = ["admin", "teacher", "user"] as const;
export type Role = (typeof roles)[number];

export const roleLabels: Record<Role, string> = {
  admin: "Administrateur",
  teacher: "Enseignant",
  user: "Étudiant",
};

/** The user list's role filter and each role's word in the URL (?role=enseignants). */
export const roleWords = { all: "tous", admin: "administrateurs", teacher: "enseignants", user: "etudiants" } as const;

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (roles as readonly string[]).includes(value);
}

/** Teachers' screens are open to teachers and administrators. */
export function canTeach(role: Role | null | undefined): boolean {
  return role === "teacher" || role === "admin";
}

export function isAdmin(role: Role | null | undefined): boolean {
  return role === "admin";
}

/** Where each role lands after signing in (unless the sign-in was asked for by another page). */
export function homeOf(role: Role | null | undefined): string {
  if (role === "admin") return "/admin";
  if (role === "teacher") return "/teacher";
  return "/dashboard";
}
