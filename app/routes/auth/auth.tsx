import { useEffect } from "react";
import { data, Form, redirect, useNavigate, useNavigation } from "react-router";
import { z } from "zod";
import { requireAnonymous } from "~/.server/auth/guards";
import {
  findResetToken,
  requestPasswordReset,
  resendVerification,
  resetPassword,
  signIn,
  signUp,
  startGoogleSignIn,
  verifyTwoFactor,
} from "~/.server/auth/flows";
import { authMessages } from "~/components/auth/messages";
import { checkPassword, passwordContextWords } from "~/.server/auth/password";
import { cookieHeaders, safeRedirect } from "~/.server/auth/redirect";
import { getInstitute } from "~/.server/catalogue";
import { authContext, dbContext } from "~/.server/context";
import { AuthShell, AuthTabs, GoogleButton, Notice, OrSeparator, SubmitButton, type AuthTab } from "~/components/auth/auth-ui";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { passwordMessages, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "~/lib/password-policy";
import { fieldErrorsOf, type FieldErrors } from "~/lib/form-result";
import { homeOf } from "~/lib/roles";
import { emailSchema, firstNameSchema, lastNameSchema, passwordSchema, twoFactorCodeSchema } from "~/lib/schemas";
import type { Route } from "./+types/auth";

/** Messages a redirect may ask for with ?message=… (never free text from the URL). */
const flashMessages = {
  inscription: { tone: "success", text: authMessages.signUpSuccess },
  recuperation: { tone: "success", text: authMessages.resetSent },
  renvoi: { tone: "success", text: authMessages.verificationResent },
  deconnexion: { tone: "info", text: authMessages.signedOut },
  "verification-invalide": { tone: "error", text: authMessages.verificationLinkInvalid },
  "mot-de-passe": { tone: "success", text: `${authMessages.passwordUpdated} Connectez-vous avec votre nouveau mot de passe.` },
  "session-expiree": { tone: "error", text: authMessages.twoFactorExpired },
  appareil: { tone: "success", text: authMessages.deviceConfirmed },
} as const satisfies Record<string, { tone: "success" | "error" | "info"; text: string }>;

function tabFrom(value: string | null): AuthTab {
  return value === "inscription" || value === "recuperation" ? value : "connexion";
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const auth = context.get(authContext);
  const db = context.get(dbContext);
  const institute = await getInstitute(db);
  const redirectTo = safeRedirect(url.searchParams.get("redirectTo"));
  const base = {
    instituteName: institute.name,
    siteName: institute.shortName,
    redirectTo,
    // Whether a page asked for the sign-in; otherwise each role lands on its own home.
    askedRedirect: url.searchParams.has("redirectTo"),
    google: Boolean(auth.options.socialProviders?.google),
  };

  // Recovery mode: the link of the reset mail. Shown even to a signed-in visitor.
  if (url.searchParams.get("mode") === "recuperation") {
    const token = url.searchParams.get("token") ?? "";
    const valid = token ? await findResetToken(auth, token) : null;
    // The page depends on the token's state: never stored by a cache.
    return data(
      { ...base, view: "reset" as const, token: valid ? token : null, tab: "recuperation" as AuthTab, flash: null },
      { headers: { "Cache-Control": "no-store" } },
    );
  }

  await requireAnonymous({ request, context });

  const messageKey = url.searchParams.get("message");
  const flash = messageKey && messageKey in flashMessages ? flashMessages[messageKey as keyof typeof flashMessages] : null;
  const googleError = url.searchParams.get("erreur") === "google" || url.searchParams.has("error");
  const errorCode = (url.searchParams.get("error") ?? "").toLowerCase();
  const errorFlash = googleError
    ? {
        tone: "error" as const,
        text:
          errorCode.includes("deactivated") || errorCode.includes("banned")
            ? authMessages.deactivated
            : errorCode === "account_not_linked"
              ? `${authMessages.googleErrorPrefix}ce compte Google n'est pas relié à votre compte.`
              : authMessages.googleFailed,
      }
    : null;

  if (url.searchParams.get("etape") === "code") {
    return { ...base, view: "two_factor" as const, token: null, tab: "connexion" as AuthTab, flash: errorFlash ?? flash };
  }
  return { ...base, view: "tabs" as const, token: null, tab: tabFrom(url.searchParams.get("onglet")), flash: errorFlash ?? flash };
}

export function headers({ loaderHeaders, actionHeaders }: Route.HeadersArgs) {
  const cacheControl = actionHeaders.get("Cache-Control") ?? loaderHeaders.get("Cache-Control");
  return cacheControl ? { "Cache-Control": cacheControl } : new Headers();
}

export function meta({ loaderData }: Route.MetaArgs) {
  const site = loaderData?.siteName ?? "Campus";
  const title =
    loaderData?.view === "reset"
      ? "Nouveau mot de passe"
      : loaderData?.tab === "inscription"
        ? "Inscription"
        : loaderData?.tab === "recuperation"
          ? "Récupération du mot de passe"
          : "Connexion";
  return [
    { title: `${title} | ${site}` },
    { name: "description", content: "Connectez-vous ou créez votre compte pour suivre vos formations." },
    { name: "robots", content: "noindex" },
  ];
}

const signInSchema = z.object({ email: emailSchema, password: passwordSchema });

const signUpSchema = z.object({ firstName: firstNameSchema, lastName: lastNameSchema, email: emailSchema, password: passwordSchema });

const emailOnlySchema = z.object({ email: emailSchema });

const newPasswordSchema = z.object({
  token: z.string().min(1).max(200),
  password: passwordSchema,
  confirmPassword: z.string({ error: "Confirmez le mot de passe." }).min(1, "Confirmez le mot de passe."),
});

const twoFactorSchema = z.object({
  code: twoFactorCodeSchema,
  trustDevice: z.literal("on").optional(),
});

function statusFor(kind: string): number {
  switch (kind) {
    case "rate":
      return 429;
    case "invalid":
    case "two_factor":
      return 401;
    case "unverified":
    case "deactivated":
    case "confirm_device":
      return 403;
    case "taken":
      return 409;
    default:
      return 400;
  }
}

export async function action({ request, context }: Route.ActionArgs) {
  const auth = context.get(authContext);
  const db = context.get(dbContext);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  const values = Object.fromEntries([...form.entries()].filter(([, value]) => typeof value === "string")) as Record<string, string>;
  const redirectTo = safeRedirect(values.redirectTo);
  const headers = request.headers;
  // What was typed comes back into the form, passwords excepted.
  const kept = { email: values.email ?? "", firstName: values.firstName ?? "", lastName: values.lastName ?? "" };

  switch (intent) {
    case "signin": {
      const parsed = signInSchema.safeParse(values);
      if (!parsed.success)
        return data(
          { intent, error: null, fieldErrors: fieldErrorsOf(parsed.error), values: kept, unverifiedEmail: null },
          { status: 400 },
        );
      const result = await signIn(auth, headers, parsed.data);
      if (result.ok) {
        // No page asked for the sign-in: each role lands on its own home (a teacher /teacher, an admin /admin).
        const home = values.redirectTo ? redirectTo : homeOf(result.role);
        const next = result.twoFactor ? `/auth?etape=code&redirectTo=${encodeURIComponent(home)}` : home;
        throw redirect(next, { headers: cookieHeaders(result.setCookies) });
      }
      return data(
        {
          intent,
          error: result.message,
          fieldErrors: {},
          values: kept,
          unverifiedEmail: result.kind === "unverified" ? parsed.data.email : null,
        },
        { status: statusFor(result.kind) },
      );
    }
    case "signup": {
      const parsed = signUpSchema.safeParse(values);
      const fieldErrors: FieldErrors = parsed.success ? {} : fieldErrorsOf(parsed.error);
      if (parsed.success) {
        const reasons = checkPassword(parsed.data.password, { email: parsed.data.email, contextWords: await passwordContextWords(db) });
        if (reasons.length) fieldErrors.password = reasons.join(" ");
      }
      if (!parsed.success || Object.keys(fieldErrors).length) {
        return data({ intent, error: null, fieldErrors, values: kept, unverifiedEmail: null }, { status: 400 });
      }
      const result = await signUp(auth, db, headers, parsed.data, redirectTo);
      if (result.ok)
        throw redirect(`/auth?message=inscription${redirectTo !== "/dashboard" ? `&redirectTo=${encodeURIComponent(redirectTo)}` : ""}`);
      return data(
        {
          intent,
          error: result.fieldErrors ? null : result.message,
          fieldErrors: result.fieldErrors ?? {},
          values: kept,
          unverifiedEmail: null,
        },
        { status: statusFor(result.kind) },
      );
    }
    case "reset-request": {
      const parsed = emailOnlySchema.safeParse(values);
      if (!parsed.success)
        return data(
          { intent, error: null, fieldErrors: fieldErrorsOf(parsed.error), values: kept, unverifiedEmail: null },
          { status: 400 },
        );
      const result = await requestPasswordReset(auth, headers, parsed.data.email);
      if (result.ok) throw redirect("/auth?onglet=recuperation&message=recuperation");
      return data(
        { intent, error: result.message, fieldErrors: {}, values: kept, unverifiedEmail: null },
        { status: statusFor(result.kind) },
      );
    }
    case "resend": {
      const parsed = emailOnlySchema.safeParse(values);
      if (!parsed.success)
        return data(
          { intent: "signin", error: null, fieldErrors: fieldErrorsOf(parsed.error), values: kept, unverifiedEmail: null },
          { status: 400 },
        );
      const result = await resendVerification(auth, headers, parsed.data.email);
      if (result.ok) throw redirect("/auth?message=renvoi");
      return data(
        { intent: "signin", error: result.message, fieldErrors: {}, values: kept, unverifiedEmail: parsed.data.email },
        { status: statusFor(result.kind) },
      );
    }
    case "reset": {
      const parsed = newPasswordSchema.safeParse(values);
      const fieldErrors: FieldErrors = parsed.success ? {} : fieldErrorsOf(parsed.error);
      if (parsed.success) {
        if (parsed.data.password !== parsed.data.confirmPassword) fieldErrors.confirmPassword = passwordMessages.mismatch;
        const reasons = checkPassword(parsed.data.password, { contextWords: await passwordContextWords(db) });
        if (reasons.length) fieldErrors.password = reasons.join(" ");
      }
      if (!parsed.success || Object.keys(fieldErrors).length) {
        return data({ intent, error: null, fieldErrors, values: kept, unverifiedEmail: null, done: null }, { status: 400 });
      }
      const result = await resetPassword(auth, db, headers, { token: parsed.data.token, password: parsed.data.password });
      if (!result.ok) {
        return data(
          {
            intent,
            error: result.fieldErrors ? null : result.message,
            fieldErrors: result.fieldErrors ?? {},
            values: kept,
            unverifiedEmail: null,
            done: null,
            tokenInvalid: result.kind === "token",
          },
          { status: statusFor(result.kind) },
        );
      }
      const next = result.twoFactor ? "/auth?etape=code" : result.signedIn ? "/dashboard" : "/auth?message=mot-de-passe";
      return data(
        {
          intent,
          error: null,
          fieldErrors: {},
          values: kept,
          unverifiedEmail: null,
          done: { message: authMessages.passwordUpdated, next },
        },
        { headers: cookieHeaders(result.setCookies) },
      );
    }
    case "two-factor": {
      const parsed = twoFactorSchema.safeParse(values);
      if (!parsed.success)
        return data(
          { intent, error: null, fieldErrors: fieldErrorsOf(parsed.error), values: kept, unverifiedEmail: null },
          { status: 400 },
        );
      const result = await verifyTwoFactor(auth, headers, { code: parsed.data.code, trustDevice: parsed.data.trustDevice === "on" });
      if (result.ok) throw redirect(redirectTo, { headers: cookieHeaders(result.setCookies) });
      if (result.message === authMessages.twoFactorExpired) throw redirect("/auth?message=session-expiree");
      return data(
        { intent, error: result.message, fieldErrors: {}, values: kept, unverifiedEmail: null },
        { status: statusFor(result.kind) },
      );
    }
    case "google": {
      if (!auth.options.socialProviders?.google) throw redirect("/auth");
      const result = await startGoogleSignIn(auth, headers, { redirectTo, signUp: values.signUp === "1" });
      if (result.ok) throw redirect(result.url, { headers: cookieHeaders(result.setCookies) });
      return data(
        { intent, error: result.message, fieldErrors: {}, values: kept, unverifiedEmail: null },
        { status: statusFor(result.kind) },
      );
    }
    default:
      return data({ intent, error: "Action inconnue.", fieldErrors: {}, values: kept, unverifiedEmail: null }, { status: 400 });
  }
}

type ActionData = {
  intent: string;
  error: string | null;
  fieldErrors: FieldErrors;
  values: { email: string; firstName: string; lastName: string };
  unverifiedEmail: string | null;
  done?: { message: string; next: string } | null;
  tokenInvalid?: boolean;
};

export default function AuthPage({ loaderData, actionData }: Route.ComponentProps) {
  // The spec: error and success messages are cleared at the start of each action.
  const navigation = useNavigation();
  // (Not while re-sending the confirmation mail: its button sits inside the message.)
  const submitting = navigation.state === "submitting" && navigation.formData?.get("intent") !== "resend";
  const result = submitting ? undefined : (actionData as ActionData | undefined);
  const { view, tab, redirectTo, google, instituteName } = loaderData;
  const flash = submitting ? null : loaderData.flash;
  const keepRedirect = redirectTo !== "/dashboard" ? `redirectTo=${encodeURIComponent(redirectTo)}` : "";
  const hrefFor = (target: AuthTab) => {
    const query = [target === "connexion" ? "" : `onglet=${target}`, keepRedirect].filter(Boolean).join("&");
    return `/auth${query ? `?${query}` : ""}`;
  };
  const mine = (intent: string) => (result?.intent === intent ? result : undefined);

  if (view === "reset") {
    return (
      <AuthShell instituteName={instituteName} title="Nouveau mot de passe" subtitle="Choisissez le mot de passe de votre compte.">
        <ResetForm token={loaderData.token} result={mine("reset")} />
      </AuthShell>
    );
  }

  if (view === "two_factor") {
    const own = mine("two-factor");
    return (
      <AuthShell
        instituteName={instituteName}
        title="Vérification en deux étapes"
        subtitle="Saisissez le code de votre application d'authentification."
      >
        {flash && <Notice tone={flash.tone}>{flash.text}</Notice>}
        {own?.error && <Notice tone="error">{own.error}</Notice>}
        <Form method="post" noValidate className="space-y-4">
          <input type="hidden" name="redirectTo" value={redirectTo} />
          <Field label="Code de vérification" name="code" required error={own?.fieldErrors.code} hint="6 chiffres, ou un code de secours.">
            {(props) => <Input {...props} inputMode="text" autoComplete="one-time-code" autoFocus maxLength={20} />}
          </Field>
          <label className="flex min-h-11 items-center gap-2 text-sm text-slate-800">
            <input type="checkbox" name="trustDevice" className="size-5 accent-brand-700" />
            Faire confiance à cet appareil pendant 30 jours
          </label>
          <SubmitButton intent="two-factor" label="Vérifier" pendingLabel="Vérification..." />
        </Form>
        <p className="mt-4 text-center text-sm">
          <a href="/auth" className="font-medium text-brand-700 underline">
            Recommencer la connexion
          </a>
        </p>
      </AuthShell>
    );
  }

  const titles: Record<AuthTab, [string, string]> = {
    connexion: ["Connexion", "Accédez à votre espace de formation."],
    inscription: ["Créer un compte", "Inscrivez-vous pour suivre nos formations."],
    recuperation: ["Mot de passe oublié", "Recevez un lien pour choisir un nouveau mot de passe."],
  };
  const [title, subtitle] = titles[tab];

  return (
    <AuthShell instituteName={instituteName} title={title} subtitle={subtitle}>
      <AuthTabs current={tab} hrefFor={hrefFor} />
      {flash && <Notice tone={flash.tone}>{flash.text}</Notice>}
      {tab === "connexion" && (
        <SignInForm
          redirectTo={loaderData.askedRedirect ? redirectTo : ""}
          result={mine("signin")}
          forgotHref={hrefFor("recuperation")}
          google={google}
        />
      )}
      {tab === "inscription" && <SignUpForm redirectTo={redirectTo} result={mine("signup")} google={google} />}
      {tab === "recuperation" && <ResetRequestForm result={mine("reset-request")} />}
      {mine("google")?.error && <Notice tone="error">{mine("google")!.error}</Notice>}
    </AuthShell>
  );
}

function SignInForm({
  redirectTo,
  result,
  forgotHref,
  google,
}: {
  redirectTo: string;
  result?: ActionData;
  forgotHref: string;
  google: boolean;
}) {
  return (
    <>
      {result?.error && (
        <Notice tone="error">
          <p>{result.error}</p>
          {result.unverifiedEmail && (
            <Form method="post" className="mt-2">
              <input type="hidden" name="email" value={result.unverifiedEmail} />
              <SubmitButton
                intent="resend"
                label="Renvoyer l'e-mail de confirmation"
                pendingLabel="Envoi en cours..."
                variant="outline"
                className="bg-white"
              />
            </Form>
          )}
        </Notice>
      )}
      <Form method="post" noValidate className="space-y-4">
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <Field label="E-mail" name="email" required error={result?.fieldErrors.email}>
          {(props) => (
            <Input {...props} type="email" autoComplete="email" defaultValue={result?.values.email} placeholder="votre@email.com" />
          )}
        </Field>
        <Field label="Mot de passe" name="password" required error={result?.fieldErrors.password}>
          {(props) => <Input {...props} type="password" autoComplete="current-password" maxLength={1024} />}
        </Field>
        <p className="text-right text-sm">
          <a href={forgotHref} className="font-medium text-brand-700 underline-offset-2 hover:underline">
            Mot de passe oublié ?
          </a>
        </p>
        <SubmitButton intent="signin" label="Se connecter" pendingLabel="Connexion..." />
      </Form>
      {google && (
        <>
          <OrSeparator />
          <GoogleButton label="Continuer avec Google" redirectTo={redirectTo} signUp={false} />
        </>
      )}
    </>
  );
}

function SignUpForm({ redirectTo, result, google }: { redirectTo: string; result?: ActionData; google: boolean }) {
  return (
    <>
      {result?.error && <Notice tone="error">{result.error}</Notice>}
      <Form method="post" noValidate className="space-y-4">
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="Prénom" name="firstName" required error={result?.fieldErrors.firstName}>
            {(props) => <Input {...props} autoComplete="given-name" defaultValue={result?.values.firstName} maxLength={100} />}
          </Field>
          <Field label="Nom" name="lastName" required error={result?.fieldErrors.lastName}>
            {(props) => <Input {...props} autoComplete="family-name" defaultValue={result?.values.lastName} maxLength={100} />}
          </Field>
        </div>
        <Field label="E-mail" name="email" required error={result?.fieldErrors.email}>
          {(props) => (
            <Input {...props} type="email" autoComplete="email" defaultValue={result?.values.email} placeholder="votre@email.com" />
          )}
        </Field>
        <Field
          label="Mot de passe"
          name="password"
          required
          error={result?.fieldErrors.password}
          hint={`Au moins ${PASSWORD_MIN_LENGTH} caractères (jusqu'à ${PASSWORD_MAX_LENGTH}), pas un mot de passe courant. Une phrase facile à retenir convient très bien.`}
        >
          {(props) => <Input {...props} type="password" autoComplete="new-password" maxLength={1024} />}
        </Field>
        <SubmitButton intent="signup" label="Créer mon compte" pendingLabel="Création..." />
      </Form>
      {google && (
        <>
          <OrSeparator />
          <GoogleButton label="S'inscrire avec Google" redirectTo={redirectTo} signUp />
        </>
      )}
    </>
  );
}

function ResetRequestForm({ result }: { result?: ActionData }) {
  return (
    <>
      {result?.error && <Notice tone="error">{result.error}</Notice>}
      <Form method="post" noValidate className="space-y-4">
        <Field
          label="E-mail"
          name="email"
          required
          error={result?.fieldErrors.email}
          hint="Nous vous enverrons un lien pour choisir un nouveau mot de passe."
        >
          {(props) => (
            <Input {...props} type="email" autoComplete="email" defaultValue={result?.values.email} placeholder="votre@email.com" />
          )}
        </Field>
        <SubmitButton intent="reset-request" label="Envoyer le lien" pendingLabel="Envoi en cours..." />
      </Form>
      <p className="mt-4 text-center text-sm">
        <a href="/auth" className="font-medium text-brand-700 underline-offset-2 hover:underline">
          Retour à la connexion
        </a>
      </p>
    </>
  );
}

function ResetForm({ token, result }: { token: string | null; result?: ActionData }) {
  const navigate = useNavigate();
  const done = result?.done;
  useEffect(() => {
    if (!done) return;
    const timer = setTimeout(() => navigate(done.next), 2000);
    return () => clearTimeout(timer);
  }, [done, navigate]);

  if (done) {
    return (
      <>
        {/* Without JavaScript the browser follows this after 2 seconds (React puts it in <head>). */}
        <meta httpEquiv="refresh" content={`2;url=${done.next}`} />
        <Notice tone="success">{done.message}</Notice>
        <p className="text-center text-sm text-slate-700">
          Redirection dans 2 secondes…{" "}
          <a href={done.next} className="font-medium text-brand-700 underline">
            Continuer
          </a>
        </p>
      </>
    );
  }
  if (!token || result?.tokenInvalid) {
    return (
      <>
        <Notice tone="error">{authMessages.resetLinkInvalid}</Notice>
        <a
          href="/auth?onglet=recuperation"
          className="inline-flex min-h-11 w-full items-center justify-center rounded-md bg-brand-700 px-4 font-medium text-white hover:bg-brand-800"
        >
          Demander un nouveau lien
        </a>
      </>
    );
  }
  return (
    <>
      {result?.error && <Notice tone="error">{result.error}</Notice>}
      <Form method="post" noValidate className="space-y-4">
        <input type="hidden" name="token" value={token} />
        <Field
          label="Nouveau mot de passe"
          name="password"
          required
          error={result?.fieldErrors.password}
          hint={`Au moins ${PASSWORD_MIN_LENGTH} caractères, pas un mot de passe courant.`}
        >
          {(props) => <Input {...props} type="password" autoComplete="new-password" maxLength={1024} />}
        </Field>
        <Field label="Confirmer le mot de passe" name="confirmPassword" required error={result?.fieldErrors.confirmPassword}>
          {(props) => <Input {...props} type="password" autoComplete="new-password" maxLength={1024} />}
        </Field>
        <SubmitButton intent="reset" label="Mettre à jour le mot de passe" pendingLabel="Mise à jour..." />
      </Form>
    </>
  );
}
