import { Form, redirect } from "react-router";
import { z } from "zod";
import { signOut } from "~/.server/auth/flows";
import { getOptionalUser } from "~/.server/auth/guards";
import { cookieHeaders } from "~/.server/auth/redirect";
import { authContext, dbContext } from "~/.server/context";
import { Button } from "~/components/ui/button";
import type { Route } from "./+types/deconnexion";

const scopeSchema = z.enum(["local", "global", "others"]).catch("local");

/**
 * POST /auth/deconnexion with `scope`: "local" (this device), "global" (every device) or
 * "others" (every other device; back to the profile). GET shows a confirmation button, so a
 * link or a prefetch never signs anybody out.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const scope = scopeSchema.parse(form.get("scope"));
  const user = await getOptionalUser({ request, context });
  if (!user) throw redirect("/");
  const result = await signOut(context.get(authContext), context.get(dbContext), request.headers, scope, user.id);
  if (scope === "others")
    throw redirect("/dashboard/profile?onglet=securite", { headers: cookieHeaders(result.ok ? result.setCookies : []) });
  // This device's caches and stored lessons go with the session: nothing of one learner is shown
  // to the next person on a shared phone (the service worker registers again on the next visit).
  throw redirect("/", { headers: cookieHeaders(result.ok ? result.setCookies : [], { "Clear-Site-Data": '"cache", "storage"' }) });
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await getOptionalUser({ request, context });
  if (!user) throw redirect("/");
  return { email: user.email };
}

export function meta() {
  return [{ title: "Déconnexion" }, { name: "robots", content: "noindex" }];
}

export default function SignOutPage({ loaderData }: Route.ComponentProps) {
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center gap-4 p-6 text-center">
      <h1 className="text-2xl font-bold">Se déconnecter</h1>
      <p className="text-slate-700">Vous êtes connecté en tant que {loaderData.email}.</p>
      <Form method="post" className="space-y-3">
        <Button type="submit" name="scope" value="local" className="w-full">
          Se déconnecter de cet appareil
        </Button>
        <Button type="submit" name="scope" value="global" variant="outline" className="w-full">
          Se déconnecter de tous les appareils
        </Button>
      </Form>
      <a href="/dashboard" className="text-sm font-medium text-brand-700 underline">
        Annuler
      </a>
    </main>
  );
}
