/**
 * The community forum (/dashboard/forum): threads in the specification's categories, with
 * replies, likes, #hashtags, moderation and reports. Every function takes the acting person;
 * what they may not see is "not found". Split by verb: reading, writing, moderation (and reports).
 */
export { FORUM_PAGE_SIZE, FORUM_RATE_LIMITS, REPLIES_PAGE_SIZE, type ForumAuthor } from "./shared";
export {
  forumOverview,
  forumTopicRules,
  getThread,
  listThreads,
  searchThreads,
  type ReplyView,
  type ThreadFilters,
  type ThreadSummary,
} from "./reading";
export { createThread, deleteReply, deleteThread, editReply, editThread, replyToThread, toggleLike } from "./writing";
export {
  countOpenReports,
  listOpenReports,
  moderateReply,
  moderateThread,
  reportPost,
  resolveReport,
  type ModerationAction,
} from "./moderation";
