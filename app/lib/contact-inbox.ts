/** The contact inbox's states and filters, for the screen and the server (browser-safe). */

export const CONTACT_STATUSES = ["new", "answered", "archived"] as const;
export type ContactStatus = (typeof CONTACT_STATUSES)[number];

export const contactStatusLabels: Record<ContactStatus, string> = {
  new: "Nouveau",
  answered: "Répondu",
  archived: "Archivé",
};

/** The inbox's filter: "ouverts" (new and answered, the default), one state, or everything. */
export const INBOX_FILTERS = ["ouverts", "new", "answered", "archived", "tous"] as const;
export type InboxFilter = (typeof INBOX_FILTERS)[number];

export const inboxFilterLabels: Record<InboxFilter, string> = {
  ouverts: "Non archivés",
  new: "Nouveaux",
  answered: "Répondus",
  archived: "Archivés",
  tous: "Tous",
};

/** The badge colour of each state (app/components/ui/badge tones). */
export const contactStatusTones = { new: "amber", answered: "green", archived: "neutral" } as const satisfies Record<ContactStatus, string>;
