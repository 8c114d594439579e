/**
 * The kinds of notification (browser-safe: the bell and the profile's preferences read them).
 * Each says whether it also goes by e-mail: "always" (money and account security: the person must
 * know), "never" (the cause already sends its own mail, such as the payment receipt), or
 * "optional" with a default that each person may change in their profile.
 */
export type EmailPolicy = { email: "always" } | { email: "never" } | { email: "optional"; byDefault: boolean };

export type NotificationKindInfo = EmailPolicy & {
  /** The preference's label ("Recevoir aussi par e-mail : …"). */
  label: string;
  /** The bell's icon (a lucide name the bell maps). */
  icon: "payment" | "certificate" | "lesson" | "forum" | "message" | "session" | "account";
};

export const notificationKinds = {
  payment_confirmed: { label: "Paiement confirmé", icon: "payment", email: "never" },
  payment_refunded: { label: "Remboursement d'un paiement", icon: "payment", email: "always" },
  certificate_issued: { label: "Certificat obtenu", icon: "certificate", email: "optional", byDefault: true },
  certificate_revoked: { label: "Certificat révoqué par l'institut", icon: "certificate", email: "always" },
  lessons_added: { label: "Nouvelles leçons dans une de mes formations", icon: "lesson", email: "optional", byDefault: true },
  quiz_attempt_granted: { label: "Nouvelle tentative ouverte à un quiz", icon: "certificate", email: "optional", byDefault: true },
  forum_reply: { label: "Réponse à un de mes sujets du forum", icon: "forum", email: "optional", byDefault: false },
  message_received: { label: "Message resté non lu (après le délai choisi)", icon: "message", email: "optional", byDefault: true },
  session_scheduled: { label: "Session en direct programmée ou annulée", icon: "session", email: "optional", byDefault: true },
  session_starting: { label: "Session en direct qui commence bientôt", icon: "session", email: "optional", byDefault: true },
  enrolment_changed: { label: "Inscription ouverte, suspendue ou annulée par l'institut", icon: "account", email: "always" },
  commission_paid: { label: "Paiement de mes commissions", icon: "payment", email: "always" },
  account_changed: { label: "Modification de mon compte", icon: "account", email: "always" },
} as const satisfies Record<string, NotificationKindInfo>;

export type NotificationKind = keyof typeof notificationKinds;

export function isNotificationKind(value: unknown): value is NotificationKind {
  return typeof value === "string" && Object.hasOwn(notificationKinds, value);
}

/** The kinds a person may switch on or off by e-mail (the profile's list). */
export const optionalEmailKinds = (Object.keys(notificationKinds) as NotificationKind[]).filter(
  (kind) => notificationKinds[kind].email === "optional",
);

/** Whether a notification of `kind` goes by e-mail, given the person's own choice (undefined: none made). */
export function emailWanted(kind: NotificationKind, choice: boolean | undefined): boolean {
  const info: NotificationKindInfo = notificationKinds[kind];
  if (info.email === "optional") return choice ?? info.byDefault;
  return info.email === "always";
}
