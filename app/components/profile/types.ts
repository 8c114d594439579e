import type { ToastMessage } from "~/components/ui/toaster";

export const profileTabs = [
  { value: "general", label: "Général" },
  { value: "securite", label: "Sécurité" },
  { value: "activite", label: "Activité" },
] as const;
export type ProfileTab = (typeof profileTabs)[number]["value"];

export type FieldErrors = Partial<Record<string, string>>;

/** What the profile page's action answers (each form reads the part with its intent). */
export type ProfileActionData =
  | {
      intent: "profile";
      errors: FieldErrors;
      values: { firstName: string; lastName: string; phone: string };
      toast?: ToastMessage;
    }
  | { intent: "password"; errors: FieldErrors; toast?: ToastMessage }
  | { intent: "2fa-enable"; errors: FieldErrors; toast?: ToastMessage }
  | { intent: "2fa-setup"; totpURI: string; secret: string; qrSvg: string; errors: FieldErrors; toast?: ToastMessage }
  | { intent: "2fa-enabled"; backupCodes: string[]; toast?: ToastMessage }
  | { intent: "2fa-disable"; errors: FieldErrors; toast?: ToastMessage };

export interface ProfileView {
  email: string;
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
