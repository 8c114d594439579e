import type { ToastMessage } from "~/components/ui/toaster";
import type { FormFailure } from "~/lib/form-result";

export const profileTabs = [
  { value: "general", label: "Général" },
  { value: "securite", label: "Sécurité" },
  { value: "activite", label: "Activité" },
  { value: "notifications", label: "Notifications" },
  { value: "donnees", label: "Mes données" },
] as const;
export type ProfileTab = (typeof profileTabs)[number]["value"];

/** A two-factor set-up in progress (the secret to scan or type). */
export type TwoFactorSetupView = { totpURI: string; secret: string; qrSvg: string };

export type ProfileValues = { firstName: string; lastName: string; phone: string };

/**
 * What the profile page's action answers when it stays on the page (each form reads the answer of
 * its own intent): a refusal (FormFailure), the set-up of two-factor sign-in (again with the
 * code's message when the code was wrong), or the backup codes once it is on.
 */
export type ProfileActionData =
  | FormFailure<ProfileValues>
  | { ok: true; intent: "2fa-setup"; setup: TwoFactorSetupView }
  | (FormFailure & { intent: "2fa-verify"; setup: TwoFactorSetupView })
  | { ok: true; intent: "2fa-enabled"; backupCodes: string[]; toast: ToastMessage };

export interface ProfileView {
  email: string;
  dataSaver: boolean;
  firstName: string;
  lastName: string;
  phone: string | null;
  memberSince: string;
}

export interface SessionView {
  id: string;
  device: string;
  kind: "mobile" | "desktop";
  ipAddress: string | null;
  lastUsed: string;
  lastUsedAt: string;
  lastUsedIso: string;
  createdAt: string;
  current: boolean;
}

export interface ActivityView {
  id: number;
  type: string;
  label: string;
  when: string;
  at: string;
  iso: string;
  detail: string | null;
}
