import { ArrowLeft, EyeOff, Flag, Lock, Pin } from "~/components/icons";
import { useEffect, useState, type ReactNode } from "react";
import { Form, Link, redirect, useNavigation } from "react-router";
import { z } from "zod";
import { dbContext, userContext } from "~/.server/context";
import { isAppError } from "~/.server/errors";
import {
  deleteReply,
  deleteThread,
  editReply,
  editThread,
  getThread,
  moderateReply,
  moderateThread,
  replyToThread,
  reportPost,
  toggleLike,
} from "~/.server/forum";
import { formFailure, orHttpError } from "~/.server/http/errors";
import { markNotificationsReadByLink } from "~/.server/notifications";
import { redirectWithToast } from "~/.server/toast";
import { AuthorLine } from "~/components/forum/author-line";
import { LikeButton } from "~/components/forum/like-button";
import { PostText } from "~/components/forum/post-text";
import { useLiveRevalidation } from "~/components/realtime/realtime";
import { Badge } from "~/components/ui/badge";
import { Button, buttonClasses } from "~/components/ui/button";
import { cx } from "~/components/ui/control";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { Pager } from "~/components/ui/pager";
import { Select } from "~/components/ui/select";
import { Textarea } from "~/components/ui/textarea";
import { formatDateTime, formatRelative } from "~/lib/dates";
import { plural } from "~/lib/format";
import { FORUM_LIMITS, FORUM_REQUIRED_MESSAGE, forumCategories, forumCategoryName } from "~/lib/forum";
import { failureOf } from "~/lib/form-result";
import { pageSchema, serialIdSchema } from "~/lib/schemas";
import type { Route } from "./+types/forum-sujet";

const FORUM_PATH = "/dashboard/forum";

function threadIdOf(params: { id?: string }) {
  const id = serialIdSchema.safeParse(params.id);
  if (!id.success) throw new Response("Sujet introuvable.", { status: 404 });
  return id.data;
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = context.get(userContext);
  const db = context.get(dbContext);
  const id = threadIdOf(params);
  const url = new URL(request.url);
  const now = new Date();
  const view = await orHttpError(getThread(db, user, id, { page: pageSchema.parse(url.searchParams.get("page") ?? undefined) }));
  // Opening the thread answers its reply notifications.
  await markNotificationsReadByLink(db, user, "forum_reply", `${FORUM_PATH}/${id}`, now);
  const when = (date: Date) => ({ when: formatRelative(date, now), at: formatDateTime(date), iso: date.toISOString() });
  const { createdAt, editedAt, ...thread } = view.thread;
  return {
    editing: url.searchParams.get("modifier"),
    thread: { ...thread, ...when(createdAt), edited: editedAt !== null },
    replies: view.replies.map(({ createdAt, editedAt, ...reply }) => ({ ...reply, ...when(createdAt), edited: editedAt !== null })),
    page: view.page,
    pages: view.pages,
    totalReplies: view.totalReplies,
    can: view.can,
  };
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: loaderData ? `${loaderData.thread.title} · Forum` : "Forum" }];
}

const moderation = z.enum(["pin", "unpin", "lock", "unlock", "hide", "unhide"]);
const actionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("like") }),
  z.object({ intent: z.literal("reply"), body: z.string().default("") }),
  z.object({ intent: z.literal("edit"), title: z.string().default(""), body: z.string().default(""), category: z.string().default("") }),
  z.object({ intent: z.literal("delete") }),
  z.object({ intent: z.literal("edit-reply"), replyId: serialIdSchema, body: z.string().default("") }),
  z.object({ intent: z.literal("delete-reply"), replyId: serialIdSchema }),
  z.object({ intent: z.literal("moderate"), action: moderation }),
  z.object({ intent: z.literal("moderate-reply"), replyId: serialIdSchema, action: z.enum(["hide", "unhide"]) }),
  z.object({ intent: z.literal("report"), replyId: z.union([z.literal(""), serialIdSchema]).default(""), reason: z.string().default("") }),
]);

const moderationToasts: Record<z.infer<typeof moderation>, string> = {
  pin: "Sujet épinglé en tête du forum.",
  unpin: "Sujet désépinglé.",
  lock: "Sujet verrouillé : il ne reçoit plus de réponses.",
  unlock: "Sujet déverrouillé.",
  hide: "Sujet masqué : seuls son auteur et les modérateurs le voient.",
  unhide: "Sujet de nouveau visible.",
};

export async function action({ request, params, context }: Route.ActionArgs) {
  const user = context.get(userContext);
  const db = context.get(dbContext);
  const id = threadIdOf(params);
  const here = `${FORUM_PATH}/${id}`;
  const form = Object.fromEntries(await request.formData());
  const parsed = actionSchema.safeParse(form);
  if (!parsed.success) return formFailure(parsed.error, { intent: String(form.intent ?? "") });
  const input = parsed.data;
  const success = (description: string, to = here) => redirectWithToast(to, { type: "success", title: "Succès", description });
  try {
    switch (input.intent) {
      case "like":
        return { ok: true as const, intent: "like", ...(await toggleLike(db, user, id)) };
      case "reply": {
        const reply = await replyToThread(db, user, id, { body: input.body });
        return redirect(`${here}?page=9999#reponse-${reply.id}`);
      }
      case "edit":
        await editThread(db, user, id, input);
        return success("Votre sujet a été modifié.");
      case "delete":
        await deleteThread(db, user, id);
        return success("Votre sujet a été supprimé.", FORUM_PATH);
      case "edit-reply":
        await editReply(db, user, input.replyId, { body: input.body });
        return redirect(`${here}#reponse-${input.replyId}`);
      case "delete-reply":
        await deleteReply(db, user, input.replyId);
        return success("Votre réponse a été supprimée.");
      case "moderate":
        await moderateThread(db, user, id, input.action);
        return success(moderationToasts[input.action]);
      case "moderate-reply":
        await moderateReply(db, user, input.replyId, input.action);
        return success(input.action === "hide" ? "Réponse masquée." : "Réponse de nouveau visible.");
      case "report":
        await reportPost(db, user, { threadId: id, replyId: input.replyId || null }, { reason: input.reason });
        return success("Merci : un administrateur examinera ce signalement.");
    }
  } catch (error) {
    const missing = isAppError(error, "invalid") && error.message === FORUM_REQUIRED_MESSAGE;
    const values = Object.fromEntries(Object.entries(form).map(([key, value]) => [key, String(value)]));
    return formFailure(error, { intent: input.intent, values, ...(missing ? { message: FORUM_REQUIRED_MESSAGE } : {}) });
  }
}

export default function ForumThreadPage({ loaderData, actionData }: Route.ComponentProps) {
  const { thread, replies, can, editing, page, pages, totalReplies } = loaderData;
  const navigation = useNavigation();
  const busy = (intent: string) => navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
  const here = `${FORUM_PATH}/${thread.id}`;
  // Above and below the replies.
  const repliesPager = (
    <Pager
      page={page}
      pageCount={pages}
      hrefFor={(to) => `${here}?page=${to}#reponses`}
      label="Pages des réponses"
      previousText="Réponses précédentes"
      nextText="Réponses suivantes"
    />
  );
  useLiveRevalidation([`thread:${thread.id}`]);
  const replyFailure = failureOf<Record<string, string>>(actionData, "reply");
  const editFailure = failureOf<Record<string, string>>(actionData, "edit");
  const reportFailure = failureOf<Record<string, string>>(actionData, "report");
  const otherFailure = failureOf<Record<string, string>>(actionData);
  const editingThread = can.edit && (editing === "sujet" || Boolean(editFailure));

  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <Link to={FORUM_PATH} className="inline-flex items-center gap-1 text-sm font-medium text-brand-700 hover:underline">
        <ArrowLeft aria-hidden="true" className="size-4" />
        Retour au forum
      </Link>

      {otherFailure?.message && !replyFailure && !editFailure && !reportFailure && (
        <p role="alert" className="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm font-medium text-red-900">
          {otherFailure.message}
        </p>
      )}

      <article aria-labelledby="sujet-titre" className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
        <div className="mb-3 flex flex-wrap items-center gap-2">
          {thread.pinned && (
            <Badge tone="brand">
              <Pin aria-hidden="true" className="mr-1 size-3" />
              Épinglé
            </Badge>
          )}
          {thread.locked && (
            <Badge tone="neutral">
              <Lock aria-hidden="true" className="mr-1 size-3" />
              Verrouillé
            </Badge>
          )}
          {thread.hidden && (
            <Badge tone="amber">
              <EyeOff aria-hidden="true" className="mr-1 size-3" />
              Masqué par la modération
            </Badge>
          )}
          <Link to={`${FORUM_PATH}?categorie=${thread.category}`} className="text-xs font-semibold text-brand-700 hover:underline">
            {forumCategoryName(thread.category)}
          </Link>
        </div>

        {editingThread ? (
          <Form method="post" noValidate className="space-y-4">
            <input type="hidden" name="intent" value="edit" />
            <h1 id="sujet-titre" className="text-xl font-bold text-slate-900">
              Modifier le sujet
            </h1>
            {editFailure?.message && (
              <p role="alert" className="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm font-medium text-red-900">
                {editFailure.message}
              </p>
            )}
            <Field label="Titre" name="title" required error={editFailure?.fieldErrors.title}>
              {(props) => <Input {...props} maxLength={FORUM_LIMITS.title} defaultValue={editFailure?.values?.title ?? thread.title} />}
            </Field>
            <Field label="Contenu" name="body" required error={editFailure?.fieldErrors.body}>
              {(props) => (
                <Textarea {...props} rows={8} maxLength={FORUM_LIMITS.body} defaultValue={editFailure?.values?.body ?? thread.body} />
              )}
            </Field>
            <Field label="Catégorie" name="category">
              {(props) => (
                <Select
                  {...props}
                  defaultValue={editFailure?.values?.category ?? thread.category}
                  options={forumCategories.map((category) => ({ value: category.slug, label: category.name }))}
                />
              )}
            </Field>
            <div className="flex flex-wrap gap-3">
              <Button type="submit" disabled={busy("edit")}>
                Enregistrer
              </Button>
              <Link to={here} className={buttonClasses({ variant: "outline" })}>
                Annuler
              </Link>
            </div>
          </Form>
        ) : (
          <>
            <h1 id="sujet-titre" className="text-2xl font-bold break-words text-slate-900">
              {thread.title}
            </h1>
            <div className="mt-2">
              <AuthorLine author={thread.author} when={thread.when} at={thread.at} iso={thread.iso} edited={thread.edited} />
            </div>
            <PostText text={thread.body} className="mt-4" />
            {thread.tags.length > 0 && (
              <ul className="mt-4 flex flex-wrap gap-x-3 gap-y-1" aria-label="Hashtags">
                {thread.tags.map((tag) => (
                  <li key={tag}>
                    <Link
                      to={`${FORUM_PATH}?tag=${encodeURIComponent(tag)}`}
                      className="text-sm font-medium text-brand-700 hover:underline"
                    >
                      #{tag}
                    </Link>
                  </li>
                ))}
              </ul>
            )}
          </>
        )}

        <div className="mt-4 flex flex-wrap items-center gap-2 border-t border-slate-100 pt-3">
          <LikeButton threadId={thread.id} liked={thread.likedByMe} count={thread.likeCount} action={here} />
          {can.edit && !editingThread && (
            <Link to={`${here}?modifier=sujet`} className={buttonClasses({ variant: "ghost", size: "sm" })}>
              Modifier
            </Link>
          )}
          {can.delete && (
            <Confirm label="Supprimer" question="Supprimer ce sujet et ses réponses ?">
              <input type="hidden" name="intent" value="delete" />
            </Confirm>
          )}
          {can.report && <ReportForm failure={reportFailure?.values?.replyId ? null : reportFailure} />}
        </div>

        {can.moderate && (
          <div className="mt-3 flex flex-wrap items-center gap-2 rounded-md bg-slate-50 p-2" role="group" aria-label="Modération">
            <span className="px-1 text-xs font-semibold tracking-wide text-slate-600 uppercase">Modération</span>
            <ModerationButton action={thread.pinned ? "unpin" : "pin"} label={thread.pinned ? "Désépingler" : "Épingler"} />
            <ModerationButton action={thread.locked ? "unlock" : "lock"} label={thread.locked ? "Déverrouiller" : "Verrouiller"} />
            <ModerationButton action={thread.hidden ? "unhide" : "hide"} label={thread.hidden ? "Rendre visible" : "Masquer"} />
          </div>
        )}
      </article>

      <section aria-labelledby="reponses" className="space-y-3">
        <h2 id="reponses" className="text-lg font-semibold text-slate-900">
          {plural(totalReplies, "réponse", "réponses")}
        </h2>
        {repliesPager}
        <ol className="space-y-3">
          {replies.map((reply) => {
            const editFailureOfReply = failureOf<Record<string, string>>(actionData, "edit-reply");
            const editingReply =
              reply.can.edit && (editing === String(reply.id) || editFailureOfReply?.values?.replyId === String(reply.id));
            return (
              <li
                key={reply.id}
                id={`reponse-${reply.id}`}
                className={cx("scroll-mt-20 rounded-lg border border-slate-200 bg-white p-4", reply.hidden && "opacity-75")}
              >
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <AuthorLine author={reply.author} when={reply.when} at={reply.at} iso={reply.iso} edited={reply.edited} />
                  {reply.hidden && <Badge tone="amber">Masquée par la modération</Badge>}
                </div>
                {editingReply ? (
                  <Form method="post" noValidate className="mt-3 space-y-3">
                    <input type="hidden" name="intent" value="edit-reply" />
                    <input type="hidden" name="replyId" value={reply.id} />
                    <Field label="Votre réponse" name="body" required error={editFailureOfReply?.fieldErrors.body}>
                      {(props) => (
                        <Textarea
                          {...props}
                          rows={4}
                          maxLength={FORUM_LIMITS.reply}
                          defaultValue={editFailureOfReply?.values?.body ?? reply.body}
                        />
                      )}
                    </Field>
                    <div className="flex gap-3">
                      <Button type="submit" size="sm">
                        Enregistrer
                      </Button>
                      <Link to={`${here}#reponse-${reply.id}`} className={buttonClasses({ variant: "outline", size: "sm" })}>
                        Annuler
                      </Link>
                    </div>
                  </Form>
                ) : (
                  <PostText text={reply.body} className="mt-3 text-sm" />
                )}
                <div className="mt-2 flex flex-wrap items-center gap-2">
                  {reply.can.edit && !editingReply && (
                    <Link
                      to={`${here}?modifier=${reply.id}#reponse-${reply.id}`}
                      className={buttonClasses({ variant: "ghost", size: "sm" })}
                    >
                      Modifier
                    </Link>
                  )}
                  {reply.can.delete && (
                    <Confirm label="Supprimer" question="Supprimer cette réponse ?">
                      <input type="hidden" name="intent" value="delete-reply" />
                      <input type="hidden" name="replyId" value={reply.id} />
                    </Confirm>
                  )}
                  {can.moderate && (
                    <Form method="post">
                      <input type="hidden" name="intent" value="moderate-reply" />
                      <input type="hidden" name="replyId" value={reply.id} />
                      <input type="hidden" name="action" value={reply.hidden ? "unhide" : "hide"} />
                      <Button type="submit" variant="ghost" size="sm">
                        {reply.hidden ? "Rendre visible" : "Masquer"}
                      </Button>
                    </Form>
                  )}
                  {reply.can.report && (
                    <ReportForm replyId={reply.id} failure={reportFailure?.values?.replyId === String(reply.id) ? reportFailure : null} />
                  )}
                </div>
              </li>
            );
          })}
        </ol>
        {repliesPager}
      </section>

      <section
        aria-labelledby="repondre-titre"
        id="repondre"
        className="scroll-mt-20 rounded-lg border border-slate-200 bg-white p-4 sm:p-6"
      >
        <h2 id="repondre-titre" className="mb-3 text-lg font-semibold text-slate-900">
          Répondre
        </h2>
        {can.reply ? (
          <Form method="post" noValidate className="space-y-3" key={totalReplies}>
            <input type="hidden" name="intent" value="reply" />
            {thread.locked && (
              <p className="text-sm text-slate-600">Ce sujet est verrouillé ; en tant que modérateur, vous pouvez encore y répondre.</p>
            )}
            <Field label="Votre réponse" name="body" required error={replyFailure?.fieldErrors.body ?? replyFailure?.message}>
              {(props) => <Textarea {...props} rows={4} maxLength={FORUM_LIMITS.reply} defaultValue={replyFailure?.values?.body} />}
            </Field>
            <Button type="submit" disabled={busy("reply")}>
              {busy("reply") ? "Envoi…" : "Publier la réponse"}
            </Button>
          </Form>
        ) : (
          <p className="text-slate-700">
            <Lock aria-hidden="true" className="mr-1 inline size-4" />
            Ce sujet est verrouillé : il ne reçoit plus de réponses.
          </p>
        )}
      </section>
    </div>
  );
}

function ModerationButton({ action, label }: { action: string; label: string }) {
  return (
    <Form method="post">
      <input type="hidden" name="intent" value="moderate" />
      <input type="hidden" name="action" value={action} />
      <Button type="submit" variant="outline" size="sm">
        {label}
      </Button>
    </Form>
  );
}

/** A destructive action behind a second click, without JavaScript: a disclosure holding the confirming form. */
function Confirm({ label, question, children }: { label: string; question: string; children: ReactNode }) {
  return (
    <details className="group relative">
      <summary
        className={cx(
          buttonClasses({ variant: "ghost", size: "sm" }),
          "cursor-pointer list-none text-red-700 [&::-webkit-details-marker]:hidden",
        )}
      >
        {label}
      </summary>
      <Form method="post" className="absolute left-0 z-10 mt-1 w-64 space-y-2 rounded-md border border-slate-200 bg-white p-3 shadow-lg">
        {children}
        <p className="text-sm text-slate-800">{question}</p>
        <Button type="submit" size="sm" className="bg-red-700 hover:bg-red-800">
          Confirmer la suppression
        </Button>
      </Form>
    </details>
  );
}

function ReportForm({
  replyId,
  failure,
}: {
  replyId?: number;
  failure: { fieldErrors: Record<string, string>; values?: Record<string, string> } | null;
}) {
  // Kept here rather than derived from the failure: a live reload of the thread clears the
  // action's answer, and the refused report must stay open with what was typed.
  const [open, setOpen] = useState(failure !== null);
  useEffect(() => {
    if (failure) setOpen(true);
  }, [failure]);
  return (
    <details className="group relative" open={open} onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary
        className={cx(
          buttonClasses({ variant: "ghost", size: "sm" }),
          "cursor-pointer list-none text-slate-700 [&::-webkit-details-marker]:hidden",
        )}
      >
        <Flag aria-hidden="true" className="size-4" />
        Signaler
      </summary>
      <Form
        method="post"
        noValidate
        className="absolute right-0 z-10 mt-1 w-72 max-w-[80vw] space-y-2 rounded-md border border-slate-200 bg-white p-3 shadow-lg sm:left-0"
      >
        <input type="hidden" name="intent" value="report" />
        <input type="hidden" name="replyId" value={replyId ?? ""} />
        <Field label="Pourquoi signaler ce message ?" name="reason" required error={failure?.fieldErrors.reason}>
          {(props) => <Textarea {...props} rows={3} maxLength={FORUM_LIMITS.reportReason} defaultValue={failure?.values?.reason} />}
        </Field>
        <Button type="submit" size="sm">
          Envoyer le signalement
        </Button>
      </Form>
    </details>
  );
}
