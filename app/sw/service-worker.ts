/// <reference lib="webworker" />
import { ExpirationPlugin } from "workbox-expiration";
import { cleanupOutdatedCaches, matchPrecache, precacheAndRoute } from "workbox-precaching";
import { createPartialResponse } from "workbox-range-requests";
import { registerRoute, setCatchHandler } from "workbox-routing";
import { CacheFirst } from "workbox-strategies";
import { OFFLINE_CACHE_PREFIX } from "../lib/offline/names";

/**
 * Campus's service worker (issue 13), built with Workbox at `npm run build` (vite.config.ts,
 * serviceWorker plugin) into build/client/sw.js:
 * - precached: the app shell (stylesheets, the framework and entry scripts), the icons and the
 *   French offline page, so that the app opens and says so without a network;
 * - hashed assets (/assets/*, never changing content) kept as they are used;
 * - lessons the learner downloaded ("Télécharger pour hors ligne", app/lib/offline/store.ts, in
 *   their own cache "campus-hors-ligne-<id>"): pages and their data answer from there when the
 *   network is not, videos and documents answer from there first (seekable: Range requests);
 * - any other page that cannot load (offline) shows the offline page.
 * Signing out clears every cache (Clear-Site-Data), so nothing of one learner is ever shown to the
 * next on a shared phone.
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

/** A downloaded lesson's page, data, video or document, from the learner's offline cache. */
async function matchDownloaded(request: Request | string, ignoreSearch = false): Promise<Response | undefined> {
  for (const name of await caches.keys()) {
    if (!name.startsWith(OFFLINE_CACHE_PREFIX)) continue;
    const found = await (await caches.open(name)).match(request, { ignoreSearch, ignoreVary: true });
    if (found) return found;
  }
  return undefined;
}

/**
 * A stored whole file answering a request: as it is, or, for a Range request (how a <video> reads
 * and seeks), the asked bytes as a 206 (416 when they lie outside it) by workbox-range-requests.
 */
function withRange(request: Request, response: Response): Promise<Response> | Response {
  return request.headers.has("range") ? createPartialResponse(request, response) : response;
}

// Files (/fichiers/*): a downloaded video or document from the phone first (no data spent), else
// the network; without a network, another stored version of the same video will do.
registerRoute(
  ({ url }) => url.origin === self.location.origin && url.pathname.startsWith("/fichiers/"),
  async ({ request }) => {
    const stored = await matchDownloaded(request.url);
    if (stored) return withRange(request, stored);
    try {
      return await fetch(request);
    } catch (error) {
      const other = await matchDownloaded(request.url, true);
      if (other) return withRange(request, other);
      throw error;
    }
  },
);

// A page's data for an in-app navigation (React Router's "/path.data"): the network, else the
// downloaded copy (whatever the query: it holds every route's data).
registerRoute(
  ({ url, request }) => url.origin === self.location.origin && url.pathname.endsWith(".data") && request.method === "GET",
  async ({ request }) => {
    try {
      return await fetch(request);
    } catch (error) {
      const stored = await matchDownloaded(new URL(request.url).pathname);
      if (stored) return stored;
      throw error;
    }
  },
);

// Pages go to the network as usual; when it is not there, a downloaded copy answers (whatever the
// query, such as ?qualite=), or the offline page.
setCatchHandler(async ({ request }) => {
  if (request.mode === "navigate") return (await matchPrecache(OFFLINE_PAGE)) ?? Response.error();
  return Response.error();
});
registerRoute(
  ({ request }) => request.mode === "navigate",
  async ({ request }) => {
    try {
      return await fetch(request);
    } catch (error) {
      const stored = await matchDownloaded(new URL(request.url).pathname);
      if (stored) return stored;
      throw error;
    }
  },
);
