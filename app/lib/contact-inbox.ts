/** The contact inbox's states and filters, for the screen and the server (browser-safe). */

export const CONTACT_STATUSES = ["new", "answered", "archived"] as const;
export type ContactStatus = (typeof CONTACT_STATUSES)[number];

export const contactStatusLabels: Record<ContactStatus, string> = {
  new: "Nouveau",
  answered: "Répondu",
  archived: "Archivé",
};

/** The inbox's filter: "ouverts" (new and answered, the default), one state, or everything; each with its word in the URL. */
export const inboxFilterWords = {
  ouverts: "ouverts",
  new: "nouveaux",
  answered: "repondus",
  archived: "archives",
  tous: "tous",
} as const;
export type InboxFilter = keyof typeof inboxFilterWords;
export const INBOX_FILTERS = Object.keys(inboxFilterWords) as InboxFilter[];

export const inboxFilterLabels: Record<InboxFilter, string> = {
  ouverts: "Non archivés",
  new: "Nouveaux",
  answered: "Répondus",
  archived: "Archivés",
  tous: "Tous",
};

/** The badge colour of each state (app/components/ui/badge tones). */
export const contactStatusTones = { new: "amber", answered: "green", archived: "neutral" } as const satisfies Record<ContactStatus, string>;
