import { Form, Link } from "react-router";
import { KeyRound, LogOut, Monitor, ShieldCheck, Smartphone } from "~/components/icons";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { Alert } from "~/components/ui/alert";
import { usePendingIntent } from "~/components/ui/use-pending-intent";
import { failureOf } from "~/lib/form-result";
import type { ProfileActionData, SessionView } from "./types";

export function SecurityTab({
  twoFactorEnabled,
  sessions,
  result,
}: {
  twoFactorEnabled: boolean;
  sessions: SessionView[];
  result: ProfileActionData | undefined;
}) {
  return (
    <div className="space-y-6">
      <PasswordCard result={result} />
      <TwoFactorCard enabled={twoFactorEnabled} result={result} />
      <SessionsCard sessions={sessions} />
    </div>
  );
}

function PasswordCard({ result }: { result: ProfileActionData | undefined }) {
  const pending = usePendingIntent("password");
  const failed = failureOf(result, "password");
  const errors = failed?.fieldErrors ?? {};
  return (
    <Card aria-labelledby="mot-de-passe-titre">
      <CardHeader>
        <CardTitle id="mot-de-passe-titre" className="flex items-center gap-2">
          <KeyRound aria-hidden="true" className="size-5 text-brand-700" />
          Mot de passe
        </CardTitle>
        <CardDescription>
          Au moins 8 caractères, pas un mot de passe courant. Vos autres appareils seront déconnectés après le changement.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Form method="post" className="grid max-w-md gap-4" noValidate>
          <input type="hidden" name="intent" value="password" />
          <Alert>{failed?.message}</Alert>
          <Field label="Mot de passe actuel" name="currentPassword" required error={errors.currentPassword}>
            {(props) => <Input type="password" autoComplete="current-password" {...props} />}
          </Field>
          <Field label="Nouveau mot de passe" name="newPassword" required error={errors.newPassword}>
            {(props) => <Input type="password" autoComplete="new-password" maxLength={128} {...props} />}
          </Field>
          <Field label="Confirmer le nouveau mot de passe" name="confirmPassword" required error={errors.confirmPassword}>
            {(props) => <Input type="password" autoComplete="new-password" maxLength={128} {...props} />}
          </Field>
          <div>
            <Button type="submit" disabled={pending}>
              {pending ? "Modification..." : "Changer le mot de passe"}
            </Button>
          </div>
        </Form>
      </CardContent>
    </Card>
  );
}

function TwoFactorCard({ enabled, result }: { enabled: boolean; result: ProfileActionData | undefined }) {
  const enabling = usePendingIntent("2fa-enable");
  const verifying = usePendingIntent("2fa-verify");
  const disabling = usePendingIntent("2fa-disable");

  const setup = result && "setup" in result ? result.setup : null;
  const codeError = result?.intent === "2fa-verify" && !result.ok ? result.fieldErrors.code : undefined;
  let body: React.ReactNode;
  if (result?.intent === "2fa-enabled" && result.ok) {
    body = (
      <div className="space-y-4">
        <p role="status" className="rounded-md border border-green-300 bg-green-50 px-4 py-3 text-green-900">
          La double authentification est activée. À la prochaine connexion, un code de votre application vous sera demandé.
        </p>
        <div>
          <h3 className="font-semibold text-slate-900">Vos codes de secours</h3>
          <p className="text-sm text-slate-700">
            Notez-les et gardez-les en lieu sûr : chacun permet une connexion si vous n'avez plus votre téléphone. Ils ne seront plus
            affichés.
          </p>
          <ul className="mt-3 grid max-w-md grid-cols-2 gap-2 font-mono text-sm" data-testid="codes-de-secours">
            {result.backupCodes.map((code) => (
              <li key={code} className="rounded bg-slate-100 px-3 py-1.5 text-slate-900">
                {code}
              </li>
            ))}
          </ul>
        </div>
        <Link to="/dashboard/profile?onglet=securite" className="inline-block font-medium text-brand-700 underline">
          J'ai noté mes codes
        </Link>
      </div>
    );
  } else if (setup) {
    body = (
      <div className="space-y-4">
        <ol className="list-decimal space-y-1 pl-5 text-slate-700">
          <li>Ouvrez une application d'authentification (Google Authenticator, Authy, FreeOTP…).</li>
          <li>Scannez le QR code, ou saisissez la clé à la main.</li>
          <li>Saisissez le code à 6 chiffres qu'elle affiche.</li>
        </ol>
        <div className="flex flex-wrap items-start gap-6">
          {setup.qrSvg && (
            <div
              role="img"
              aria-label="QR code à scanner avec votre application d'authentification"
              className="size-48 shrink-0 rounded border border-slate-200 bg-white p-1 [&>svg]:size-full"
              dangerouslySetInnerHTML={{ __html: setup.qrSvg }}
            />
          )}
          <div className="min-w-0 space-y-1">
            <p className="text-sm font-medium text-slate-800">Clé à saisir à la main</p>
            <p className="font-mono text-sm break-all text-slate-900" data-testid="cle-totp">
              {setup.secret}
            </p>
          </div>
        </div>
        <Form method="post" className="grid max-w-xs gap-4" noValidate>
          <input type="hidden" name="intent" value="2fa-verify" />
          <input type="hidden" name="totpURI" value={setup.totpURI} />
          <Field label="Code de vérification" name="code" required error={codeError}>
            {(props) => <Input inputMode="numeric" autoComplete="one-time-code" pattern="[0-9 ]*" maxLength={7} {...props} />}
          </Field>
          <div className="flex flex-wrap gap-3">
            <Button type="submit" disabled={verifying}>
              {verifying ? "Vérification..." : "Activer"}
            </Button>
            <Link to="/dashboard/profile?onglet=securite" className="self-center text-sm font-medium text-brand-700 underline">
              Annuler
            </Link>
          </div>
        </Form>
      </div>
    );
  } else if (enabled) {
    const failed = failureOf(result, "2fa-disable");
    body = (
      <Form method="post" className="grid max-w-md gap-4" noValidate>
        <input type="hidden" name="intent" value="2fa-disable" />
        <Alert>{failed?.message}</Alert>
        <p className="text-slate-700">Pour désactiver la double authentification, confirmez votre mot de passe.</p>
        <Field label="Mot de passe" name="password" required error={failed?.fieldErrors.password}>
          {(props) => <Input type="password" autoComplete="current-password" {...props} />}
        </Field>
        <div>
          <Button type="submit" variant="outline" disabled={disabling}>
            {disabling ? "Désactivation..." : "Désactiver"}
          </Button>
        </div>
      </Form>
    );
  } else {
    const failed = failureOf(result, "2fa-enable");
    body = (
      <Form method="post" className="grid max-w-md gap-4" noValidate>
        <input type="hidden" name="intent" value="2fa-enable" />
        <Alert>{failed?.message}</Alert>
        <p className="text-slate-700">
          Protégez votre compte avec un code à 6 chiffres généré par une application sur votre téléphone, demandé à chaque connexion.
          Confirmez d'abord votre mot de passe.
        </p>
        <Field label="Mot de passe" name="password" required error={failed?.fieldErrors.password}>
          {(props) => <Input type="password" autoComplete="current-password" {...props} />}
        </Field>
        <div>
          <Button type="submit" disabled={enabling}>
            {enabling ? "Préparation..." : "Configurer"}
          </Button>
        </div>
      </Form>
    );
  }

  return (
    <Card aria-labelledby="double-authentification-titre">
      <CardHeader>
        <div className="flex flex-wrap items-center justify-between gap-2">
          <CardTitle id="double-authentification-titre" className="flex items-center gap-2">
            <ShieldCheck aria-hidden="true" className="size-5 text-brand-700" />
            Double authentification
          </CardTitle>
          <Badge tone={enabled || result?.intent === "2fa-enabled" ? "green" : "neutral"}>
            {enabled || result?.intent === "2fa-enabled" ? "Activée" : "Désactivée"}
          </Badge>
        </div>
      </CardHeader>
      <CardContent>{body}</CardContent>
    </Card>
  );
}

function SessionsCard({ sessions }: { sessions: SessionView[] }) {
  const revoking = usePendingIntent("revoke-session");
  return (
    <Card aria-labelledby="sessions-titre">
      <CardHeader>
        <CardTitle id="sessions-titre">Sessions actives</CardTitle>
        <CardDescription>Les appareils connectés à votre compte. Fermez une session que vous ne reconnaissez pas.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-6">
        <ul className="divide-y divide-slate-200" data-testid="sessions">
          {sessions.map((session) => {
            const Icon = session.kind === "mobile" ? Smartphone : Monitor;
            return (
              <li key={session.id} className="flex flex-wrap items-center gap-3 py-3">
                <Icon aria-hidden="true" className="size-6 shrink-0 text-slate-600" />
                <div className="min-w-0 flex-1">
                  <p className="font-medium text-slate-900">
                    {session.device}
                    {session.current && (
                      <Badge tone="brand" className="ml-2">
                        Cet appareil
                      </Badge>
                    )}
                  </p>
                  <p className="text-sm text-slate-700">
                    {session.ipAddress ? `IP ${session.ipAddress} · ` : ""}
                    Dernière activité{" "}
                    <time dateTime={session.lastUsedIso} title={session.lastUsedAt}>
                      {session.lastUsed}
                    </time>
                    {" · "}connectée le {session.createdAt}
                  </p>
                </div>
                {!session.current && (
                  <Form method="post">
                    <input type="hidden" name="intent" value="revoke-session" />
                    <input type="hidden" name="sessionId" value={session.id} />
                    <Button
                      type="submit"
                      variant="outline"
                      size="sm"
                      disabled={revoking}
                      aria-label={`Fermer la session ${session.device}`}
                    >
                      Fermer
                    </Button>
                  </Form>
                )}
              </li>
            );
          })}
        </ul>

        <div className="space-y-2 border-t border-slate-200 pt-4">
          <h3 className="font-semibold text-slate-900">Déconnexion</h3>
          <div className="flex flex-wrap gap-3">
            <SignOutForm scope="local" label="Se déconnecter de cet appareil" />
            <SignOutForm scope="others" label="Déconnecter les autres appareils" />
            <SignOutForm scope="global" label="Se déconnecter de tous les appareils" />
          </div>
        </div>
      </CardContent>
    </Card>
  );
}

function SignOutForm({ scope, label }: { scope: "local" | "global" | "others"; label: string }) {
  return (
    <form method="post" action="/auth/deconnexion">
      <input type="hidden" name="scope" value={scope} />
      <Button type="submit" variant="outline" size="sm">
        <LogOut aria-hidden="true" className="size-4" />
        {label}
      </Button>
    </form>
  );
}
