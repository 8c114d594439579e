import { randomUUID } from "node:crypto";
import { Form } from "react-router";
import { z } from "zod";
import { dbContext, userContext } from "~/.server/context";
import { formFailure, orHttpError } from "~/.server/http/errors";
import {
  listIssues,
  listSubscribers,
  parseSubscriberFilters,
  prepareNewsletter,
  previewNewsletter,
  sendNewsletter,
  sendNewsletterTest,
  type NewsletterPreview,
} from "~/.server/newsletter";
import { redirectWithToast } from "~/.server/toast";
import { Alert } from "~/components/ui/alert";
import { Badge } from "~/components/ui/badge";
import { Button, buttonClasses } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { FilterBar } from "~/components/ui/filter-bar";
import { Input } from "~/components/ui/input";
import { Textarea } from "~/components/ui/textarea";
import { usePendingIntent } from "~/components/ui/use-pending-intent";
import { formatDate, formatDateTime } from "~/lib/dates";
import { failureOf, type FormSuccess } from "~/lib/form-result";
import { plural } from "~/lib/format";
import { LIMITS } from "~/lib/limits";
import { SUBSCRIBER_FILTERS, subscriberFilterLabels } from "~/lib/newsletter-subscribers";
import type { Route } from "./+types/newsletter";
import { Pager } from "~/components/ui/pager";

/**
 * /admin/newsletter: write a newsletter, see it as subscribers will, try it on one's own address,
 * send it to every confirmed subscriber after a step that states how many (works without
 * JavaScript: the step is the action's answer, its form posts `confirm=oui`); the subscribers,
 * searched and exported.
 */

const PATH = "/admin/newsletter";

export async function loader({ request, context }: Route.LoaderArgs) {
  const db = context.get(dbContext);
  const admin = context.get(userContext);
  const url = new URL(request.url);
  const filters = parseSubscriberFilters(url.searchParams);
  const [list, issues] = await orHttpError(Promise.all([listSubscribers(db, admin, filters), listIssues(db, admin)]));
  const exportParams = new URLSearchParams({ statut: filters.status, ...(filters.q ? { q: filters.q } : {}) });
  return {
    // The page shown: the last one when the one asked for is past the end.
    filters: { ...filters, page: list.page },
    // A new token each time the form is shown: the same form sent twice is one newsletter.
    token: randomUUID(),
    active: list.active,
    pending: list.pending,
    unsubscribed: list.unsubscribed,
    total: list.total,
    pages: list.pageCount,
    exportHref: `${PATH}/abonnes.csv?${exportParams}`,
    subscribers: list.subscribers.map((row) => ({
      id: row.id,
      email: row.email,
      since: formatDate(row.createdAt),
      unsubscribed: row.unsubscribedAt ? formatDate(row.unsubscribedAt) : null,
      pending: row.pendingSince && !row.unsubscribedAt ? formatDate(row.pendingSince) : null,
    })),
    issues: issues.map((issue) => ({
      id: issue.id,
      subject: issue.subject,
      sending: issue.status === "sending",
      delivered: issue.delivered,
      at: formatDateTime(issue.sentAt ?? issue.createdAt),
      iso: (issue.sentAt ?? issue.createdAt).toISOString(),
    })),
  };
}

export const meta = () => [{ title: "Lettre d'information" }];

const actionSchema = z.object({
  intent: z.enum(["preview", "test", "send"]),
  subject: z.string().optional(),
  body: z.string().optional(),
  token: z.string().optional(),
  confirm: z.string().optional(),
});

type Draft = { subject: string; body: string };
type Confirmation = { token: string; recipients: number };

export async function action({ request, context }: Route.ActionArgs) {
  const form = Object.fromEntries(await request.formData());
  const parsed = actionSchema.safeParse(form);
  if (!parsed.success) return formFailure(parsed.error);
  const { intent, subject = "", body = "", token, confirm } = parsed.data;
  const db = context.get(dbContext);
  const admin = context.get(userContext);
  const values: Draft = { subject, body };
  try {
    if (intent === "preview") {
      return { ok: true, intent, values, preview: previewNewsletter(admin, values) } satisfies FormSuccess<{
        values: Draft;
        preview: NewsletterPreview;
      }>;
    }
    if (intent === "test") {
      const { sentTo } = await sendNewsletterTest(db, admin, values);
      return {
        ok: true,
        intent,
        values,
        message: `Un essai part vers ${sentTo} : vérifiez votre boîte de réception.`,
      } satisfies FormSuccess<{ values: Draft }>;
    }
    if (confirm !== "oui") {
      // First "send": the step that states the number of recipients; nothing leaves yet.
      const prepared = await prepareNewsletter(db, admin, { subject, body, token });
      return {
        ok: true,
        intent,
        values,
        confirmation: { token: prepared.token, recipients: prepared.recipients },
      } satisfies FormSuccess<{ values: Draft; confirmation: Confirmation }>;
    }
    const result = await sendNewsletter(db, admin, { subject, body, token, confirm });
    return redirectWithToast(
      PATH,
      {
        type: "success",
        title: result.created ? "Lettre en cours d'envoi" : "Lettre déjà envoyée",
        description: result.created
          ? "Elle part par lots à chaque abonné, une seule fois."
          : "Ce formulaire avait déjà été envoyé : rien de plus n'est parti.",
      },
      { status: 303 },
    );
  } catch (error) {
    return formFailure(error, { intent, values });
  }
}

function pageHref(filters: { status: string; q: string }, page: number) {
  const params = new URLSearchParams({
    statut: filters.status,
    ...(filters.q ? { q: filters.q } : {}),
    ...(page > 1 ? { page: String(page) } : {}),
  });
  return `${PATH}?${params}`;
}

export default function NewsletterAdminPage({ loaderData, actionData }: Route.ComponentProps) {
  const { filters, token, active, pending, unsubscribed, total, pages, subscribers, issues, exportHref } = loaderData;
  const failure = failureOf<Draft>(actionData);
  const done = actionData && actionData.ok ? actionData : null;
  const draft = failure?.values ?? done?.values;
  const preview = done && "preview" in done ? done.preview : null;
  const confirmation = done && "confirmation" in done ? done.confirmation : null;
  const sending = usePendingIntent("send");
  const testing = usePendingIntent("test");
  const filtered = filters.status !== "actifs" || filters.q !== "";
  return (
    <div className="mx-auto max-w-5xl space-y-8">
      <div>
        <h1 className="text-2xl font-bold text-slate-900">Lettre d'information</h1>
        <p className="mt-1 text-slate-600">
          {plural(active, "abonné confirmé", "abonnés confirmés")} · {plural(pending, "adresse", "adresses")} en attente de confirmation ·{" "}
          {plural(unsubscribed, "désinscrit", "désinscrits")}
        </p>
      </div>

      <section aria-labelledby="compose-title" className="space-y-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
        <h2 id="compose-title" className="text-lg font-semibold text-slate-900">
          Écrire une lettre
        </h2>
        <Form key={issues.length} method="post" className="space-y-3">
          <input type="hidden" name="token" value={token} />
          <Alert>{failure?.message ?? failure?.fieldErrors.token}</Alert>
          {done && "message" in done ? <Alert tone="success">{done.message}</Alert> : null}
          <Field label="Objet" name="subject" required error={failure?.fieldErrors.subject}>
            {(field) => <Input {...field} maxLength={LIMITS.title} defaultValue={draft?.subject ?? ""} />}
          </Field>
          <Field
            label="Texte"
            name="body"
            required
            hint="Une ligne vide sépare deux paragraphes. Chaque message porte un lien de désinscription en un clic."
            error={failure?.fieldErrors.body}
          >
            {(field) => <Textarea {...field} rows={10} maxLength={LIMITS.longText} defaultValue={draft?.body ?? ""} />}
          </Field>
          <div className="flex flex-wrap gap-2">
            {/* First: what Enter in the subject does is the harmless preview. */}
            <Button type="submit" name="intent" value="preview" variant="outline">
              Aperçu
            </Button>
            <Button type="submit" name="intent" value="test" variant="outline" disabled={testing}>
              {testing ? "Envoi de l'essai..." : "M'envoyer un essai"}
            </Button>
            <Button type="submit" name="intent" value="send" disabled={active === 0}>
              Envoyer…
            </Button>
          </div>
        </Form>
        {confirmation ? (
          <section aria-labelledby="confirm-title" className="space-y-3 rounded-md border border-amber-300 bg-amber-50 p-4">
            <h3 id="confirm-title" className="font-semibold text-slate-900">
              Envoyer « {draft?.subject} » à {plural(confirmation.recipients, "abonné confirmé", "abonnés confirmés")} ?
            </h3>
            <p className="text-sm text-slate-700">
              L'envoi ne peut pas être annulé. Les adresses en attente de confirmation et les désinscrits ne la reçoivent pas.
            </p>
            <Form method="post" className="flex flex-wrap gap-2">
              <input type="hidden" name="subject" value={draft?.subject ?? ""} />
              <input type="hidden" name="body" value={draft?.body ?? ""} />
              <input type="hidden" name="token" value={confirmation.token} />
              <input type="hidden" name="confirm" value="oui" />
              <Button type="submit" name="intent" value="send" disabled={sending}>
                {sending ? "Envoi..." : `Oui, envoyer à ${plural(confirmation.recipients, "abonné", "abonnés")}`}
              </Button>
              <a href={PATH} className={buttonClasses({ variant: "outline" })}>
                Annuler
              </a>
            </Form>
          </section>
        ) : null}
        {preview ? (
          <section aria-labelledby="preview-title" className="space-y-3 rounded-md border border-slate-200 bg-slate-50 p-4">
            <h3 id="preview-title" className="text-sm font-semibold tracking-wide text-slate-600 uppercase">
              Aperçu de la lettre
            </h3>
            <p className="font-semibold break-words text-slate-900">{preview.subject}</p>
            <div className="space-y-2 text-slate-800">
              <p>Bonjour,</p>
              {preview.paragraphs.map((paragraph, index) => (
                <p key={index} className="break-words whitespace-pre-line">
                  {paragraph}
                </p>
              ))}
            </div>
            <p className="text-sm text-slate-600">
              Suivi du bouton « Voir nos formations » et, pour chaque abonné, de son lien de désinscription en un clic.
            </p>
          </section>
        ) : null}
      </section>

      <section aria-labelledby="issues-title" className="space-y-3">
        <h2 id="issues-title" className="text-lg font-semibold text-slate-900">
          Lettres envoyées
        </h2>
        {issues.length === 0 ? (
          <p className="text-sm text-slate-600">Aucune lettre envoyée pour le moment.</p>
        ) : (
          <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white shadow-sm">
            {issues.map((issue) => (
              <li key={issue.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 px-4 py-3">
                <span className="font-semibold break-words text-slate-900">{issue.subject}</span>
                <Badge tone={issue.sending ? "amber" : "green"}>{issue.sending ? "En cours d'envoi" : "Envoyée"}</Badge>
                <span className="text-sm text-slate-600 sm:ml-auto">
                  {plural(issue.delivered, "destinataire", "destinataires")} · <time dateTime={issue.iso}>{issue.at}</time>
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="subscribers-title" className="space-y-3">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 id="subscribers-title" className="text-lg font-semibold text-slate-900">
            Abonnés
          </h2>
          <a href={exportHref} className={buttonClasses({ variant: "outline", size: "sm" })} download>
            Exporter en CSV
          </a>
        </div>
        <FilterBar
          label="Filtrer les abonnés"
          id="subscribers"
          search={{ value: filters.q, placeholder: "Adresse e-mail" }}
          choices={[
            {
              name: "statut",
              label: "Statut",
              value: filters.status,
              options: SUBSCRIBER_FILTERS.map((value) => ({ value, label: subscriberFilterLabels[value] })),
            },
          ]}
          clearHref={filtered ? PATH : null}
        />
        {subscribers.length === 0 ? (
          <p className="text-sm text-slate-600">
            {filtered ? "Aucune adresse ne correspond à ces filtres." : "Aucun abonné pour le moment."}
          </p>
        ) : (
          <>
            <p className="text-sm text-slate-600">{plural(total, "adresse", "adresses")}</p>
            <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white shadow-sm">
              {subscribers.map((row) => (
                <li key={row.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 px-4 py-2 text-sm">
                  <span className="font-medium break-all text-slate-900">{row.email}</span>
                  <span className="text-slate-600 sm:ml-auto">
                    {row.unsubscribed
                      ? `désinscription le ${row.unsubscribed}`
                      : row.pending
                        ? `en attente de confirmation depuis le ${row.pending}`
                        : `abonnement depuis le ${row.since}`}
                  </span>
                </li>
              ))}
            </ul>
            <Pager page={filters.page} pageCount={pages} hrefFor={(page) => pageHref(filters, page)} label="Pages des abonnés" />
          </>
        )}
      </section>
    </div>
  );
}
