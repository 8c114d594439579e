/// <reference lib="webworker" />
import { ExpirationPlugin } from "workbox-expiration";
import { cleanupOutdatedCaches, matchPrecache, precacheAndRoute } from "workbox-precaching";
import { registerRoute, setCatchHandler } from "workbox-routing";
import { CacheFirst } from "workbox-strategies";

/**
 * Campus's service worker (issue 13), built with Workbox at `npm run build` (vite.config.ts,
 * serviceWorker plugin) into build/client/sw.js:
 * - precached: the app shell (stylesheets, the framework and entry scripts), the icons and the
 *   French offline page, so that the app opens and says so without a network;
 * - hashed assets (/assets/*, never changing content) kept as they are used;
 * - a page that cannot load (offline) shows the offline page.
 * Nothing personal is cached here: signing out also clears every cache (Clear-Site-Data, and the
 * sign-out form itself), so nothing of one learner is ever shown to the next on a shared phone.
 */
declare const self: ServiceWorkerGlobalScope;
declare const __CAMPUS_PRECACHE__: { url: string; revision: string | null }[];

export const OFFLINE_PAGE = "/hors-ligne.html";

self.skipWaiting();
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

cleanupOutdatedCaches();
precacheAndRoute(__CAMPUS_PRECACHE__);

registerRoute(
  ({ url, request }) => url.origin === self.location.origin && url.pathname.startsWith("/assets/") && request.method === "GET",
  new CacheFirst({
    cacheName: "campus-assets",
    plugins: [new ExpirationPlugin({ maxEntries: 120, maxAgeSeconds: 60 * 60 * 24 * 60, purgeOnQuotaError: true })],
  }),
);

// Pages go to the network as usual; when it is not there, the offline page answers.
setCatchHandler(async ({ request }) => {
  if (request.mode === "navigate") return (await matchPrecache(OFFLINE_PAGE)) ?? Response.error();
  return Response.error();
});
registerRoute(
  ({ request }) => request.mode === "navigate",
  async ({ request }) => fetch(request),
);
