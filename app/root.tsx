import { Links, Meta, Outlet, Scripts, ScrollRestoration, isRouteErrorResponse } from "react-router";
import type { Route } from "./+types/root";
import appStylesheet from "./app.css?url";
import publicStylesheet from "./public.css?url";
import progressiveScript from "./enhance/progressive.ts?worker&url";
import learnerScript from "./enhance/learner.ts?worker&url";
import { usePageKind } from "./components/page-kind";

export type { PageHandle } from "./components/page-kind";

export function Layout({ children }: { children: React.ReactNode }) {
  // Public pages load public.css (their classes only), the rest app.css (every class). React
  // hoists the <link> (precedence) and, on a client-side navigation to the other kind of page,
  // waits for the new sheet before showing it; both then stay (same rules). docs/decisions/0009.
  // A public page can ask for the full sheet (handle.stylesheet = "app": the checkout, the lesson
  // preview), so that the first pages of a visit keep the lightest one.
  const { isPublic, hydrate, scripts } = usePageKind();
  // The same public pages are not hydrated: they are complete HTML, links and forms work without
  // JavaScript, and React with its data would be ≈ 100 KB for a phone to download and run. A
  // small script adds what JavaScript improves there (app/enhance/progressive.ts); the signed-in
  // app and the public pages on the full sheet keep React. docs/decisions/0024-public-pages-without-react.md.
  // The learner's space (/dashboard, /auth) is rendered the same way since issue 39: its routes say
  // `hydrate: false`, and it loads app/enhance/learner.ts and the page's own scripts instead.
  const pageScripts = hydrate || isPublic ? [] : [learnerScript, ...scripts];

  return (
    <html lang="fr">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#1e40af" />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        <link rel="manifest" href="/manifest.webmanifest" />
        <link rel="apple-touch-icon" href="/icon-192.png" />
        <link rel="stylesheet" href={isPublic ? publicStylesheet : appStylesheet} precedence="default" />
        <Meta />
        <Links />
      </head>
      <body className="min-h-screen bg-white font-sans text-slate-900 antialiased">
        {children}
        {isPublic ? <script type="module" src={progressiveScript} /> : null}
        {pageScripts.map((src) => (
          <script key={src} type="module" src={src} />
        ))}
        {hydrate ? (
          <>
            <ScrollRestoration />
            <Scripts />
          </>
        ) : null}
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const status = isRouteErrorResponse(error) ? error.status : 500;
  // What the server answered (app/.server/http/route-errors.ts): a French message, and for an
  // unexpected error the request id the server log names. Never an error's own text or stack.
  const payload =
    isRouteErrorResponse(error) && error.data && typeof error.data === "object" ? (error.data as Record<string, unknown>) : {};
  const message = typeof payload.message === "string" ? payload.message : null;
  const requestId = typeof payload.requestId === "string" && payload.requestId ? payload.requestId : null;
  return (
    <main className="mx-auto flex min-h-screen max-w-xl flex-col items-center justify-center gap-4 p-6 text-center">
      <title>{status === 404 ? "Page introuvable" : "Erreur"}</title>
      <p className="text-6xl font-bold text-brand-700">{status}</p>
      <h1 className="text-2xl font-semibold">{status === 404 ? "Oups ! Page introuvable" : "Une erreur est survenue"}</h1>
      <p className="text-slate-600">
        {message ??
          (status === 404
            ? "La page que vous cherchez n'existe pas ou a été déplacée."
            : "Nous n'avons pas pu afficher cette page. Réessayez dans un instant.")}
      </p>
      {requestId && status >= 500 ? (
        <p className="text-sm text-slate-600">
          Si le problème continue, donnez cette référence à l'institut : <span className="font-mono font-semibold">{requestId}</span>
        </p>
      ) : null}
      <a href="/" className="rounded-md bg-brand-700 px-4 py-2 font-medium text-white hover:bg-brand-800">
        Retour à l'accueil
      </a>
    </main>
  );
}
