/** The filter of the newsletter's subscribers list (browser-safe: the screen and the server share it). */
export const SUBSCRIBER_FILTERS = ["actifs", "en-attente", "desinscrits", "tous"] as const;
export type SubscriberFilter = (typeof SUBSCRIBER_FILTERS)[number];

export const subscriberFilterLabels: Record<SubscriberFilter, string> = {
  actifs: "Abonnés confirmés",
  "en-attente": "En attente de confirmation",
  desinscrits: "Désinscrits",
  tous: "Tous",
};
