/**
 * Live sessions: a course's sessions scheduled by its teacher (a pasted link, or a BigBlueButton
 * meeting), announced to its learners, reminded 24 h and 1 h before (a queue of the jobs service:
 * once, never after a cancellation), joined inside the window and attended; calendars (.ics per
 * session, a private feed per person). Owns the live_sessions, live_session_registrations,
 * live_session_attendance and calendar_feeds tables. Rules: policy.ts.
 */
export { calendarFeedIcs, getCalendarFeedToken, revokeCalendarFeed, sessionIcs } from "./calendar";
export * from "./policy";
export { bigBlueButtonFrom, createBigBlueButton, type BigBlueButton } from "./providers";
export { joinSession, refreshRecording, setSessionRegistration } from "./attend";
export { liveRoomsFrom, sessionFormSchema, type LiveRooms, type LiveSession } from "./common";
export { cancelSession, scheduleSession, updateSession } from "./plan";
export {
  getManagedSession,
  listLearnerSessions,
  listManagedSessions,
  listSessionCourses,
  type LearnerSession,
  type ManagedSession,
} from "./read";
export { REMINDER_OFFSETS, remindsAtOnce, sendSessionReminder, SESSION_REMINDER_QUEUE, type SessionReminderJob } from "./reminders";
