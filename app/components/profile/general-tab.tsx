import { Form, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import type { ProfileActionData, ProfileView } from "./types";

export function GeneralTab({ profile, result }: { profile: ProfileView; result: ProfileActionData | undefined }) {
  const navigation = useNavigation();
  const saving = navigation.state !== "idle" && navigation.formData?.get("intent") === "profile";
  const failed = result?.intent === "profile" ? result : null;
  const values = failed?.values ?? { firstName: profile.firstName, lastName: profile.lastName, phone: profile.phone ?? "" };
  const errors = failed?.errors ?? {};

  return (
    <Card aria-labelledby="informations-titre">
      <CardHeader>
        <CardTitle id="informations-titre">Informations personnelles</CardTitle>
        <CardDescription>Membre depuis le {profile.memberSince}.</CardDescription>
      </CardHeader>
      <CardContent>
        {failed?.toast && (
          <p role="alert" className="mb-4 rounded-md border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-900">
            <span className="font-semibold">{failed.toast.title} : </span>
            {failed.toast.description}
          </p>
        )}
        {/* key: the fields take the stored values again after a successful save. */}
        <Form method="post" className="grid gap-5 sm:grid-cols-2" key={failed ? "échec" : `${profile.firstName}|${profile.lastName}|${profile.phone}`} noValidate>
          <input type="hidden" name="intent" value="profile" />
          <Field label="Prénom" name="firstName" required error={errors.firstName}>
            {(props) => <Input autoComplete="given-name" defaultValue={values.firstName} maxLength={80} {...props} />}
          </Field>
          <Field label="Nom" name="lastName" required error={errors.lastName}>
            {(props) => <Input autoComplete="family-name" defaultValue={values.lastName} maxLength={80} {...props} />}
          </Field>
          <Field label="Téléphone" name="phone" optional hint="Format malien : +223 suivi de 8 chiffres, par exemple +223 76 12 34 56." error={errors.phone}>
            {(props) => <Input type="tel" autoComplete="tel" inputMode="tel" defaultValue={values.phone} placeholder="+223 76 12 34 56" {...props} />}
          </Field>
          <Field label="Email" name="email" hint="L'email ne peut pas être modifié">
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
  );
}
