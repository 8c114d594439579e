import { Form, Link, useNavigation, useSubmit } from "react-router";
import { dbContext, envContext, userContext } from "~/.server/context";
import { uploadLimits } from "~/.server/files/ingest";
import { formFailure } from "~/.server/http/errors";
import { getEmailPreferences, setEmailPreferences } from "~/.server/notifications";
import { getTeacherProfile, saveTeacherProfile, setTeacherPhoto } from "~/.server/teaching";
import { FileUpload } from "~/components/courses/file-upload";
import { redirectWithToast } from "~/.server/toast";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { Select } from "~/components/ui/select";
import { Textarea } from "~/components/ui/textarea";
import { failureOf } from "~/lib/form-result";
import { fileUrl } from "~/lib/uploads";
import { useHydrated } from "~/components/ui/use-hydrated";
import { notificationKinds, optionalEmailKinds } from "~/lib/notifications";
import { BIO_MAX, mobileMoneyOperatorLabels, mobileMoneyOperators, payoutMethodLabels, type PayoutMethod } from "~/lib/teaching";
import type { Route } from "./+types/settings";

type ProfileValues = {
  bio: string;
  payoutMethod: PayoutMethod | "";
  mobileMoneyOperator: string;
  mobileMoneyNumber: string;
  bankName: string;
  bankAccountHolder: string;
  bankAccountNumber: string;
};

/** "Paramètres": the public bio and photo, e-mail notification choices, and where commissions are paid. */
export async function loader({ context }: Route.LoaderArgs) {
  const user = context.get(userContext);
  const db = context.get(dbContext);
  const [profile, emails] = await Promise.all([getTeacherProfile(db, user), getEmailPreferences(db, user)]);
  const payout = profile.payout;
  const values: ProfileValues = {
    bio: profile.bio,
    payoutMethod: payout?.method ?? "",
    mobileMoneyOperator: payout?.method === "mobile_money" ? payout.operator : "",
    mobileMoneyNumber: payout?.method === "mobile_money" ? payout.number : "",
    bankName: payout?.method === "bank" ? payout.bankName : "",
    bankAccountHolder: payout?.method === "bank" ? payout.accountHolder : "",
    bankAccountNumber: payout?.method === "bank" ? payout.accountNumber : "",
  };
  return {
    values,
    photoUrl: profile.photoFileId ? fileUrl(profile.photoFileId, 320) : null,
    maxPhotoBytes: uploadLimits(context.get(envContext)).thumbnail,
    emails: optionalEmailKinds.map((kind) => ({ kind, label: notificationKinds[kind].label, on: emails[kind] })),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = context.get(userContext);
  const db = context.get(dbContext);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  if (intent === "photo" || intent === "remove-photo") {
    const fileId = intent === "photo" ? String(form.get("photoFileId") ?? "") : null;
    try {
      await setTeacherPhoto(db, user, fileId);
    } catch (error) {
      return formFailure(error, { intent: "photo" });
    }
    const title = fileId ? "Photo enregistrée" : "Photo retirée";
    return redirectWithToast("/teacher/settings", { type: "success", title }, { status: 303 });
  }
  if (intent === "notifications") {
    await setEmailPreferences(db, user, new Set(form.getAll("email").map(String)));
    return redirectWithToast("/teacher/settings", { type: "success", title: "Préférences de notification enregistrées" }, { status: 303 });
  }
  const values = Object.fromEntries([...form.entries()].filter(([, value]) => typeof value === "string")) as Record<string, string>;
  try {
    await saveTeacherProfile(db, user, values);
    return redirectWithToast("/teacher/settings", { type: "success", title: "Paramètres enregistrés" }, { status: 303 });
  } catch (error) {
    return formFailure(error, { intent: "profile", values });
  }
}

export const meta = () => [{ title: "Paramètres · Espace enseignant" }];

export default function SettingsPage({ loaderData, actionData }: Route.ComponentProps) {
  const { emails, photoUrl, maxPhotoBytes } = loaderData;
  const failure = failureOf<ProfileValues>(actionData, "profile");
  const values = failure?.values ?? loaderData.values;
  const error = (name: keyof ProfileValues) => failure?.fieldErrors[name] ?? null;
  const navigation = useNavigation();
  const busy = (intent: string) => navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <div>
        <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">Paramètres</h1>
        <p className="mt-2 text-slate-700">
          Votre nom, votre téléphone et votre mot de passe se changent dans{" "}
          <Link to="/dashboard/profile" className="font-medium text-brand-700 underline">
            Mon Profil
          </Link>
          .
        </p>
      </div>

      <PhotoCard photoUrl={photoUrl} maxBytes={maxPhotoBytes} error={failureOf(actionData, "photo")?.fieldErrors.photoFileId ?? null} />

      <Form method="post" className="space-y-6" noValidate>
        <input type="hidden" name="intent" value="profile" />
        {failure ? (
          <p role="alert" className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-900">
            {failure.message ?? "Vérifiez les champs signalés."}
          </p>
        ) : null}
        <Card aria-labelledby="profil-public">
          <CardHeader>
            <CardTitle id="profil-public">Profil public</CardTitle>
          </CardHeader>
          <CardContent>
            <Field
              label="Présentation"
              name="bio"
              optional
              error={error("bio")}
              hint="Affichée sous « Votre formateur » sur les pages de vos formations."
            >
              {(props) => <Textarea {...props} rows={5} maxLength={BIO_MAX} defaultValue={values.bio} />}
            </Field>
          </CardContent>
        </Card>

        <Card aria-labelledby="paiement">
          <CardHeader>
            <CardTitle id="paiement">Paiement de mes commissions</CardTitle>
            <p className="text-sm text-slate-600">
              Où l'institut verse vos commissions. Seuls vous et les administrateurs voient ces informations.
            </p>
          </CardHeader>
          <CardContent className="space-y-5">
            <Field label="Moyen de paiement" name="payoutMethod" error={error("payoutMethod")}>
              {(props) => (
                <Select
                  {...props}
                  defaultValue={values.payoutMethod}
                  placeholder="Pas encore indiqué"
                  options={(["mobile_money", "bank"] as const).map((method) => ({ value: method, label: payoutMethodLabels[method] }))}
                />
              )}
            </Field>
            <fieldset className="space-y-4 rounded-md border border-slate-200 p-4">
              <legend className="px-1 text-sm font-medium text-slate-900">Mobile money</legend>
              <div className="grid gap-4 sm:grid-cols-2">
                <Field label="Opérateur" name="mobileMoneyOperator" error={error("mobileMoneyOperator")}>
                  {(props) => (
                    <Select
                      {...props}
                      defaultValue={values.mobileMoneyOperator}
                      placeholder="Choisissez"
                      options={mobileMoneyOperators.map((operator) => ({ value: operator, label: mobileMoneyOperatorLabels[operator] }))}
                    />
                  )}
                </Field>
                <Field
                  label="Numéro"
                  name="mobileMoneyNumber"
                  error={error("mobileMoneyNumber")}
                  hint="Ex. 76 12 34 56 ou +225 07 08 09 10 11"
                >
                  {(props) => <Input {...props} type="tel" inputMode="tel" autoComplete="tel" defaultValue={values.mobileMoneyNumber} />}
                </Field>
              </div>
            </fieldset>
            <fieldset className="space-y-4 rounded-md border border-slate-200 p-4">
              <legend className="px-1 text-sm font-medium text-slate-900">Virement bancaire</legend>
              <div className="grid gap-4 sm:grid-cols-2">
                <Field label="Banque" name="bankName" error={error("bankName")}>
                  {(props) => <Input {...props} maxLength={100} defaultValue={values.bankName} />}
                </Field>
                <Field label="Titulaire du compte" name="bankAccountHolder" error={error("bankAccountHolder")}>
                  {(props) => <Input {...props} maxLength={100} autoComplete="name" defaultValue={values.bankAccountHolder} />}
                </Field>
              </div>
              <Field label="RIB ou IBAN" name="bankAccountNumber" error={error("bankAccountNumber")}>
                {(props) => <Input {...props} maxLength={50} spellCheck={false} defaultValue={values.bankAccountNumber} />}
              </Field>
            </fieldset>
          </CardContent>
        </Card>
        <Button type="submit" disabled={busy("profile")} className="w-full sm:w-auto">
          {busy("profile") ? "Enregistrement…" : "Enregistrer"}
        </Button>
      </Form>

      <Card aria-labelledby="notifications">
        <CardHeader>
          <CardTitle id="notifications">Notifications par e-mail</CardTitle>
          <p className="text-sm text-slate-600">
            Toutes arrivent dans la cloche ; cochez celles que vous voulez aussi recevoir par e-mail.
          </p>
        </CardHeader>
        <CardContent>
          <Form method="post" className="space-y-3">
            <input type="hidden" name="intent" value="notifications" />
            {emails.map((row) => (
              <label key={row.kind} className="flex items-center gap-2 text-sm text-slate-800">
                <input type="checkbox" name="email" value={row.kind} defaultChecked={row.on} className="size-4 accent-brand-700" />
                {row.label}
              </label>
            ))}
            <Button type="submit" variant="outline" disabled={busy("notifications")}>
              Enregistrer mes préférences
            </Button>
          </Form>
        </CardContent>
      </Card>
    </div>
  );
}

/** The photo shown beside the bio on the course pages: sent with the resumable upload, saved at once. */
function PhotoCard({ photoUrl, maxBytes, error }: { photoUrl: string | null; maxBytes: number; error: string | null }) {
  const hydrated = useHydrated();
  const submit = useSubmit();
  return (
    <Card aria-labelledby="photo">
      <CardHeader>
        <CardTitle id="photo">Photo</CardTitle>
        <p className="text-sm text-slate-600">Affichée à côté de votre présentation sur les pages de vos formations.</p>
      </CardHeader>
      <CardContent className="flex flex-col gap-4 sm:flex-row sm:items-start">
        {photoUrl ? (
          <img
            src={photoUrl}
            alt="Votre photo actuelle"
            width={96}
            height={96}
            className="size-24 shrink-0 rounded-full border border-slate-200 object-cover"
          />
        ) : (
          <p className="text-sm text-slate-700">Pas encore de photo.</p>
        )}
        <div className="flex-1 space-y-3">
          {hydrated ? (
            <FileUpload
              purpose="thumbnail"
              maxBytes={maxBytes}
              label={photoUrl ? "Changer de photo" : "Choisir une photo"}
              onUploaded={(file) => void submit({ intent: "photo", photoFileId: file.id }, { method: "post" })}
            />
          ) : (
            <p className="text-sm text-slate-600">L'envoi d'une photo demande JavaScript.</p>
          )}
          {error ? (
            <p role="alert" className="text-sm font-medium text-red-700">
              {error}
            </p>
          ) : null}
          {photoUrl ? (
            <Form method="post">
              <input type="hidden" name="intent" value="remove-photo" />
              <Button type="submit" variant="outline" size="sm">
                Retirer la photo
              </Button>
            </Form>
          ) : null}
        </div>
      </CardContent>
    </Card>
  );
}
