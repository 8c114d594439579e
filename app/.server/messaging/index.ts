/**
 * Messaging (/dashboard/messages, /teacher/messages): direct conversations between two people and
 * one group per course (its teacher and active learners). Who may write to whom is ./policy.ts;
 * every function takes the acting person, and a conversation they may not read is "not found".
 * Each message is published to the conversation's live topic and its recipients' own topics on
 * commit (the sidebar's unread badge and a toast); still unread after the delay a recipient chose,
 * one notification and its e-mail per burst (./notices.ts).
 */

export { MESSAGE_RATE_LIMIT, type Person } from "./shared";
export * from "./read";
export * from "./write";
export { messagingTopicRules } from "./live";
export { getMessageNoticeDelay, MESSAGE_NOTICE_QUEUE, sendMessageNotice, setMessageNoticeDelay, type MessageNoticeJob } from "./notices";
export { countUnreadMessages, latestUnreadMessage, type MessageAlert } from "./unread";
