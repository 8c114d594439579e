import { Link, data, redirect } from "react-router";
import { ChamberCard, ContactInfoCards, LocationBlock, QuickContactCard } from "~/components/contact/contact-info";
import { ContactForm } from "~/components/contact/contact-form";
import { getInstitute } from "~/.server/catalogue";
import { sendContactMessage } from "~/.server/contact";
import { clientIpContext, dbContext } from "~/.server/context";
import { CONTACT_SUCCESS_MESSAGE, type ContactFieldErrors, type ContactValues } from "~/lib/contact";
import { pageMeta } from "~/lib/seo";
import type { Route } from "./+types/contact";
import { Icon } from "~/components/public/icon";

/** Larger bodies are refused before they are read: the form's fields total ~5.5 KB at most. */
const MAX_BODY_BYTES = 64 * 1024;
const SENT_PARAM = "envoye";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: "Contact",
    description: "Contactez l'institut à Bamako : formulaire, téléphones, e-mail, adresse à la Cité SEMA et horaires d'ouverture.",
    path: "/contact",
  });

export async function loader({ request, context }: Route.LoaderArgs) {
  const institute = await getInstitute(context.get(dbContext));
  return { institute, sent: new URL(request.url).searchParams.has(SENT_PARAM) };
}

type ActionData = { fieldErrors?: ContactFieldErrors; values?: ContactValues; formError?: string };

export async function action({ request, context }: Route.ActionArgs) {
  const length = Number(request.headers.get("content-length") ?? "0");
  if (length > MAX_BODY_BYTES) {
    return data<ActionData>({ formError: "Votre message est trop long pour être envoyé : 5 000 caractères au maximum." }, { status: 413 });
  }
  const form = await request.formData();
  const input: Record<string, unknown> = {};
  for (const [key, value] of form) if (typeof value === "string") input[key] = value;

  const result = await sendContactMessage(context.get(dbContext), input, { ip: context.get(clientIpContext) });
  if (result.ok) return redirect(`/contact?${SENT_PARAM}=1#message-envoye`);
  if (result.reason === "rate-limited") {
    return data<ActionData>(
      { formError: result.message, values: result.values },
      { status: 429, headers: { "Retry-After": String(result.retryAfterSeconds) } },
    );
  }
  return data<ActionData>({ fieldErrors: result.fieldErrors, values: result.values }, { status: 400 });
}

export default function Contact({ loaderData, actionData }: Route.ComponentProps) {
  const { institute, sent } = loaderData;
  return (
    <main>
      <section className="bg-gradient-to-br from-brand-800 to-brand-600 px-4 py-14 text-white sm:py-20">
        <div className="mx-auto max-w-6xl">
          <h1 className="text-3xl font-bold sm:text-4xl">Contactez-nous</h1>
          <p className="mt-3 max-w-2xl text-lg text-brand-100">
            Une question sur nos formations, une inscription ou un partenariat ? Notre équipe vous répond sous 48 heures, du lundi au
            samedi.
          </p>
        </div>
      </section>

      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-10 lg:grid-cols-3 lg:py-14">
        <section
          aria-labelledby="contact-form-title"
          className="self-start rounded-xl border border-slate-200 bg-white p-5 shadow-sm sm:p-8 lg:col-span-2"
        >
          <h2 id="contact-form-title" className="text-2xl font-semibold text-slate-900">
            Envoyez-nous un message
          </h2>
          <div id="contact-form-region">
            {sent ? (
              <div id="message-envoye" role="status" className="mt-6 rounded-lg border border-green-300 bg-green-50 p-6 text-green-900">
                <div className="flex items-start gap-3">
                  <Icon name="circle-check" className="mt-0.5 size-6 shrink-0 text-green-700" aria-hidden="true" />
                  <div>
                    <p className="font-semibold">{CONTACT_SUCCESS_MESSAGE}</p>
                    <p className="mt-2">
                      <Link to="/contact" className="font-medium text-green-900 underline underline-offset-2">
                        Envoyer un autre message
                      </Link>
                    </p>
                  </div>
                </div>
              </div>
            ) : (
              <div className="mt-6">
                <ContactForm
                  regionId="contact-form-region"
                  values={actionData?.values}
                  fieldErrors={actionData?.fieldErrors}
                  formError={actionData?.formError}
                />
              </div>
            )}
          </div>
        </section>

        <aside className="space-y-6" aria-label="Nos coordonnées">
          <QuickContactCard institute={institute} />
          <ContactInfoCards institute={institute} />
          <ChamberCard institute={institute} />
        </aside>
      </div>

      <div className="mx-auto max-w-6xl px-4 pb-14">
        <LocationBlock institute={institute} />
      </div>
    </main>
  );
}
