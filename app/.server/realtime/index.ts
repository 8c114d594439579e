/**
 * Realtime, a platform service: capabilities publish (./publish.ts) inside their transactions;
 * the WebSocket server (./server.ts) delivers to the browsers allowed to hear; presence
 * (./presence.ts) says who is online in any process.
 */
export { conversationTopic, presenceTopic, publish, threadTopic, userTopic, type RealtimeEvent, type Topic } from "./publish";
export { onlineUserIds, sweepPresence } from "./presence";
export { createRealtimeServer, type RealtimeServer, type TopicRule } from "./server";
