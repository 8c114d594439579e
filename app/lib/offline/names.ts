/**
 * Names the pages and the service worker (app/sw/service-worker.ts) share for lessons stored
 * offline: one cache per learner, "campus-hors-ligne-<user id>". No imports: the service worker
 * is built on its own.
 */
export const OFFLINE_CACHE_PREFIX = "campus-hors-ligne-";
