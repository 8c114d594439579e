import { randomUUID } from "node:crypto";
import { Form, Link } from "react-router";
import { z } from "zod";
import { getInboxMessage, replyToMessage, setMessageArchived } from "~/.server/contact";
import { dbContext, userContext } from "~/.server/context";
import { formFailure, orHttpError } from "~/.server/http/errors";
import { redirectWithToast } from "~/.server/toast";
import { Alert } from "~/components/ui/alert";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Textarea } from "~/components/ui/textarea";
import { usePendingIntent } from "~/components/ui/use-pending-intent";
import { contactStatusLabels, contactStatusTones } from "~/lib/contact-inbox";
import { formatDateTime } from "~/lib/dates";
import { failureOf } from "~/lib/form-result";
import { LIMITS } from "~/lib/limits";
import { serialIdSchema } from "~/lib/schemas";
import type { Route } from "./+types/message";

/** /admin/messages/:id: one contact message, its answers, a reply sent by e-mail, archive or restore. */

const INBOX_PATH = "/admin/messages";

/** The list's filters to go back to (?retour=?statut=nouveaux...), only ever a query string of the inbox. */
function backTo(url: URL): string {
  const back = url.searchParams.get("retour") ?? "";
  return back.startsWith("?") ? `${INBOX_PATH}${back}` : INBOX_PATH;
}

function messageId(params: { id?: string }) {
  const parsed = serialIdSchema.safeParse(params.id);
  if (!parsed.success) throw new Response("Message introuvable.", { status: 404 });
  return parsed.data;
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { message, replies } = await orHttpError(getInboxMessage(context.get(dbContext), context.get(userContext), messageId(params)));
  return {
    back: backTo(new URL(request.url)),
    // A new token each time the form is shown: the same form sent twice is one answer.
    token: randomUUID(),
    message: {
      id: message.id,
      name: message.name,
      email: message.email,
      phone: message.phone,
      subject: message.subject,
      text: message.message,
      interest: message.interest,
      status: message.status,
      at: formatDateTime(message.createdAt),
      iso: message.createdAt.toISOString(),
    },
    replies: replies.map((reply) => ({
      id: reply.id,
      body: reply.body,
      author: reply.author?.trim() || "Un administrateur",
      at: formatDateTime(reply.createdAt),
      iso: reply.createdAt.toISOString(),
      sent: reply.sentAt !== null,
    })),
  };
}

export const meta = ({ loaderData }: Route.MetaArgs) => [{ title: loaderData ? `Message : ${loaderData.message.subject}` : "Message" }];

const actionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("reply"), body: z.string().optional(), token: z.string().optional() }),
  z.object({ intent: z.literal("archive") }),
  z.object({ intent: z.literal("restore") }),
]);

export async function action({ request, params, context }: Route.ActionArgs) {
  const db = context.get(dbContext);
  const admin = context.get(userContext);
  const id = messageId(params);
  const url = new URL(request.url);
  const here = `${INBOX_PATH}/${id}${url.search}`;
  const form = Object.fromEntries(await request.formData());
  const parsed = actionSchema.safeParse(form);
  if (!parsed.success) return formFailure(parsed.error);
  const input = parsed.data;
  switch (input.intent) {
    case "reply": {
      try {
        await replyToMessage(db, admin, id, { body: input.body, token: input.token });
      } catch (error) {
        return formFailure(error, { intent: "reply", values: { body: input.body ?? "" } });
      }
      return redirectWithToast(
        here,
        { type: "success", title: "Réponse envoyée", description: "Elle part par e-mail à l'adresse du visiteur." },
        { status: 303 },
      );
    }
    case "archive":
    case "restore": {
      await orHttpError(setMessageArchived(db, admin, id, input.intent === "archive"));
      return redirectWithToast(
        input.intent === "archive" ? backTo(url) : here,
        { type: "success", title: input.intent === "archive" ? "Message archivé" : "Message remis dans la boîte de réception" },
        { status: 303 },
      );
    }
  }
}

export default function InboxMessagePage({ loaderData, actionData }: Route.ComponentProps) {
  const { message, replies, token, back } = loaderData;
  const failure = failureOf<{ body: string }>(actionData, "reply");
  const sending = usePendingIntent("reply");
  const archived = message.status === "archived";
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <Link to={back} className="text-sm font-semibold text-brand-700 underline underline-offset-2">
        ← Tous les messages
      </Link>
      <article className="space-y-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
        <div className="flex flex-wrap items-start gap-3">
          <h1 className="flex-1 text-xl font-bold break-words text-slate-900 sm:text-2xl">{message.subject}</h1>
          <Badge tone={contactStatusTones[message.status]}>{contactStatusLabels[message.status]}</Badge>
        </div>
        <dl className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
          <dt className="font-semibold text-slate-700">De</dt>
          <dd className="break-words text-slate-900">
            {message.name} ·{" "}
            <a href={`mailto:${message.email}`} className="text-brand-700 underline underline-offset-2">
              {message.email}
            </a>
          </dd>
          {message.phone && (
            <>
              <dt className="font-semibold text-slate-700">Téléphone</dt>
              <dd>
                <a href={`tel:${message.phone}`} className="text-brand-700 underline underline-offset-2">
                  {message.phone}
                </a>
              </dd>
            </>
          )}
          {message.interest && (
            <>
              <dt className="font-semibold text-slate-700">Intérêt</dt>
              <dd className="text-slate-900">{message.interest}</dd>
            </>
          )}
          <dt className="font-semibold text-slate-700">Reçu le</dt>
          <dd className="text-slate-900">
            <time dateTime={message.iso}>{message.at}</time>
          </dd>
        </dl>
        <p className="border-t border-slate-100 pt-3 break-words whitespace-pre-line text-slate-900">{message.text}</p>
      </article>

      {replies.length > 0 && (
        <section aria-labelledby="replies-title" className="space-y-3">
          <h2 id="replies-title" className="text-lg font-semibold text-slate-900">
            Réponses
          </h2>
          <ol className="space-y-3">
            {replies.map((reply) => (
              <li key={reply.id} className="rounded-lg border border-green-200 bg-green-50/50 p-4">
                <p className="text-sm text-slate-700">
                  <strong className="font-semibold text-slate-900">{reply.author}</strong>, le <time dateTime={reply.iso}>{reply.at}</time>{" "}
                  · {reply.sent ? "envoyée par e-mail" : "en cours d'envoi"}
                </p>
                <p className="mt-2 break-words whitespace-pre-line text-slate-900">{reply.body}</p>
              </li>
            ))}
          </ol>
        </section>
      )}

      <section aria-labelledby="reply-title" className="space-y-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
        <h2 id="reply-title" className="text-lg font-semibold text-slate-900">
          Répondre à {message.name}
        </h2>
        {/* A new form after each answer sent (keyed by the count): the text sent is not left to send again. */}
        <Form key={replies.length} method="post" className="space-y-3">
          <input type="hidden" name="intent" value="reply" />
          <input type="hidden" name="token" value={token} />
          <Alert>{failure?.message ?? failure?.fieldErrors.token}</Alert>
          <Field
            label="Votre réponse"
            name="body"
            required
            hint={`Envoyée par e-mail à ${message.email}, au nom de l'institut.`}
            error={failure?.fieldErrors.body}
          >
            {(field) => <Textarea {...field} rows={8} maxLength={LIMITS.longText} defaultValue={failure?.values?.body ?? ""} />}
          </Field>
          <Button type="submit" disabled={sending}>
            {sending ? "Envoi..." : "Envoyer la réponse"}
          </Button>
        </Form>
      </section>

      <Form method="post">
        <input type="hidden" name="intent" value={archived ? "restore" : "archive"} />
        <Button type="submit" variant="outline">
          {archived ? "Remettre dans la boîte de réception" : "Archiver ce message"}
        </Button>
      </Form>
    </div>
  );
}
