import { Flag, Hash, Lock, MessageSquare, Pin, Plus, Search } from "~/components/icons";
import { Form, Link, useNavigation } from "react-router";
import { z } from "zod";
import { dbContext, userContext } from "~/.server/context";
import { isAppError } from "~/.server/errors";
import { countOpenReports, createThread, forumOverview, listThreads, toggleLike } from "~/.server/forum";
import { formFailure } from "~/.server/http/errors";
import { redirectWithToast } from "~/.server/toast";
import { AuthorLine } from "~/components/forum/author-line";
import { LikeButton } from "~/components/forum/like-button";
import { useLiveRevalidation } from "~/components/realtime/realtime";
import { Badge } from "~/components/ui/badge";
import { Button, buttonClasses } from "~/components/ui/button";
import { cx } from "~/components/ui/control";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { Select } from "~/components/ui/select";
import { Textarea } from "~/components/ui/textarea";
import { formatDateTime, formatRelative } from "~/lib/dates";
import { plural } from "~/lib/format";
import {
  FORUM_LIMITS,
  FORUM_REQUIRED_MESSAGE,
  forumCategories,
  forumCategoryName,
  forumCategorySlugs,
  type ForumCategory,
} from "~/lib/forum";
import { failureOf } from "~/lib/form-result";
import { LIMITS } from "~/lib/limits";
import { choice, pageSchema, searchQuerySchema, serialIdSchema } from "~/lib/schemas";
import type { Route } from "./+types/forum";
import { Pager } from "~/components/ui/pager";

const FORUM_PATH = "/dashboard/forum";

const filtersSchema = z.object({
  q: searchQuerySchema,
  categorie: choice(["tout", ...forumCategorySlugs], "tout"),
  tag: z
    .string()
    .catch("")
    .transform((value) => value.trim().replace(/^#/, "").toLowerCase().slice(0, 30)),
  page: pageSchema,
  nouveau: z.string().optional().catch(undefined),
});

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = context.get(userContext);
  const db = context.get(dbContext);
  const filters = filtersSchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  const category = filters.categorie === "tout" ? null : (filters.categorie as ForumCategory);
  const now = new Date();
  const [list, overview, openReports] = await Promise.all([
    listThreads(db, user, { q: filters.q, category, tag: filters.tag || null, page: filters.page }),
    forumOverview(db, user, now),
    countOpenReports(db, user),
  ]);
  return {
    openReports,
    filters: { q: filters.q, category, tag: filters.tag, composing: filters.nouveau === "1" },
    overview,
    page: list.page,
    pages: list.pages,
    total: list.total,
    threads: list.threads.map(({ createdAt, lastActivityAt: _lastActivity, ...thread }) => ({
      ...thread,
      when: formatRelative(createdAt, now),
      at: formatDateTime(createdAt),
      iso: createdAt.toISOString(),
    })),
  };
}

export const meta = () => [{ title: "Forum" }];

export async function action({ request, context }: Route.ActionArgs) {
  const user = context.get(userContext);
  const db = context.get(dbContext);
  const form = Object.fromEntries(await request.formData());
  if (form.intent === "like") {
    const threadId = serialIdSchema.safeParse(form.threadId);
    if (!threadId.success) return formFailure(threadId.error, { intent: "like" });
    try {
      return { ok: true as const, intent: "like", ...(await toggleLike(db, user, threadId.data)) };
    } catch (error) {
      return formFailure(error, { intent: "like" });
    }
  }
  const values = { title: String(form.title ?? ""), body: String(form.body ?? ""), category: String(form.category ?? "") };
  try {
    await createThread(db, user, values);
  } catch (error) {
    const missing = isAppError(error, "invalid") && error.message === FORUM_REQUIRED_MESSAGE;
    return formFailure(error, { intent: "create", values, ...(missing ? { message: FORUM_REQUIRED_MESSAGE } : {}) });
  }
  return redirectWithToast(FORUM_PATH, { type: "success", title: "Succès", description: "Votre post a été publié avec succès" });
}

type Filters = { q: string; category: ForumCategory | null; tag: string };

/** The list's address for these filters (page 1 unless given). */
function forumHref(filters: Partial<Filters> & { page?: number; composing?: boolean }) {
  const params = new URLSearchParams();
  if (filters.q) params.set("q", filters.q);
  if (filters.category) params.set("categorie", filters.category);
  if (filters.tag) params.set("tag", filters.tag);
  if (filters.page && filters.page > 1) params.set("page", String(filters.page));
  if (filters.composing) params.set("nouveau", "1");
  const query = params.toString();
  return query ? `${FORUM_PATH}?${query}` : FORUM_PATH;
}

export default function ForumPage({ loaderData, actionData }: Route.ComponentProps) {
  const { filters, overview, threads, page, pages, total, openReports } = loaderData;
  const failure = failureOf<{ title: string; body: string; category: string }>(actionData, "create");
  const composing = filters.composing || Boolean(failure);
  const navigation = useNavigation();
  const publishing = navigation.state === "submitting" && navigation.formData?.get("intent") === "create";
  useLiveRevalidation(["forum"]);
  const filtered = Boolean(filters.q || filters.category || filters.tag);

  return (
    <div className="mx-auto max-w-6xl">
      <div className="mb-6 flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold text-slate-900">Forum</h1>
          <p className="mt-1 text-slate-600">Posez vos questions, partagez vos projets et vos ressources.</p>
        </div>
        {openReports > 0 && (
          <Link to="/admin/forum" className={buttonClasses({ variant: "outline", size: "sm" })}>
            <Flag aria-hidden="true" className="size-4" />
            {plural(openReports, "signalement", "signalements")} à traiter
          </Link>
        )}
      </div>

      <div className="grid grid-cols-1 gap-6 lg:grid-cols-[16rem_minmax(0,1fr)]">
        <aside className="space-y-5" aria-label="Parcourir le forum">
          <Link to={forumHref({ ...filters, composing: true })} className={buttonClasses({ className: "w-full" })}>
            <Plus aria-hidden="true" className="size-5" />
            Nouveau post
          </Link>

          <Form method="get" action={FORUM_PATH} role="search" className="relative">
            {filters.category && <input type="hidden" name="categorie" value={filters.category} />}
            <label htmlFor="forum-recherche" className="sr-only">
              Rechercher dans le forum
            </label>
            <Search aria-hidden="true" className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-500" />
            <Input
              id="forum-recherche"
              type="search"
              name="q"
              defaultValue={filters.q}
              maxLength={LIMITS.search}
              placeholder="Rechercher un post…"
              className="pl-9"
            />
          </Form>

          <nav aria-labelledby="forum-categories">
            <h2 id="forum-categories" className="mb-2 text-sm font-semibold tracking-wide text-slate-600 uppercase">
              Catégories
            </h2>
            <ul className="-mx-4 flex gap-2 overflow-x-auto px-4 pb-1 sm:mx-0 sm:flex-wrap sm:px-0 lg:block lg:space-y-1">
              {[{ slug: null, name: "Tout", count: overview.total }, ...overview.categories].map((category) => {
                const active = filters.category === category.slug;
                return (
                  <li key={category.slug ?? "tout"} className="shrink-0">
                    <Link
                      to={forumHref({ q: filters.q, category: category.slug as ForumCategory | null })}
                      aria-current={active ? "page" : undefined}
                      className={cx(
                        "flex items-center justify-between gap-3 rounded-md px-3 py-2 text-sm font-medium whitespace-nowrap",
                        active ? "bg-brand-700 text-white" : "bg-white text-slate-700 ring-1 ring-slate-200 hover:bg-slate-100 lg:ring-0",
                      )}
                    >
                      <span>{category.name}</span>
                      <span className={cx("rounded-full px-2 text-xs", active ? "bg-white/20" : "bg-slate-100 text-slate-700")}>
                        {category.count}
                      </span>
                    </Link>
                  </li>
                );
              })}
            </ul>
          </nav>

          <section aria-labelledby="forum-tendances">
            <h2 id="forum-tendances" className="mb-2 text-sm font-semibold tracking-wide text-slate-600 uppercase">
              Hashtags tendance
            </h2>
            {overview.trending.length === 0 ? (
              <p className="text-sm text-slate-600">Aucun hashtag ces 30 derniers jours.</p>
            ) : (
              <ul className="flex flex-wrap gap-2">
                {overview.trending.map((trend) => (
                  <li key={trend.tag}>
                    <Link
                      to={forumHref({ tag: trend.tag })}
                      className={cx(
                        "inline-flex items-center gap-1 rounded-full px-3 py-1 text-sm font-medium",
                        filters.tag === trend.tag ? "bg-brand-700 text-white" : "bg-brand-50 text-brand-800 hover:bg-brand-100",
                      )}
                    >
                      <Hash aria-hidden="true" className="size-3.5" />
                      {trend.tag}
                      <span className="sr-only"> ({plural(trend.uses, "post", "posts")})</span>
                    </Link>
                  </li>
                ))}
              </ul>
            )}
          </section>
        </aside>

        <div className="min-w-0 space-y-4">
          {composing && (
            <section
              aria-labelledby="nouveau-post-titre"
              id="nouveau-post"
              className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6"
            >
              <h2 id="nouveau-post-titre" className="mb-4 text-lg font-semibold text-slate-900">
                Nouveau post
              </h2>
              {/* Posted to the composing address: a refused post stays open there, even once a live
                  reload (another learner's post) has cleared the action's answer. */}
              <Form method="post" action={forumHref({ ...filters, composing: true })} noValidate className="space-y-4">
                <input type="hidden" name="intent" value="create" />
                {failure?.message && (
                  <p role="alert" className="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm font-medium text-red-900">
                    {failure.message}
                  </p>
                )}
                <Field label="Titre" name="title" required error={failure?.fieldErrors.title}>
                  {(props) => <Input {...props} maxLength={FORUM_LIMITS.title} defaultValue={failure?.values?.title} autoFocus />}
                </Field>
                <Field
                  label="Contenu"
                  name="body"
                  required
                  hint="Texte simple ; les liens et les #hashtags sont reconnus."
                  error={failure?.fieldErrors.body}
                >
                  {(props) => <Textarea {...props} rows={6} maxLength={FORUM_LIMITS.body} defaultValue={failure?.values?.body} />}
                </Field>
                <Field label="Catégorie" name="category">
                  {(props) => (
                    <Select
                      {...props}
                      defaultValue={failure?.values?.category || filters.category || "questions-generales"}
                      options={forumCategories.map((category) => ({ value: category.slug, label: category.name }))}
                    />
                  )}
                </Field>
                <div className="flex flex-wrap gap-3">
                  <Button type="submit" disabled={publishing}>
                    {publishing ? "Publication…" : "Publier"}
                  </Button>
                  <Link to={forumHref(filters)} className={buttonClasses({ variant: "outline" })}>
                    Annuler
                  </Link>
                </div>
              </Form>
            </section>
          )}

          <p className="text-sm text-slate-600" aria-live="polite">
            {plural(total, "post", "posts")}
            {filters.category && ` dans « ${forumCategoryName(filters.category)} »`}
            {filters.tag && ` avec #${filters.tag}`}
            {filters.q && ` pour « ${filters.q} »`}
          </p>

          {threads.length === 0 ? (
            <div className="rounded-lg border border-slate-200 bg-white p-8 text-center">
              <MessageSquare aria-hidden="true" className="mx-auto size-10 text-slate-400" />
              <p className="mt-3 font-semibold text-slate-900">Aucun post trouvé</p>
              {filtered && (
                <Link to={FORUM_PATH} className={buttonClasses({ variant: "outline", className: "mt-4" })}>
                  Voir tous les posts
                </Link>
              )}
            </div>
          ) : (
            <ul className="space-y-3">
              {threads.map((thread) => (
                <li key={thread.id}>
                  <article
                    aria-labelledby={`sujet-${thread.id}`}
                    className={cx(
                      "rounded-lg border bg-white p-4 shadow-sm sm:p-5",
                      thread.pinned ? "border-brand-300" : "border-slate-200",
                      thread.hidden && "opacity-75",
                    )}
                  >
                    <div className="mb-2 flex flex-wrap items-center gap-2">
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
                      {thread.hidden && <Badge tone="amber">Masqué par la modération</Badge>}
                      <Link to={forumHref({ category: thread.category })} className="text-xs font-semibold text-brand-700 hover:underline">
                        {forumCategoryName(thread.category)}
                      </Link>
                    </div>
                    <h2 id={`sujet-${thread.id}`} className="text-lg font-semibold text-slate-900">
                      <Link to={`${FORUM_PATH}/${thread.id}`} className="hover:text-brand-700 hover:underline">
                        {thread.title}
                      </Link>
                    </h2>
                    <p className="mt-1 line-clamp-3 text-sm break-words whitespace-pre-line text-slate-700">{thread.excerpt}</p>
                    {thread.tags.length > 0 && (
                      <ul className="mt-2 flex flex-wrap gap-x-3 gap-y-1" aria-label="Hashtags">
                        {thread.tags.map((tag) => (
                          <li key={tag}>
                            <Link to={forumHref({ tag })} className="text-sm font-medium text-brand-700 hover:underline">
                              #{tag}
                            </Link>
                          </li>
                        ))}
                      </ul>
                    )}
                    <div className="mt-3 flex flex-wrap items-center justify-between gap-3 border-t border-slate-100 pt-3">
                      <AuthorLine author={thread.author} when={thread.when} at={thread.at} iso={thread.iso} />
                      <div className="flex items-center gap-1">
                        <LikeButton threadId={thread.id} liked={thread.likedByMe} count={thread.likeCount} action={FORUM_PATH} />
                        <Link
                          to={`${FORUM_PATH}/${thread.id}#reponses`}
                          className="inline-flex min-h-9 items-center gap-1.5 rounded-md px-2 text-sm font-medium whitespace-nowrap text-slate-700 hover:bg-slate-100"
                        >
                          <MessageSquare aria-hidden="true" className="size-4" />
                          {plural(thread.replyCount, "réponse", "réponses")}
                        </Link>
                        {!thread.locked && (
                          <Link
                            to={`${FORUM_PATH}/${thread.id}#repondre`}
                            className="inline-flex min-h-9 items-center rounded-md px-2 text-sm font-semibold text-brand-700 hover:bg-brand-50"
                          >
                            Répondre
                          </Link>
                        )}
                      </div>
                    </div>
                  </article>
                </li>
              ))}
            </ul>
          )}

          <Pager page={page} pageCount={pages} hrefFor={(to) => forumHref({ ...filters, page: to })} label="Pages du forum" />
        </div>
      </div>
    </div>
  );
}
