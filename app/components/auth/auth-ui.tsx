import type { ReactNode } from "react";
import { Form, useNavigation } from "react-router";
import { ArrowLeft } from "~/components/icons";
import { LogoMark } from "~/components/public/logo";
import { Button } from "~/components/ui/button";
import { cx } from "~/components/ui/control";

/** The frame of /auth: back-to-home button, logo, institute name, title, the card. */
export function AuthShell({
  instituteName,
  title,
  subtitle,
  children,
}: {
  instituteName: string;
  title: string;
  subtitle?: string;
  children: ReactNode;
}) {
  return (
    <main className="flex min-h-screen flex-col items-center bg-gradient-to-br from-brand-50 via-white to-brand-100 px-4 py-6 sm:py-10">
      <div className="w-full max-w-md">
        <a
          href="/"
          className="inline-flex min-h-11 items-center gap-2 rounded-md px-2 text-sm font-medium text-brand-700 hover:bg-brand-50 focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-accent-500"
        >
          <ArrowLeft className="size-4" aria-hidden="true" />
          Retour à l'accueil
        </a>
        <div className="mt-4 flex flex-col items-center text-center">
          <LogoMark className="size-14" />
          <p className="mt-3 text-sm font-semibold text-brand-800">{instituteName}</p>
          <h1 className="mt-2 text-2xl font-bold text-slate-900">{title}</h1>
          {subtitle && <p className="mt-1 text-slate-700">{subtitle}</p>}
        </div>
        <div className="mt-6 rounded-xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6">{children}</div>
      </div>
    </main>
  );
}

export type AuthTab = "connexion" | "inscription" | "recuperation";

const tabLabels: Record<AuthTab, string> = {
  connexion: "Connexion",
  inscription: "Inscription",
  recuperation: "Récupération",
};

/** The three tabs, as links (they work without JavaScript and keep redirectTo). */
export function AuthTabs({ current, hrefFor }: { current: AuthTab; hrefFor: (tab: AuthTab) => string }) {
  return (
    <nav aria-label="Choix du formulaire" className="mb-5 grid grid-cols-3 gap-1 rounded-lg bg-slate-100 p-1">
      {(Object.keys(tabLabels) as AuthTab[]).map((tab) => (
        <a
          key={tab}
          href={hrefFor(tab)}
          aria-current={tab === current ? "page" : undefined}
          className={cx(
            "flex min-h-11 items-center justify-center rounded-md px-1 text-sm font-medium focus-visible:outline-3 focus-visible:outline-offset-1 focus-visible:outline-accent-500",
            tab === current ? "bg-white text-brand-800 shadow-sm" : "text-slate-700 hover:bg-white/70",
          )}
        >
          {tabLabels[tab]}
        </a>
      ))}
    </nav>
  );
}

/** A message box: errors are announced at once (role=alert), successes politely (role=status). */
export function Notice({ tone, children, id }: { tone: "error" | "success" | "info"; children: ReactNode; id?: string }) {
  return (
    <div
      id={id}
      role={tone === "error" ? "alert" : "status"}
      className={cx(
        "mb-4 rounded-md border px-3 py-2 text-sm",
        tone === "error" && "border-red-300 bg-red-50 text-red-800",
        tone === "success" && "border-green-300 bg-green-50 text-green-800",
        tone === "info" && "border-brand-100 bg-brand-50 text-brand-800",
      )}
    >
      {children}
    </div>
  );
}

/**
 * A submit button that shows its loading label while its own form is being sent (with
 * JavaScript; without it the browser's own loading indicator does the job).
 */
export function SubmitButton({
  intent,
  label,
  pendingLabel,
  variant = "primary",
  className,
}: {
  intent: string;
  label: string;
  pendingLabel: string;
  variant?: "primary" | "outline" | "ghost";
  className?: string;
}) {
  const navigation = useNavigation();
  const pending = navigation.state !== "idle" && navigation.formData?.get("intent") === intent;
  return (
    <Button
      type="submit"
      name="intent"
      value={intent}
      variant={variant}
      disabled={pending}
      aria-disabled={pending || undefined}
      className={cx("w-full", className)}
    >
      {pending ? pendingLabel : label}
    </Button>
  );
}

function GoogleMark() {
  return (
    <svg viewBox="0 0 24 24" className="size-5" aria-hidden="true" focusable="false">
      <path
        fill="#4285F4"
        d="M22.56 12.25c0-.78-.07-1.53-.2-2.25H12v4.26h5.92a5.06 5.06 0 0 1-2.2 3.32v2.77h3.57c2.08-1.92 3.27-4.74 3.27-8.1z"
      />
      <path
        fill="#34A853"
        d="M12 23c2.97 0 5.46-.98 7.28-2.66l-3.57-2.77c-.98.66-2.23 1.06-3.71 1.06-2.86 0-5.29-1.93-6.16-4.53H2.18v2.84A11 11 0 0 0 12 23z"
      />
      <path fill="#FBBC05" d="M5.84 14.09a6.6 6.6 0 0 1 0-4.18V7.07H2.18a11 11 0 0 0 0 9.86l3.66-2.84z" />
      <path
        fill="#EA4335"
        d="M12 5.38c1.62 0 3.06.56 4.21 1.64l3.15-3.15C17.45 2.09 14.97 1 12 1A11 11 0 0 0 2.18 7.07l3.66 2.84C6.71 7.31 9.14 5.38 12 5.38z"
      />
    </svg>
  );
}

/** "Continuer avec Google" / "S'inscrire avec Google": a form posting to the /auth action. */
export function GoogleButton({ label, redirectTo, signUp }: { label: string; redirectTo: string; signUp: boolean }) {
  const navigation = useNavigation();
  const pending = navigation.state !== "idle" && navigation.formData?.get("intent") === "google";
  return (
    <Form method="post" action="/auth" className="mt-4">
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <input type="hidden" name="signUp" value={signUp ? "1" : "0"} />
      <Button
        type="submit"
        name="intent"
        value="google"
        variant="outline"
        disabled={pending}
        className="w-full border-slate-400 text-slate-800"
      >
        <GoogleMark />
        {pending ? "Redirection..." : label}
      </Button>
    </Form>
  );
}

export function OrSeparator() {
  return (
    <div className="mt-4 flex items-center gap-3 text-sm text-slate-600" aria-hidden="true">
      <span className="h-px flex-1 bg-slate-200" />
      ou
      <span className="h-px flex-1 bg-slate-200" />
    </div>
  );
}
