import { formatWeekdayDateTime } from "./dates";
import { formatMinutes } from "./format";

/**
 * Live sessions, browser-safe: the form's choices and limits, shared by the teacher's form and the
 * server's schema.
 */

export const sessionDurations = [30, 45, 60, 90, 120, 150, 180] as const;
export const DEFAULT_SESSION_MINUTES = 60;

export const sessionRooms = ["link", "bigbluebutton"] as const;
export type SessionRoom = (typeof sessionRooms)[number];

export const sessionRoomLabels: Record<SessionRoom, string> = {
  link: "Lien de ma salle (Zoom, Google Meet, Jitsi…)",
  bigbluebutton: "Salle BigBlueButton créée par la plateforme",
};

/** The form's fields, as the page keeps them when the server refuses. */
export interface SessionFormValues {
  courseId: string;
  title: string;
  description: string;
  startsAt: string;
  durationMinutes: string;
  room: SessionRoom;
  joinUrl: string;
  recordingUrl: string;
}

/** A learner's session as the pages show it (the texts written on the server). */
export function learnerSessionView(session: {
  id: number;
  title: string;
  courseTitle: string;
  startsAt: Date;
  durationMinutes: number;
  registered: boolean;
  joinOpen: boolean;
}) {
  return {
    id: session.id,
    title: session.title,
    courseTitle: session.courseTitle,
    when: formatWeekdayDateTime(session.startsAt),
    duration: formatMinutes(session.durationMinutes),
    registered: session.registered,
    joinOpen: session.joinOpen,
  };
}

/** Told to the teacher who plans (or moves) a session less than an hour ahead. */
export const SHORT_NOTICE_REMINDER =
  "Elle commence dans moins d'une heure : le rappel « dans une heure » part dès maintenant aux apprenants inscrits, et à chaque nouvelle inscription.";
