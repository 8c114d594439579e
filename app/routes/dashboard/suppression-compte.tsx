import { data, Form, Link, redirect } from "react-router";
import { authContext, dbContext, userContext } from "~/.server/context";
import { toFormFailure } from "~/.server/http/errors";
import { accountDeletionMessages, canDeleteOwnAccount, deleteOwnAccount } from "~/.server/profile";
import { ArrowLeft, Download, Trash2 } from "~/components/icons";
import { AccountDeletionTerms } from "~/components/profile/account-deletion-terms";
import { Alert } from "~/components/ui/alert";
import { Button, buttonClasses } from "~/components/ui/button";
import { Card, CardContent } from "~/components/ui/card";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { usePendingIntent } from "~/components/ui/use-pending-intent";
import { failureOf, type FormFailure } from "~/lib/form-result";
import type { Route } from "./+types/suppression-compte";

const DATA_TAB = "/dashboard/profile?onglet=donnees";

export async function loader({ context }: Route.LoaderArgs) {
  return { deletionRefusal: canDeleteOwnAccount(context.get(userContext)) ? null : accountDeletionMessages.staffRefused };
}

export function meta() {
  return [{ title: "Supprimer mon compte" }];
}

/**
 * The deletion, after the password: the browser is signed out (its cookies expired, its caches
 * and stored lessons cleared) and lands on a page that says what happened.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const form = Object.fromEntries(await request.formData());
  try {
    const { headers } = await deleteOwnAccount(
      context.get(authContext),
      context.get(dbContext),
      context.get(userContext),
      request.headers,
      form,
    );
    headers.set("Clear-Site-Data", '"cache", "storage"');
    throw redirect("/auth/compte-supprime", { headers });
  } catch (error) {
    if (error instanceof Response) throw error;
    const { failure, status } = toFormFailure(error, { intent: "delete-account" });
    return data(failure, { status });
  }
}

export default function AccountDeletionPage({ loaderData, actionData }: Route.ComponentProps) {
  const failed = failureOf(actionData as FormFailure | undefined, "delete-account");
  const deleting = usePendingIntent("delete-account");
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <Link to={DATA_TAB} className="inline-flex items-center gap-1 font-medium text-brand-700 underline">
        <ArrowLeft aria-hidden="true" className="size-4" />
        Retour à mes données
      </Link>
      <h1 className="text-2xl font-bold text-slate-900">Supprimer mon compte</h1>
      <Card>
        <CardContent className="space-y-6 pt-6">
          <AccountDeletionTerms />
          <p>
            <a href="/dashboard/profile/mes-donnees?format=json" className={buttonClasses({ variant: "outline" })} download>
              <Download aria-hidden="true" className="size-4" />
              Télécharger mes données avant
            </a>
          </p>
        </CardContent>
      </Card>
      {loaderData.deletionRefusal === null ? (
        <Card aria-labelledby="confirmation-titre">
          <CardContent className="space-y-4 pt-6">
            <h2 id="confirmation-titre" className="text-lg font-semibold text-slate-900">
              Confirmer la suppression
            </h2>
            <p className="text-slate-700">
              La suppression est définitive et immédiate. Saisissez votre mot de passe pour confirmer que c'est bien vous.
            </p>
            <Form method="post" className="grid max-w-xl gap-4" noValidate>
              <input type="hidden" name="intent" value="delete-account" />
              <Alert>{failed && !failed.fieldErrors.password ? failed.message : null}</Alert>
              <Field label="Mot de passe" name="password" required error={failed?.fieldErrors.password}>
                {(props) => <Input type="password" autoComplete="current-password" maxLength={128} {...props} />}
              </Field>
              <div className="flex flex-wrap gap-3">
                <Button type="submit" disabled={deleting} className="bg-red-700 hover:bg-red-800">
                  <Trash2 aria-hidden="true" className="size-4" />
                  {deleting ? "Suppression..." : "Supprimer définitivement mon compte"}
                </Button>
                <Link to={DATA_TAB} className={buttonClasses({ variant: "ghost" })}>
                  Annuler
                </Link>
              </div>
            </Form>
          </CardContent>
        </Card>
      ) : (
        <p role="note" className="rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-amber-950">
          {loaderData.deletionRefusal}
        </p>
      )}
    </div>
  );
}
