import { Writable } from "node:stream";
import { renderToPipeableStream } from "react-dom/server";
import type { EntryContext, HandleDataRequestFunction, HandleErrorFunction, RouterContextProvider } from "react-router";
import { ServerRouter } from "react-router";
import { cspNonceContext, envContext, requestIdContext } from "~/.server/context";

// React Router's default Node entry, with three changes: the CSP nonce reaches every inline script
// (<ServerRouter nonce> is the default for <Scripts>, <ScrollRestoration> and <Links>; React's
// own scripts get it from renderToPipeableStream); documents get a default Cache-Control when
// their route did not set one (docs/decisions/0005-csp-nonce-and-caching.md); and the whole page
// is rendered before it is sent, as one buffer. No page streams (no Suspense, no deferred data),
// and React's stream of small chunks cost more than the render itself downstream: compression
// flushed and wrote each chunk on its own (≈ 2-4 ms of CPU a page; one buffer: < 1 ms).

export const streamTimeout = 5_000;

/** HTML may later differ per visitor and carries a one-time nonce: never in shared caches. */
const DEFAULT_DOCUMENT_CACHE_CONTROL = "private, no-cache";

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  if (!responseHeaders.has("Cache-Control")) responseHeaders.set("Cache-Control", DEFAULT_DOCUMENT_CACHE_CONTROL);

  // https://httpwg.org/specs/rfc9110.html#HEAD
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }

  const nonce = loadContext.get(cspNonceContext) || undefined;

  return new Promise<Response>((resolve, reject) => {
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(() => abort(), streamTimeout + 1000);
    // Errors in the shell reject and are logged by React Router; log the others once rendered.
    const errors: unknown[] = [];

    const { pipe, abort } = renderToPipeableStream(<ServerRouter context={routerContext} url={request.url} nonce={nonce} />, {
      nonce,
      onAllReady() {
        for (const error of errors) console.error(error);
        const chunks: Buffer[] = [];
        const page = new Writable({
          write(chunk: Buffer, _encoding, callback) {
            chunks.push(chunk);
            callback();
          },
          final(callback) {
            clearTimeout(timeoutId);
            timeoutId = undefined;
            responseHeaders.set("Content-Type", "text/html; charset=utf-8");
            resolve(new Response(Buffer.concat(chunks), { headers: responseHeaders, status: responseStatusCode }));
            callback();
          },
        });
        pipe(page);
      },
      onShellError(error: unknown) {
        clearTimeout(timeoutId);
        reject(error);
      },
      onError(error: unknown) {
        responseStatusCode = 500;
        errors.push(error);
      },
    });
  });
}

/** Loader data fetched on client navigations: same default as documents. */
export const handleDataRequest: HandleDataRequestFunction = (response) => {
  if (!response.headers.has("Cache-Control")) response.headers.set("Cache-Control", DEFAULT_DOCUMENT_CACHE_CONTROL);
  return response;
};

/**
 * Errors React Router reports itself (a component that fails to render...): to the server log
 * with the request id. Loaders' and actions' errors are answered and logged by
 * app/.server/http/route-errors.ts; the client never receives any detail.
 */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted) return;
  let requestId = "";
  try {
    if (context.get(envContext).LOG_LEVEL === "silent") return;
    requestId = context.get(requestIdContext);
  } catch {
    // a context without the app's values (never in the app itself)
  }
  console.error(`[${requestId}] ${request.method} ${new URL(request.url).pathname}`, error);
};
