import { useEffect, useRef, useState } from "react";
import { useNavigation } from "react-router";
import { useHydrated } from "~/components/ui/use-hydrated";
import { Download, UserPlus } from "~/components/icons";
import { dbContext, envContext, userContext } from "~/.server/context";
import { isAppError } from "~/.server/errors";
import { formFailure } from "~/.server/http/errors";
import { redirectWithToast } from "~/.server/toast";
import {
  changeUserRole,
  createUser,
  deactivateUser,
  getUserStats,
  listAuditLog,
  listUsers,
  reactivateUser,
  resendInvitation,
} from "~/.server/users";
import { parseUserFilters, userActionSchema } from "~/.server/users/schemas";
import { AuditLogList } from "~/components/admin/audit-log";
import { NewUserForm, type NewUserValues } from "~/components/admin/new-user-form";
import { UserStats } from "~/components/admin/user-stats";
import { ConfirmStatusBody, UsersTable } from "~/components/admin/users-table";
import { buttonClasses } from "~/components/ui/button";
import { FilterBar } from "~/components/ui/filter-bar";
import { Pager } from "~/components/ui/pager";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "~/components/ui/dialog";
import { failureOf } from "~/lib/form-result";
import { plural } from "~/lib/format";
import { roleLabels, roles, roleWords } from "~/lib/roles";
import type { Route } from "./+types/users";

const USERS_PATH = "/admin/users";
/** Query parameters that only open a panel; they are dropped when coming back after an action. */
const PANEL_PARAMS = ["nouveau", "confirmer"];

/** The list's own query string (search, role, page), without the panel parameters. */
function listSearch(url: URL): string {
  const params = new URLSearchParams(url.search);
  for (const key of PANEL_PARAMS) params.delete(key);
  params.delete("index");
  const search = params.toString();
  return search ? `?${search}` : "";
}

export async function loader(args: Route.LoaderArgs) {
  const admin = args.context.get(userContext);
  const db = args.context.get(dbContext);
  const url = new URL(args.request.url);
  const filters = parseUserFilters(url.searchParams);
  const [stats, list, audit] = await Promise.all([getUserStats(db, admin), listUsers(db, admin, filters), listAuditLog(db, admin, 10)]);
  const confirmId = url.searchParams.get("confirmer");
  return {
    me: admin.id,
    stats,
    list,
    audit,
    filters,
    search: listSearch(url),
    showNewUserForm: url.searchParams.get("nouveau") === "1",
    // Without JavaScript, "Désactiver" leads here (?confirmer=<id>) to confirm on the page.
    confirmUser: confirmId ? (list.users.find((user) => user.id === confirmId && user.id !== admin.id) ?? null) : null,
  };
}

export async function action(args: Route.ActionArgs) {
  const admin = args.context.get(userContext);
  const db = args.context.get(dbContext);
  const env = args.context.get(envContext);
  const back = `${USERS_PATH}${listSearch(new URL(args.request.url))}`;
  const form = Object.fromEntries(await args.request.formData());
  const parsed = userActionSchema.safeParse(form);
  if (!parsed.success) {
    const intent = form.intent;
    const title = intent === "change-role" ? "Impossible de mettre à jour le rôle" : "Action impossible";
    return redirectWithToast(
      back,
      { type: "error", title: "Erreur", description: `${title} : la demande est incomplète ou invalide.` },
      { status: 303 },
    );
  }
  const input = parsed.data;
  try {
    switch (input.intent) {
      case "change-role": {
        await changeUserRole(db, admin, input.userId, input.role);
        return redirectWithToast(back, { type: "success", title: "Rôle utilisateur mis à jour avec succès" }, { status: 303 });
      }
      case "create": {
        const values: NewUserValues = { firstName: input.firstName, lastName: input.lastName, email: input.email, role: input.role };
        const result = await createUser(db, admin, values, env).catch((error: unknown) => formFailure(error, { intent: "create", values }));
        if (!("user" in result)) return result;
        return redirectWithToast(
          back,
          {
            type: "success",
            title: "Utilisateur créé avec succès",
            description: `Une invitation à choisir un mot de passe a été envoyée à ${result.user.email}.`,
          },
          { status: 303 },
        );
      }
      case "deactivate": {
        const result = await deactivateUser(db, admin, input.userId);
        return redirectWithToast(
          back,
          {
            type: "success",
            title: "Compte désactivé",
            description:
              result.sessionsEnded > 0
                ? `${plural(result.sessionsEnded, "session a pris fin", "sessions ont pris fin")}.`
                : "Cette personne ne peut plus se connecter.",
          },
          { status: 303 },
        );
      }
      case "reactivate": {
        await reactivateUser(db, admin, input.userId);
        return redirectWithToast(
          back,
          { type: "success", title: "Compte réactivé", description: "Cette personne peut de nouveau se connecter." },
          { status: 303 },
        );
      }
      case "resend-invitation": {
        const result = await resendInvitation(db, admin, input.userId, env);
        return redirectWithToast(
          back,
          result.sent
            ? { type: "success", title: "Invitation renvoyée", description: "Le lien précédent ne fonctionne plus." }
            : {
                type: "error",
                title: "Erreur",
                description: "Ce compte a déjà un mot de passe ou est désactivé : aucune invitation envoyée.",
              },
          { status: 303 },
        );
      }
    }
  } catch (error) {
    if (!isAppError(error)) throw error;
    const what = input.intent === "change-role" ? "Impossible de mettre à jour le rôle" : "Action impossible";
    return redirectWithToast(back, { type: "error", title: "Erreur", description: `${what}. ${error.message}` }, { status: 303 });
  }
}

export function meta() {
  return [{ title: "Gestion des Utilisateurs · Administration" }];
}

function withParams(search: string, extra: Record<string, string>): string {
  const params = new URLSearchParams(search);
  for (const [key, value] of Object.entries(extra)) params.set(key, value);
  return `?${params.toString()}`;
}

export default function UsersPage({ loaderData, actionData }: Route.ComponentProps) {
  const { stats, list, audit, filters, search, me, showNewUserForm, confirmUser } = loaderData;
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const createErrors = failureOf<NewUserValues>(actionData, "create");
  const creating = navigation.state !== "idle" && navigation.formData?.get("intent") === "create";

  // The dialog: opened by the button; stays open while its submission has errors; closes once a
  // creation went through (the action redirected, so there is no action data any more).
  const [dialogOpen, setDialogOpen] = useState(false);
  const wasCreating = useRef(false);
  useEffect(() => {
    if (wasCreating.current && !creating && !createErrors) setDialogOpen(false);
    wasCreating.current = creating;
  }, [creating, createErrors]);

  const inlineForm = showNewUserForm || (!hydrated && createErrors !== null);
  const exportHref = `${USERS_PATH}/export.csv${search}`;
  const pageHref = (page: number) => withParams(search, { page: String(page) });

  return (
    <div className="space-y-6">
      <header className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h1 className="text-2xl font-bold text-slate-900">Gestion des Utilisateurs</h1>
          <p className="mt-1 text-slate-600">Comptes, rôles et accès à la plateforme.</p>
        </div>
        <div className="flex flex-wrap gap-2">
          <a href={exportHref} download className={buttonClasses({ variant: "outline" })}>
            <Download aria-hidden="true" className="size-4" />
            Exporter CSV
          </a>
          {hydrated ? (
            <Dialog open={dialogOpen} onOpenChange={setDialogOpen}>
              <button type="button" className={buttonClasses()} onClick={() => setDialogOpen(true)}>
                <UserPlus aria-hidden="true" className="size-4" />
                Nouvel utilisateur
              </button>
              <DialogContent>
                <DialogHeader>
                  <DialogTitle>Nouvel utilisateur</DialogTitle>
                  <DialogDescription>Créez un compte : la personne recevra un e-mail pour choisir son mot de passe.</DialogDescription>
                </DialogHeader>
                <NewUserForm
                  idPrefix="dialog"
                  errors={createErrors?.fieldErrors}
                  values={createErrors?.values}
                  pending={creating}
                  onCancel={() => setDialogOpen(false)}
                />
              </DialogContent>
            </Dialog>
          ) : (
            <a href={withParams(search, { nouveau: "1" })} className={buttonClasses()}>
              <UserPlus aria-hidden="true" className="size-4" />
              Nouvel utilisateur
            </a>
          )}
        </div>
      </header>

      {inlineForm && (
        <Card aria-labelledby="new-user-title">
          <CardHeader>
            <CardTitle id="new-user-title">Nouvel utilisateur</CardTitle>
            <CardDescription>Créez un compte : la personne recevra un e-mail pour choisir son mot de passe.</CardDescription>
          </CardHeader>
          <CardContent>
            <NewUserForm
              idPrefix="inline"
              errors={createErrors?.fieldErrors}
              values={createErrors?.values}
              pending={creating}
              cancelHref={`${USERS_PATH}${search}`}
            />
          </CardContent>
        </Card>
      )}

      {confirmUser && (
        <Card className="border-red-200">
          <CardContent>
            <ConfirmStatusBody user={confirmUser} inline cancelHref={`${USERS_PATH}${search}`} />
          </CardContent>
        </Card>
      )}

      <UserStats stats={stats} />

      <Card aria-labelledby="users-title">
        <CardHeader className="space-y-3">
          <CardTitle id="users-title">Utilisateurs</CardTitle>
          <FilterBar
            label="Rechercher des utilisateurs"
            id="users"
            search={{ value: filters.q, placeholder: "Nom, prénom ou e-mail" }}
            choices={[
              {
                name: "role",
                label: "Rôle",
                value: roleWords[filters.role],
                options: [
                  { value: roleWords.all, label: "Tous les rôles" },
                  ...roles.map((role) => ({ value: roleWords[role], label: roleLabels[role] })),
                ],
              },
            ]}
            clearHref={filters.q || filters.role !== "all" ? USERS_PATH : null}
          />
          <p className="text-sm text-slate-600" aria-live="polite">
            {plural(list.total, "utilisateur trouvé", "utilisateurs trouvés")}
          </p>
        </CardHeader>
        <UsersTable users={list.users} currentUserId={me} hydrated={hydrated} confirmHref={(id) => withParams(search, { confirmer: id })} />
        <Pager
          page={list.page}
          pageCount={list.pageCount}
          hrefFor={pageHref}
          label="Pages de la liste"
          className="border-t border-slate-100 px-5 py-3"
        />
      </Card>

      <Card aria-labelledby="audit-title">
        <CardHeader>
          <CardTitle id="audit-title">Journal des actions</CardTitle>
          <CardDescription>Les dix dernières actions des administrateurs sur les comptes.</CardDescription>
        </CardHeader>
        <CardContent>
          <AuditLogList entries={audit} />
        </CardContent>
      </Card>
    </div>
  );
}

export function ErrorBoundary() {
  return (
    <div role="alert" className="rounded-lg border border-red-200 bg-red-50 p-6 text-red-900">
      <h1 className="text-lg font-semibold">Erreur</h1>
      <p>Impossible de charger les utilisateurs. Réessayez dans un instant.</p>
    </div>
  );
}
