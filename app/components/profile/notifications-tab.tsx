import { Form, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { notificationKinds, optionalEmailKinds, type NotificationKind } from "~/lib/notifications";

/** Which notifications also come by e-mail: a box per optional kind; the important ones always do. */
export function NotificationsTab({ preferences }: { preferences: Record<NotificationKind, boolean> }) {
  const navigation = useNavigation();
  const saving = navigation.state === "submitting" && navigation.formData?.get("intent") === "notifications";
  const always = (Object.keys(notificationKinds) as NotificationKind[]).filter((kind) => notificationKinds[kind].email === "always");
  return (
    <Card aria-labelledby="notifications-titre">
      <CardHeader>
        <CardTitle id="notifications-titre">E-mails de notification</CardTitle>
        <CardDescription>
          Toutes vos notifications apparaissent sous la cloche. Choisissez celles que vous recevez aussi par e-mail.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Form method="post" className="space-y-4">
          <input type="hidden" name="intent" value="notifications" />
          <fieldset className="space-y-3">
            <legend className="mb-2 font-medium text-slate-900">Recevoir aussi par e-mail :</legend>
            {optionalEmailKinds.map((kind) => (
              <label key={kind} className="flex items-center gap-3 text-slate-800">
                <input type="checkbox" name={kind} defaultChecked={preferences[kind]} className="size-4 accent-brand-700" />
                {notificationKinds[kind].label}
              </label>
            ))}
          </fieldset>
          <p className="text-sm text-slate-700">
            Toujours envoyés par e-mail : {always.map((kind) => notificationKinds[kind].label.toLowerCase()).join(", ")}.
          </p>
          <Button type="submit" disabled={saving}>
            {saving ? "Enregistrement..." : "Enregistrer"}
          </Button>
        </Form>
      </CardContent>
    </Card>
  );
}
