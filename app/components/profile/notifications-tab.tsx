import { Form, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { failureOf } from "~/lib/form-result";
import { messageNoticeDelays, type MessageNoticeDelay } from "~/lib/messaging";
import { notificationKinds, optionalEmailKinds, type NotificationKind } from "~/lib/notifications";

/**
 * Which notifications also come by e-mail (a box per optional kind; the important ones always do),
 * and after how long an unread message is notified and e-mailed.
 */
export function NotificationsTab({
  preferences,
  messageDelay,
  result,
}: {
  preferences: Record<NotificationKind, boolean>;
  messageDelay: MessageNoticeDelay;
  result?: unknown;
}) {
  const delayError = failureOf(result, "notifications")?.fieldErrors.messageDelay;
  const navigation = useNavigation();
  const saving = navigation.state === "submitting" && navigation.formData?.get("intent") === "notifications";
  const always = (Object.keys(notificationKinds) as NotificationKind[]).filter((kind) => notificationKinds[kind].email === "always");
  return (
    <Card aria-labelledby="notifications-titre">
      <CardHeader>
        <CardTitle id="notifications-titre">Notifications</CardTitle>
        <CardDescription>
          Toutes vos notifications apparaissent sous la cloche. Choisissez celles que vous recevez aussi par e-mail.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Form method="post" className="space-y-4">
          <input type="hidden" name="intent" value="notifications" />
          <fieldset className="space-y-3" aria-describedby={delayError ? "delai-messages-erreur" : "delai-messages-aide"}>
            <legend className="mb-1 font-medium text-slate-900">Messages non lus</legend>
            <p id="delai-messages-aide" className="text-sm text-slate-700">
              Un message arrivé pendant que vous êtes en ligne s'affiche aussitôt. S'il reste non lu, vous recevez une notification (et un
              e-mail, si vous le cochez plus bas) par conversation, pas une par message :
            </p>
            <div className="flex flex-wrap gap-x-6 gap-y-2">
              {messageNoticeDelays.map((choice) => (
                <label key={choice.value} className="flex items-center gap-2 text-slate-800">
                  <input
                    type="radio"
                    name="messageDelay"
                    value={choice.value}
                    defaultChecked={choice.value === messageDelay}
                    className="size-4 accent-brand-700"
                  />
                  {choice.label}
                </label>
              ))}
            </div>
            {delayError && (
              <p id="delai-messages-erreur" className="text-sm text-red-700">
                {delayError}
              </p>
            )}
          </fieldset>
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
