import { Form } from "react-router";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { usePendingIntent } from "~/components/ui/use-pending-intent";
import { failureOf } from "~/lib/form-result";
import { LIMITS } from "~/lib/limits";
import type { ProfileActionData, ProfileValues, ProfileView } from "./types";

export function GeneralTab({ profile, result }: { profile: ProfileView; result: ProfileActionData | undefined }) {
  const saving = usePendingIntent("profile");
  const failed = failureOf<ProfileValues>(result, "profile");
  const values = failed?.values ?? { firstName: profile.firstName, lastName: profile.lastName, phone: profile.phone ?? "" };
  const errors = failed?.fieldErrors ?? {};

  return (
    <>
      <Card aria-labelledby="informations-titre">
        <CardHeader>
          <CardTitle id="informations-titre">Informations personnelles</CardTitle>
          <CardDescription>Membre depuis le {profile.memberSince}.</CardDescription>
        </CardHeader>
        <CardContent>
          <Alert title="Erreur" className="mb-4">
            {failed?.message}
          </Alert>
          {/* key: the fields take the stored values again after a successful save. */}
          <Form
            method="post"
            className="grid gap-5 sm:grid-cols-2"
            key={failed ? "échec" : `${profile.firstName}|${profile.lastName}|${profile.phone}`}
            noValidate
          >
            <input type="hidden" name="intent" value="profile" />
            <Field label="Prénom" name="firstName" required error={errors.firstName}>
              {(props) => <Input autoComplete="given-name" defaultValue={values.firstName} maxLength={LIMITS.name} {...props} />}
            </Field>
            <Field label="Nom" name="lastName" required error={errors.lastName}>
              {(props) => <Input autoComplete="family-name" defaultValue={values.lastName} maxLength={LIMITS.name} {...props} />}
            </Field>
            <Field
              label="Téléphone"
              name="phone"
              optional
              hint="Un numéro malien (76 12 34 56) ou, pour un autre pays, avec son indicatif (+225 07 08 09 10 11)."
              error={errors.phone}
            >
              {(props) => (
                <Input
                  type="tel"
                  autoComplete="tel"
                  inputMode="tel"
                  defaultValue={values.phone}
                  maxLength={LIMITS.phone}
                  placeholder="+223 76 12 34 56"
                  {...props}
                />
              )}
            </Field>
            <Field label="E-mail" name="email" hint="L'e-mail ne peut pas être modifié">
              {(props) => <Input type="email" defaultValue={profile.email} readOnly disabled {...props} name={undefined} />}
            </Field>
            <div className="sm:col-span-2">
              <Button type="submit" disabled={saving}>
                {saving ? "Mise à jour..." : "Mettre à jour"}
              </Button>
            </div>
          </Form>
        </CardContent>
      </Card>
      <DataSaverCard on={profile.dataSaver} />
    </>
  );
}

/** "Économie de données": lesson videos start in their low version and load nothing before play. */
function DataSaverCard({ on }: { on: boolean }) {
  const saving = usePendingIntent("data-saver");
  return (
    <Card aria-labelledby="economie-titre" className="mt-6">
      <CardHeader>
        <CardTitle id="economie-titre">Économie de données</CardTitle>
        <CardDescription>
          Pour un forfait mobile limité : les vidéos des leçons démarrent en basse qualité (environ 2 Mo par minute) et ne se chargent pas
          avant que vous appuyiez sur lecture.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Form method="post" className="flex flex-wrap items-center gap-4" key={String(on)}>
          <input type="hidden" name="intent" value="data-saver" />
          <label className="flex items-center gap-2 font-medium text-slate-900">
            <input type="checkbox" name="dataSaver" defaultChecked={on} className="size-5 accent-brand-700" />
            Activer l'économie de données
          </label>
          <Button type="submit" variant="outline" disabled={saving}>
            {saving ? "Enregistrement..." : "Enregistrer"}
          </Button>
        </Form>
      </CardContent>
    </Card>
  );
}
