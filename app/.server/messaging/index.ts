/**
 * Messaging (/dashboard/messages, /teacher/messages): direct conversations between two people and
 * one group per course (its teacher and active learners). Who may write to whom is ./policy.ts;
 * every function takes the acting person, and a conversation they may not read is "not found".
 * Each message is published to the conversation's live topic on commit; a member who is offline
 * gets one notification per conversation until they read it (and, after ten minutes unread, an
 * e-mail as they chose).
 */

export { MESSAGE_RATE_LIMIT, type Person } from "./shared";
export * from "./read";
export * from "./write";
export { messagingTopicRules } from "./live";
