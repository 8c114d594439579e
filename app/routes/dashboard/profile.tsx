import { data } from "react-router";
import { z } from "zod";
import { requireUser } from "~/.server/auth/guards";
import { recordActivity } from "~/.server/activity";
import { authContext, clientIpContext, dbContext } from "~/.server/context";
import { getProfile, profileMessages, updateProfile } from "~/.server/profile";
import { listActivityEntries } from "~/.server/profile/activity";
import { formatDateFr, formatDateTimeFr, formatRelativeFr } from "~/.server/profile/format";
import {
  authErrorCode,
  authErrorMessage,
  passwordPolicyReasonsOf,
  qrCodeSvg,
  setCookiesOf,
  totpSecretOf,
} from "~/.server/profile/security";
import { listUserSessions, revokeUserSession } from "~/.server/profile/sessions";
import { redirectWithToast } from "~/.server/toast";
import { ActivityTab } from "~/components/profile/activity-tab";
import { GeneralTab } from "~/components/profile/general-tab";
import { profileTabs, type ProfileActionData, type ProfileTab } from "~/components/profile/types";
import { SecurityTab } from "~/components/profile/security-tab";
import { Avatar } from "~/components/ui/avatar";
import { Badge } from "~/components/ui/badge";
import { LinkTabs } from "~/components/ui/tabs";
import { useServerToast } from "~/components/ui/toaster";
import { passwordMessages } from "~/lib/password-policy";
import { roleLabels, type Role } from "~/lib/roles";
import type { Route } from "./+types/profile";

const PROFILE_PATH = "/dashboard/profile";

function tabOf(request: Request): ProfileTab {
  const value = new URL(request.url).searchParams.get("onglet");
  return profileTabs.find((tab) => tab.value === value)?.value ?? "general";
}

export async function loader(args: Route.LoaderArgs) {
  const user = await requireUser(args);
  const db = args.context.get(dbContext);
  const tab = tabOf(args.request);
  const profile = await getProfile(db, user);
  if (!profile) throw data(profileMessages.loadFailed, { status: 404 });
  const now = new Date();
  const sessions =
    tab === "securite"
      ? (await listUserSessions(db, user, now)).map((session) => ({
          id: session.id,
          device: session.device,
          kind: session.kind,
          ipAddress: session.ipAddress && session.ipAddress !== "unknown" ? session.ipAddress : null,
          lastUsed: formatRelativeFr(session.lastUsedAt, now),
          lastUsedAt: formatDateTimeFr(session.lastUsedAt),
          lastUsedIso: session.lastUsedAt.toISOString(),
          createdAt: formatDateTimeFr(session.createdAt),
          current: session.current,
        }))
      : [];
  const activity = tab === "activite" ? await listActivityEntries(db, user.id, 30, now) : [];
  return {
    tab,
    profile: {
      email: profile.email,
      firstName: profile.firstName,
      lastName: profile.lastName,
      phone: profile.phone,
      role: profile.role,
      memberSince: formatDateFr(profile.createdAt),
      twoFactorEnabled: profile.twoFactorEnabled,
    },
    sessions,
    activity,
  };
}

export function meta() {
  return [{ title: "Mon Profil" }];
}

const failureToast = (title: string, description: string) => ({ id: crypto.randomUUID(), type: "error" as const, title, description });

export async function action(args: Route.ActionArgs) {
  const user = await requireUser(args);
  const { request, context } = args;
  const db = context.get(dbContext);
  const meta = { ipAddress: context.get(clientIpContext), userAgent: request.headers.get("user-agent") };
  const form = Object.fromEntries(await request.formData());
  const intent = typeof form.intent === "string" ? form.intent : "";

  switch (intent) {
    case "profile": {
      try {
        // Only the fields of the form reach the capability, which updates the acting user's row.
        const result = await updateProfile(db, user, { firstName: form.firstName, lastName: form.lastName, phone: form.phone }, meta);
        if (result.ok) {
          return redirectWithToast(PROFILE_PATH, { type: "success", title: "Succès", description: profileMessages.updated });
        }
        if (result.reason === "invalid") {
          return data(
            {
              intent: "profile",
              errors: result.errors,
              values: result.values,
              toast: failureToast("Erreur", profileMessages.updateFailed),
            } satisfies ProfileActionData,
            { status: 400 },
          );
        }
      } catch (error) {
        console.error("profile: update failed", error);
      }
      return data(
        {
          intent: "profile",
          errors: {},
          values: { firstName: String(form.firstName ?? ""), lastName: String(form.lastName ?? ""), phone: String(form.phone ?? "") },
          toast: failureToast("Erreur", profileMessages.updateFailed),
        } satisfies ProfileActionData,
        { status: 500 },
      );
    }

    case "password": {
      const parsed = z
        .object({ currentPassword: z.string().default(""), newPassword: z.string().default(""), confirmPassword: z.string().default("") })
        .parse(form);
      const errors: Record<string, string> = {};
      if (!parsed.currentPassword) errors.currentPassword = "Saisissez votre mot de passe actuel.";
      if (!parsed.newPassword) errors.newPassword = passwordMessages.required;
      else if (parsed.newPassword !== parsed.confirmPassword) errors.confirmPassword = passwordMessages.mismatch;
      else if (parsed.newPassword === parsed.currentPassword) errors.newPassword = "Le nouveau mot de passe doit être différent de l'actuel.";
      if (Object.keys(errors).length > 0) {
        return data({ intent: "password", errors } satisfies ProfileActionData, { status: 400 });
      }
      try {
        const auth = context.get(authContext);
        const { headers } = await auth.api.changePassword({
          body: { currentPassword: parsed.currentPassword, newPassword: parsed.newPassword, revokeOtherSessions: true },
          headers: request.headers,
          returnHeaders: true,
        });
        return redirectWithToast(
          `${PROFILE_PATH}?onglet=securite`,
          { type: "success", title: "Mot de passe modifié", description: "Vos autres sessions ont été fermées." },
          { headers: setCookiesOf(headers) },
        );
      } catch (error) {
        const reasons = passwordPolicyReasonsOf(error);
        if (reasons) return data({ intent: "password", errors: { newPassword: reasons.join(" ") } } satisfies ProfileActionData, { status: 400 });
        const code = authErrorCode(error);
        if (code === "INVALID_PASSWORD") {
          return data({ intent: "password", errors: { currentPassword: "Mot de passe actuel incorrect." } } satisfies ProfileActionData, { status: 400 });
        }
        if (code === "CREDENTIAL_ACCOUNT_NOT_FOUND") {
          return data(
            { intent: "password", errors: { currentPassword: "Votre compte n'a pas de mot de passe (connexion avec Google)." } } satisfies ProfileActionData,
            { status: 400 },
          );
        }
        if (code === "TOO_MANY_REQUESTS" || code === "TOO_MANY_ATTEMPTS") {
          return data({ intent: "password", errors: { currentPassword: authErrorMessage(error) ?? "Trop de tentatives." } } satisfies ProfileActionData, { status: 429 });
        }
        console.error("profile: password change failed", error);
        return data(
          { intent: "password", errors: {}, toast: failureToast("Erreur", "Impossible de modifier le mot de passe.") } satisfies ProfileActionData,
          { status: 500 },
        );
      }
    }

    case "2fa-enable": {
      const password = typeof form.password === "string" ? form.password : "";
      if (!password) return data({ intent: "2fa-enable", errors: { password: "Saisissez votre mot de passe." } } satisfies ProfileActionData, { status: 400 });
      try {
        const auth = context.get(authContext);
        const result = await auth.api.enableTwoFactor({ body: { password }, headers: request.headers });
        if (!("totpURI" in result) || !result.totpURI) throw new Error("no TOTP URI");
        return data({
          intent: "2fa-setup",
          totpURI: result.totpURI,
          secret: totpSecretOf(result.totpURI) ?? "",
          qrSvg: await qrCodeSvg(result.totpURI),
          errors: {},
        } satisfies ProfileActionData);
      } catch (error) {
        const code = authErrorCode(error);
        if (code === "INVALID_PASSWORD") {
          return data({ intent: "2fa-enable", errors: { password: "Mot de passe incorrect." } } satisfies ProfileActionData, { status: 400 });
        }
        if (code === "TOTP_ALREADY_ENABLED") {
          return redirectWithToast(`${PROFILE_PATH}?onglet=securite`, {
            type: "error",
            title: "Erreur",
            description: "La double authentification est déjà activée.",
          });
        }
        console.error("profile: two-factor enable failed", error);
        return data(
          { intent: "2fa-enable", errors: {}, toast: failureToast("Erreur", "Impossible d'activer la double authentification.") } satisfies ProfileActionData,
          { status: 500 },
        );
      }
    }

    case "2fa-verify": {
      const code = typeof form.code === "string" ? form.code.replace(/\s+/g, "") : "";
      const totpURI = typeof form.totpURI === "string" && form.totpURI.startsWith("otpauth://") ? form.totpURI : null;
      const retry = async (message: string, status: number) =>
        data(
          {
            intent: "2fa-setup",
            totpURI: totpURI ?? "",
            secret: totpURI ? (totpSecretOf(totpURI) ?? "") : "",
            qrSvg: totpURI ? await qrCodeSvg(totpURI) : "",
            errors: { code: message },
          } satisfies ProfileActionData,
          { status },
        );
      if (!/^\d{6}$/.test(code)) return retry("Saisissez le code à 6 chiffres affiché par votre application.", 400);
      try {
        const auth = context.get(authContext);
        const { headers } = await auth.api.verifyTOTP({ body: { code }, headers: request.headers, returnHeaders: true });
        const { backupCodes } = await auth.api.viewBackupCodes({ body: { userId: user.id } });
        await recordActivity(db, { userId: user.id, type: "two_factor_enabled", ...meta });
        return data(
          {
            intent: "2fa-enabled",
            backupCodes,
            toast: { id: crypto.randomUUID(), type: "success", title: "Double authentification activée", description: "Conservez vos codes de secours." },
          } satisfies ProfileActionData,
          { headers: setCookiesOf(headers) },
        );
      } catch (error) {
        const errorCode = authErrorCode(error);
        if (errorCode === "INVALID_CODE") return retry("Code incorrect. Vérifiez l'heure de votre téléphone et réessayez.", 400);
        if (errorCode === "TOTP_NOT_ENABLED") return retry("Recommencez la configuration : saisissez à nouveau votre mot de passe.", 400);
        console.error("profile: two-factor verification failed", error);
        return retry("Impossible de vérifier le code. Réessayez.", 500);
      }
    }

    case "2fa-disable": {
      const password = typeof form.password === "string" ? form.password : "";
      if (!password) return data({ intent: "2fa-disable", errors: { password: "Saisissez votre mot de passe." } } satisfies ProfileActionData, { status: 400 });
      try {
        const auth = context.get(authContext);
        const { headers } = await auth.api.disableTwoFactor({ body: { password }, headers: request.headers, returnHeaders: true });
        return redirectWithToast(
          `${PROFILE_PATH}?onglet=securite`,
          { type: "success", title: "Double authentification désactivée", description: "La connexion ne demandera plus de code." },
          { headers: setCookiesOf(headers) },
        );
      } catch (error) {
        if (authErrorCode(error) === "INVALID_PASSWORD") {
          return data({ intent: "2fa-disable", errors: { password: "Mot de passe incorrect." } } satisfies ProfileActionData, { status: 400 });
        }
        console.error("profile: two-factor disable failed", error);
        return data(
          { intent: "2fa-disable", errors: {}, toast: failureToast("Erreur", "Impossible de désactiver la double authentification.") } satisfies ProfileActionData,
          { status: 500 },
        );
      }
    }

    case "revoke-session": {
      const sessionId = typeof form.sessionId === "string" ? form.sessionId : "";
      const result = await revokeUserSession(db, user, sessionId, meta);
      if (result.ok) {
        return redirectWithToast(`${PROFILE_PATH}?onglet=securite`, {
          type: "success",
          title: "Session fermée",
          description: "Cet appareil devra se reconnecter.",
        });
      }
      return redirectWithToast(`${PROFILE_PATH}?onglet=securite`, {
        type: "error",
        title: "Erreur",
        description: result.reason === "current" ? "Pour fermer cette session, utilisez « Se déconnecter de cet appareil »." : "Cette session n'existe plus.",
      });
    }

    default:
      throw data("Action inconnue", { status: 400 });
  }
}

const roleTones: Record<Role, "red" | "blue" | "green"> = { admin: "red", teacher: "blue", user: "green" };

export default function ProfilePage({ loaderData, actionData }: Route.ComponentProps) {
  const { tab, profile, sessions, activity } = loaderData;
  const result = actionData as ProfileActionData | undefined;
  useServerToast(result && "toast" in result ? result.toast : null);
  const fullName = `${profile.firstName} ${profile.lastName}`.trim() || profile.email;

  return (
    <div className="mx-auto max-w-4xl space-y-6">
      <div className="flex flex-wrap items-center gap-4">
        <Avatar firstName={profile.firstName} lastName={profile.lastName} email={profile.email} size="lg" />
        <div className="min-w-0">
          <h1 className="text-2xl font-bold text-slate-900">Mon Profil</h1>
          <p className="truncate text-lg font-semibold text-slate-800">{fullName}</p>
          <p className="truncate text-slate-700">{profile.email}</p>
        </div>
        {profile.role && (
          <Badge tone={roleTones[profile.role]} className="ml-auto" data-testid="role-badge">
            {roleLabels[profile.role]}
          </Badge>
        )}
      </div>

      <LinkTabs
        label="Sections du profil"
        current={tab}
        items={profileTabs.map((item) => ({
          value: item.value,
          label: item.label,
          to: item.value === "general" ? PROFILE_PATH : `${PROFILE_PATH}?onglet=${item.value}`,
        }))}
      />

      {tab === "general" && <GeneralTab profile={profile} result={result} />}
      {tab === "securite" && <SecurityTab twoFactorEnabled={profile.twoFactorEnabled} sessions={sessions} result={result} />}
      {tab === "activite" && <ActivityTab entries={activity} />}
    </div>
  );
}
