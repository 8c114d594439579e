import { data } from "react-router";
import {
  changePassword,
  confirmTwoFactor,
  disableTwoFactor,
  listUserSessions,
  revokeUserSession,
  startTwoFactor,
  twoFactorSetupOf,
} from "~/.server/auth";
import { authContext, clientIpContext, dbContext, userContext } from "~/.server/context";
import { isAppError } from "~/.server/errors";
import { toFormFailure } from "~/.server/http/errors";
import { getMessageNoticeDelay, setMessageNoticeDelay } from "~/.server/messaging";
import { getEmailPreferences, setEmailPreferences } from "~/.server/notifications";
import {
  accountDeletionMessages,
  canDeleteOwnAccount,
  getProfile,
  listActivityEntries,
  profileFormValues,
  profileMessages,
  setDataSaver,
  updateProfile,
} from "~/.server/profile";
import { redirectWithToast } from "~/.server/toast";
import { ActivityTab } from "~/components/profile/activity-tab";
import { DataTab } from "~/components/profile/data-tab";
import { GeneralTab } from "~/components/profile/general-tab";
import { NotificationsTab } from "~/components/profile/notifications-tab";
import { profileTabs, type ProfileActionData, type ProfileTab, type ProfileValues } from "~/components/profile/types";
import { SecurityTab } from "~/components/profile/security-tab";
import { Avatar } from "~/components/ui/avatar";
import { RoleBadge } from "~/components/ui/role-badge";
import { LinkTabs } from "~/components/ui/tabs";
import { useServerToast } from "~/components/ui/toaster";
import { formatDate, formatDateTime, formatRelative } from "~/lib/dates";
import { formatPhone } from "~/lib/phone";
import type { Route } from "./+types/profile";

const PROFILE_PATH = "/dashboard/profile";
const SECURITY_PATH = `${PROFILE_PATH}?onglet=securite`;

function tabOf(request: Request): ProfileTab {
  const value = new URL(request.url).searchParams.get("onglet");
  return profileTabs.find((tab) => tab.value === value)?.value ?? "general";
}

export async function loader(args: Route.LoaderArgs) {
  const user = args.context.get(userContext);
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
          lastUsed: formatRelative(session.lastUsedAt, now),
          lastUsedAt: formatDateTime(session.lastUsedAt),
          lastUsedIso: session.lastUsedAt.toISOString(),
          createdAt: formatDateTime(session.createdAt),
          current: session.current,
        }))
      : [];
  const activity = tab === "activite" ? await listActivityEntries(db, user.id, 30, now) : [];
  const [emailPreferences, messageDelay] =
    tab === "notifications" ? await Promise.all([getEmailPreferences(db, user), getMessageNoticeDelay(db, user)]) : [null, null];
  return {
    tab,
    profile: {
      email: profile.email,
      firstName: profile.firstName,
      lastName: profile.lastName,
      phone: profile.phone && formatPhone(profile.phone),
      role: profile.role,
      memberSince: formatDate(profile.createdAt),
      twoFactorEnabled: profile.twoFactorEnabled,
      dataSaver: profile.dataSaver,
    },
    sessions,
    activity,
    emailPreferences,
    deletionRefusal: canDeleteOwnAccount(user) ? null : accountDeletionMessages.staffRefused,
    messageDelay,
  };
}

export function meta() {
  return [{ title: "Mon Profil" }];
}

/** One form per intent; each calls its capability, and a refusal comes back beside the form's fields. */
export async function action({ request, context }: Route.ActionArgs) {
  const user = context.get(userContext);
  const db = context.get(dbContext);
  const auth = context.get(authContext);
  const meta = { ipAddress: context.get(clientIpContext), userAgent: request.headers.get("user-agent") };
  const form = Object.fromEntries(await request.formData());
  const intent = typeof form.intent === "string" ? form.intent : "";
  const toSecurity = (title: string, description: string, headers?: Headers) =>
    redirectWithToast(SECURITY_PATH, { type: "success", title, description }, { headers });

  try {
    switch (intent) {
      case "data-saver": {
        const on = form.dataSaver === "on";
        await setDataSaver(db, user, on);
        return redirectWithToast(PROFILE_PATH, {
          type: "success",
          title: "Préférence enregistrée",
          description: on ? "Économie de données activée : vidéos en basse qualité." : "Économie de données désactivée.",
        });
      }
      case "profile":
        // Only the fields of the form reach the capability, which updates the acting user's row.
        await updateProfile(db, user, profileFormValues(form), meta);
        return redirectWithToast(PROFILE_PATH, { type: "success", title: "Succès", description: profileMessages.updated });
      case "password": {
        const { headers } = await changePassword(auth, request.headers, form);
        return toSecurity("Mot de passe modifié", "Vos autres sessions ont été fermées.", headers);
      }
      case "2fa-enable":
        return data({
          ok: true,
          intent: "2fa-setup",
          setup: await startTwoFactor(auth, request.headers, form),
        } satisfies ProfileActionData);
      case "2fa-verify": {
        const { headers, backupCodes } = await confirmTwoFactor(auth, db, user, request.headers, form, meta);
        const toast = {
          id: crypto.randomUUID(),
          type: "success" as const,
          title: "Double authentification activée",
          description: "Conservez vos codes de secours.",
        };
        return data({ ok: true, intent: "2fa-enabled", backupCodes, toast } satisfies ProfileActionData, { headers });
      }
      case "2fa-disable": {
        const { headers } = await disableTwoFactor(auth, request.headers, form);
        return toSecurity("Double authentification désactivée", "La connexion ne demandera plus de code.", headers);
      }
      case "notifications": {
        const wanted = new Set(Object.keys(form).filter((key) => form[key] === "on"));
        await setMessageNoticeDelay(db, user, form);
        await setEmailPreferences(db, user, wanted);
        return redirectWithToast(`${PROFILE_PATH}?onglet=notifications`, {
          type: "success",
          title: "Préférences enregistrées",
          description: "Vos choix de notification sont enregistrés.",
        });
      }
      case "revoke-session":
        await revokeUserSession(db, user, typeof form.sessionId === "string" ? form.sessionId : "", meta);
        return toSecurity("Session fermée", "Cet appareil devra se reconnecter.");
      default:
        throw data("Action inconnue", { status: 400 });
    }
  } catch (error) {
    return refusal(error, intent, form);
  }
}

/** How each form shows a refusal: beside its fields, or as a toast on the security tab for one-click actions. */
async function refusal(error: unknown, intent: string, form: Record<string, FormDataEntryValue>) {
  if (!isAppError(error)) throw error;
  if (intent === "revoke-session" || (intent === "2fa-enable" && error.reason === "already_enabled")) {
    return redirectWithToast(SECURITY_PATH, { type: "error", title: "Erreur", description: error.message });
  }
  if (intent === "profile") {
    const { failure, status } = toFormFailure(error, { intent, values: profileFormValues(form), message: profileMessages.updateFailed });
    return data(failure satisfies ProfileActionData, { status });
  }
  const { failure, status } = toFormFailure<ProfileValues>(error, { intent });
  if (intent === "2fa-verify") {
    const setup = await twoFactorSetupOf(typeof form.totpURI === "string" ? form.totpURI : "");
    return data({ ...failure, intent, setup } satisfies ProfileActionData, { status });
  }
  return data(failure satisfies ProfileActionData, { status });
}

export default function ProfilePage({ loaderData, actionData }: Route.ComponentProps) {
  const { tab, profile, sessions, activity, emailPreferences, deletionRefusal, messageDelay } = loaderData;
  const result = actionData as ProfileActionData | undefined;
  useServerToast(result?.intent === "2fa-enabled" && result.ok ? result.toast : null);
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
        {profile.role && <RoleBadge role={profile.role} className="ml-auto" data-testid="role-badge" />}
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
      {tab === "notifications" && emailPreferences && messageDelay && (
        <NotificationsTab preferences={emailPreferences} messageDelay={messageDelay} result={result} />
      )}
      {tab === "donnees" && <DataTab deletionRefusal={deletionRefusal} />}
    </div>
  );
}
