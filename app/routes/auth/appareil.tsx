import { data, Form, redirect } from "react-router";
import { confirmDevice } from "~/.server/auth/flows";
import { cookieHeaders } from "~/.server/auth/redirect";
import { getInstitute } from "~/.server/catalogue";
import { authContext, dbContext } from "~/.server/context";
import { AuthShell, Notice, SubmitButton } from "~/components/auth/auth-ui";
import { authMessages } from "~/components/auth/messages";
import type { Route } from "./+types/appareil";

/**
 * The link of the "confirm your sign-in" mail (sign-in throttling, app/.server/auth/throttle.ts).
 * Opening it only shows a button (mail scanners open links too); the button confirms this
 * browser for the account, once, and leads to the sign-in form.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const institute = await getInstitute(context.get(dbContext));
  const token = new URL(request.url).searchParams.get("token") ?? "";
  return data({ instituteName: institute.name, token }, { headers: { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" } });
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const token = form.get("token");
  const result = await confirmDevice(context.get(authContext), request.headers, typeof token === "string" ? token : "");
  if (!result.ok) return data({ error: result.message }, { status: 400 });
  throw redirect("/auth?message=appareil", { headers: cookieHeaders(result.setCookies) });
}

export const meta: Route.MetaFunction = () => [{ title: "Confirmer cet appareil" }, { name: "robots", content: "noindex" }];

export default function ConfirmDevicePage({ loaderData, actionData }: Route.ComponentProps) {
  const error = actionData?.error ?? (loaderData.token ? null : authMessages.deviceLinkInvalid);
  return (
    <AuthShell
      instituteName={loaderData.instituteName}
      title="Confirmer cet appareil"
      subtitle="Une étape de sécurité avant de vous connecter"
    >
      {error ? (
        <>
          <Notice tone="error">{error}</Notice>
          <a href="/auth" className="font-medium text-brand-700 underline">
            Aller à la connexion
          </a>
        </>
      ) : (
        <Form method="post" className="space-y-4">
          <p className="text-sm text-slate-700">
            De nombreuses tentatives de connexion ont visé votre compte. Confirmez que c'est bien vous qui vous connectez depuis cet
            appareil ; vous saisirez ensuite votre mot de passe.
          </p>
          <input type="hidden" name="token" value={loaderData.token} />
          <SubmitButton intent="confirm" label="C'est moi : confirmer cet appareil" pendingLabel="Confirmation..." className="w-full" />
        </Form>
      )}
    </AuthShell>
  );
}
