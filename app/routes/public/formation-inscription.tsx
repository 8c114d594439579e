import { data, Form, isRouteErrorResponse, Link, redirect, useNavigation, href } from "react-router";
import { z } from "zod";
import { getOptionalUser } from "~/.server/auth/guards";
import { getCourseBySlug } from "~/.server/catalogue";
import { dbContext } from "~/.server/context";
import { AppError } from "~/.server/errors";
import { formFailure } from "~/.server/http/errors";
import { getEnrolment, seatsLeft } from "~/.server/learning";
import { paymentMethods, startCheckout } from "~/.server/payments";
import { paymentsContext } from "~/.server/payments/setup";
import { redirectWithToast } from "~/.server/toast";
import { Icon } from "~/components/public/icon";
import { courseHref } from "~/components/public/links";
import { NotFoundContent } from "~/components/public/not-found";
import { buttonClasses } from "~/components/ui/button";
import { formatFcfa, formatPrice, formatWeeks, seatsLeftText } from "~/lib/format";
import { failureOf, summaryOf } from "~/lib/form-result";
import type { Route } from "./+types/formation-inscription";

/** The full stylesheet: this page's classes stay out of the public site's light one (app/root.tsx). */
export const handle = { stylesheet: "app" };
/**
 * "S'inscrire" for one course (/formations/:slug/inscription): every "S'inscrire" of the site
 * leads here. A visitor signs in or up first and comes back; a free course opens in one click; a
 * paid one asks how to pay (mobile money, card, cash at the office).
 */

const checkoutSchema = z.object({ method: z.enum(["mobile_money", "card", "cash"]).optional() });

function signUpFirst(slug: string) {
  const back = `${courseHref(slug)}/inscription`;
  return redirect(`/auth?onglet=inscription&redirectTo=${encodeURIComponent(back)}`);
}

export async function loader(args: Route.LoaderArgs) {
  const db = args.context.get(dbContext);
  const course = await getCourseBySlug(db, args.params.slug);
  if (!course || course.status !== "published") throw data(null, { status: 404 });
  const user = await getOptionalUser(args);
  if (!user) throw signUpFirst(course.slug);
  const enrolment = await getEnrolment(db, user.id, course.id);
  if (enrolment && enrolment.status !== "pending_payment" && enrolment.status !== "cancelled")
    throw redirect(href("/dashboard/formations/:slug", { slug: course.slug }));
  return {
    course: {
      slug: course.slug,
      title: course.title,
      priceFcfa: course.priceFcfa,
      durationWeeks: course.durationWeeks,
      levelName: course.levelName,
      categoryName: course.categoryName,
    },
    methods: paymentMethods(args.context.get(paymentsContext)),
    seatsLeft: await seatsLeft(db, course),
    pending: enrolment?.status === "pending_payment",
  };
}

export async function action(args: Route.ActionArgs) {
  const db = args.context.get(dbContext);
  const course = await getCourseBySlug(db, args.params.slug);
  if (!course || course.status !== "published") throw data(null, { status: 404 });
  const user = await getOptionalUser(args);
  if (!user) throw signUpFirst(course.slug);
  const parsed = checkoutSchema.safeParse(Object.fromEntries(await args.request.formData()));
  if (!parsed.success) return formFailure(AppError.invalid({}, "Choisissez un moyen de paiement de la liste."));
  try {
    const outcome = await startCheckout(db, args.context.get(paymentsContext), user, course.id, parsed.data.method ?? null);
    switch (outcome.kind) {
      case "enrolled":
        return redirectWithToast(
          `/dashboard/formations/${course.slug}`,
          { type: "success", title: "Inscription réussie", description: "Vous êtes maintenant inscrit à cette formation" },
          { status: 303 },
        );
      case "already":
        return redirect(href("/dashboard/formations/:slug", { slug: course.slug }), { status: 303 });
      case "redirect":
        return redirect(outcome.url, { status: 303 });
      case "cash":
        return redirectWithToast(
          `/dashboard/paiements/${outcome.reference}`,
          {
            type: "success",
            title: "Inscription enregistrée",
            description: `Réglez ${formatFcfa(course.priceFcfa)} à l'institut avec la référence ${outcome.reference}.`,
          },
          { status: 303 },
        );
    }
  } catch (error) {
    // A full course (409), no way to pay (400), the provider down (503): said above the choices.
    return formFailure(error, { message: error instanceof AppError ? error.message : undefined });
  }
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: loaderData ? `Inscription : ${loaderData.course.title}` : "Page introuvable" },
  { name: "robots", content: "noindex" },
];

export default function CheckoutPage({ loaderData, actionData }: Route.ComponentProps) {
  const failure = failureOf(actionData);
  const { course, methods, pending } = loaderData;
  const navigation = useNavigation();
  const sending = navigation.state !== "idle" && navigation.formMethod === "POST";
  const free = course.priceFcfa === 0;
  const full = loaderData.seatsLeft === 0 && !pending;
  const test = methods.some((method) => method.test);

  return (
    <main className="mx-auto max-w-3xl px-4 py-8 sm:px-6 lg:py-12">
      <nav aria-label="Fil d'Ariane" className="text-sm text-slate-600">
        <Link to={courseHref(course.slug)} className="inline-flex items-center gap-1.5 font-medium text-brand-700 hover:underline">
          <Icon name="arrow-left" className="size-4" aria-hidden="true" />
          Retour à la formation
        </Link>
      </nav>
      <h1 className="mt-4 text-2xl font-extrabold tracking-tight text-slate-900 sm:text-3xl">S'inscrire à la formation</h1>

      <section aria-labelledby="recapitulatif" className="mt-6 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6">
        <h2 id="recapitulatif" className="text-lg font-bold text-slate-900">
          {course.title}
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          {course.categoryName} · {course.levelName}
          {course.durationWeeks > 0 ? ` · ${formatWeeks(course.durationWeeks)}` : ""}
        </p>
        <p className="mt-4 flex items-baseline justify-between gap-4 border-t border-slate-100 pt-4">
          <span className="text-slate-700">{free ? "Tarif" : "Montant à payer"}</span>
          <strong className="text-2xl font-extrabold text-brand-700">{formatPrice(course.priceFcfa)}</strong>
        </p>
        {loaderData.seatsLeft !== null && loaderData.seatsLeft > 0 && loaderData.seatsLeft <= 10 ? (
          <p className="mt-2 text-sm font-medium text-amber-800">{seatsLeftText(loaderData.seatsLeft)}</p>
        ) : null}
      </section>

      {failure ? (
        <p role="alert" className="mt-6 rounded-md border border-red-300 bg-red-50 px-4 py-3 font-medium text-red-900">
          {summaryOf(failure)}
        </p>
      ) : null}

      {full ? (
        <div role="status" className="mt-6 rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-amber-950">
          <p className="font-semibold">Cette formation est complète.</p>
          <p className="mt-1 text-sm">
            Toutes les places sont prises pour cette session. Contactez-nous pour être prévenu de la prochaine.
          </p>
          <Link to="/contact" className={buttonClasses({ variant: "outline", size: "sm", className: "mt-3" })}>
            Nous contacter
          </Link>
        </div>
      ) : free ? (
        <Form method="post" className="mt-6 space-y-3">
          <p className="text-slate-700">Cette formation est gratuite : votre inscription est immédiate.</p>
          <button type="submit" className={buttonClasses({ size: "lg", className: "w-full sm:w-auto" })} disabled={sending}>
            {sending ? "Inscription..." : "Commencer la formation"}
          </button>
        </Form>
      ) : (
        <Form method="post" className="mt-6 space-y-5">
          {pending ? (
            <p className="rounded-md border border-sky-200 bg-sky-50 px-4 py-3 text-sm text-sky-950">
              Votre inscription attend son paiement. Choisissez un moyen de paiement pour la terminer, ou retrouvez vos références dans{" "}
              <Link to="/dashboard/paiements" className="font-semibold underline underline-offset-2">
                vos paiements
              </Link>
              .
            </p>
          ) : null}
          <fieldset className="space-y-3">
            <legend className="text-base font-semibold text-slate-900">Moyen de paiement</legend>
            {methods.map((method, index) => (
              <label
                key={method.method}
                className="flex cursor-pointer items-start gap-3 rounded-xl border border-slate-200 bg-white p-4 has-checked:border-brand-700 has-checked:ring-2 has-checked:ring-brand-700/30"
              >
                <input
                  type="radio"
                  name="method"
                  value={method.method}
                  defaultChecked={index === 0}
                  className="mt-1 size-5 accent-brand-700"
                />
                <span className="min-w-0">
                  <span className="flex flex-wrap items-center gap-2 font-semibold text-slate-900">
                    {method.label}
                    {method.test ? (
                      <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900">Passerelle de test</span>
                    ) : null}
                  </span>
                  <span className="block text-sm text-slate-600">{method.hint}</span>
                </span>
              </label>
            ))}
          </fieldset>
          {test ? (
            <p className="text-sm text-slate-600">
              Mode essai : le mobile money et la carte passent par une passerelle de test, aucun argent réel n'est débité.
            </p>
          ) : null}
          <button type="submit" className={buttonClasses({ size: "lg", className: "w-full sm:w-auto" })} disabled={sending}>
            {sending ? "Envoi en cours..." : `Continuer – ${formatFcfa(course.priceFcfa)}`}
          </button>
          <p className="text-sm text-slate-600">
            Votre inscription est ouverte dès que le paiement est confirmé. Un reçu vous est envoyé par e-mail et reste disponible dans
            votre espace.
          </p>
        </Form>
      )}
    </main>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isRouteErrorResponse(error) && error.status === 404) {
    return <NotFoundContent message="Cette formation n'existe pas ou n'est plus ouverte aux inscriptions." />;
  }
  throw error;
}
