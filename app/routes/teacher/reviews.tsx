import { Form, Link, href } from "react-router";
import { z } from "zod";
import { dbContext, userContext } from "~/.server/context";
import { orHttpError } from "~/.server/http/errors";
import { canModerateReviews, listCourseRatings, listCourseReviews, setReviewHidden } from "~/.server/reviews";
import { redirectWithToast } from "~/.server/toast";
import { formatRating } from "~/components/public/links";
import { Stars } from "~/components/reviews/stars";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { FilterBar } from "~/components/ui/filter-bar";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { formatDate } from "~/lib/dates";
import { plural } from "~/lib/format";
import { pageSchema, serialIdSchema, wordChoice } from "~/lib/schemas";
import type { Route } from "./+types/reviews";
import { Pager } from "~/components/ui/pager";

/**
 * "Avis des apprenants": /teacher/avis (a teacher's courses) and /admin/avis (every course, where an
 * administrator hides an abusive review). One module, two route ids; the layouts guard who enters,
 * the reviews capability's policy what each one sees and may do.
 */

/** The visibility filter and each choice's word in the URL (?statut=masques). */
const visibilityWords = { all: "tous", visible: "visibles", hidden: "masques" } as const;

const filtersSchema = z.object({
  cours: z.coerce.number().int().positive().max(2_147_483_647).optional().catch(undefined),
  statut: wordChoice(visibilityWords, "all"),
  page: pageSchema,
});

function areaPath(request: Request) {
  return new URL(request.url).pathname.startsWith("/admin/") ? "/admin/avis" : "/teacher/avis";
}

function listSearch(url: URL): string {
  const params = new URLSearchParams();
  for (const key of ["cours", "statut", "page"]) {
    const value = url.searchParams.get(key);
    if (value) params.set(key, value);
  }
  const search = params.toString();
  return search ? `?${search}` : "";
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = context.get(userContext);
  const db = context.get(dbContext);
  const url = new URL(request.url);
  const filters = filtersSchema.parse(Object.fromEntries(url.searchParams));
  const [ratings, list] = await Promise.all([
    listCourseRatings(db, user),
    listCourseReviews(db, user, { courseId: filters.cours ?? null, hidden: filters.statut, page: filters.page }),
  ]);
  return {
    path: areaPath(request),
    search: listSearch(url),
    moderator: canModerateReviews(user),
    filters: { cours: filters.cours ? String(filters.cours) : "", statut: visibilityWords[filters.statut] },
    ratings,
    total: list.total,
    page: list.page,
    pageCount: list.pageCount,
    reviews: list.reviews.map(({ createdAt, updatedAt, hiddenAt, ...review }) => ({
      ...review,
      hidden: hiddenAt !== null,
      date: formatDate(createdAt),
      edited: updatedAt.getTime() - createdAt.getTime() > 60_000 ? formatDate(updatedAt) : null,
    })),
  };
}

const actionSchema = z.object({ reviewId: serialIdSchema, decision: z.enum(["hide", "show"]) });

export async function action({ request, context }: Route.ActionArgs) {
  const user = context.get(userContext);
  const back = `${areaPath(request)}${listSearch(new URL(request.url))}`;
  const parsed = actionSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) throw new Response("Demande invalide.", { status: 400 });
  await orHttpError(setReviewHidden(context.get(dbContext), user, parsed.data.reviewId, parsed.data.decision === "hide"));
  return redirectWithToast(back, {
    type: "success",
    title: parsed.data.decision === "hide" ? "Avis masqué" : "Avis rétabli",
    description:
      parsed.data.decision === "hide"
        ? "Il n'apparaît plus sur la page de la formation ni dans sa note."
        : "Il apparaît de nouveau sur la page de la formation et dans sa note.",
  });
}

export const meta = () => [{ title: "Avis des apprenants" }];

function ratingText(rating: number | null, count: number) {
  return rating === null || count === 0 ? "—" : `${formatRating(rating)} (${plural(count, "avis", "avis")})`;
}

export default function ReviewsPage({ loaderData }: Route.ComponentProps) {
  const { path, search, moderator, filters, ratings, reviews, total, page, pageCount } = loaderData;
  const filtered = Boolean(filters.cours || filters.statut !== "tous");
  const pageHref = (target: number) => {
    const params = new URLSearchParams(search);
    if (target > 1) params.set("page", String(target));
    else params.delete("page");
    const query = params.toString();
    return query ? `${path}?${query}` : path;
  };
  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <div>
        <h1 className="text-2xl font-bold text-slate-900">Avis des apprenants</h1>
        <p className="mt-1 text-slate-600">
          {moderator
            ? "Les notes de chaque cours et les avis écrits par leurs apprenants ; un avis abusif peut être masqué."
            : "Les notes de vos cours et les avis écrits par vos apprenants."}
        </p>
      </div>

      <Card aria-labelledby="notes-titre">
        <CardHeader>
          <CardTitle id="notes-titre">Notes par cours</CardTitle>
          <p className="text-sm text-slate-600">
            La note publique combine les avis recueillis par l'institut avant la plateforme (importés) et ceux écrits ici (masqués exclus).
          </p>
        </CardHeader>
        <CardContent>
          {ratings.length === 0 ? (
            <p className="text-sm text-slate-700">Aucun cours.</p>
          ) : (
            <Table label="Tableau des notes par cours">
              <TableHeader>
                <TableRow>
                  <TableHead>Cours</TableHead>
                  <TableHead>Note publique</TableHead>
                  <TableHead>Importés</TableHead>
                  <TableHead>Sur la plateforme</TableHead>
                  <TableHead>Masqués</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {ratings.map((course) => (
                  <TableRow key={course.id}>
                    <TableHead scope="row" className="font-medium whitespace-normal">
                      <Link to={`${path}?cours=${course.id}`} className="text-brand-700 underline underline-offset-2">
                        {course.title}
                      </Link>
                    </TableHead>
                    <TableCell className="whitespace-nowrap">{ratingText(course.rating, course.reviewCount)}</TableCell>
                    <TableCell className="whitespace-nowrap">{ratingText(course.baselineRating, course.baselineReviewCount)}</TableCell>
                    <TableCell className="whitespace-nowrap">{ratingText(course.platformRating, course.platformReviewCount)}</TableCell>
                    <TableCell>{course.hiddenCount}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </CardContent>
      </Card>

      <Card aria-labelledby="avis-titre">
        <CardHeader className="space-y-3">
          <CardTitle id="avis-titre">Avis écrits sur la plateforme</CardTitle>
          <FilterBar
            label="Filtrer les avis"
            id="avis"
            choices={[
              {
                name: "cours",
                label: "Cours",
                value: filters.cours,
                options: [
                  { value: "", label: "Tous les cours" },
                  ...ratings.map((course) => ({ value: String(course.id), label: course.title })),
                ],
              },
              {
                name: "statut",
                label: "Visibilité",
                value: filters.statut,
                className: "sm:w-44",
                options: [
                  { value: "tous", label: "Tous" },
                  { value: "visibles", label: "Visibles" },
                  { value: "masques", label: "Masqués" },
                ],
              },
            ]}
            clearHref={filtered ? path : null}
          />
          <p className="text-sm text-slate-600" aria-live="polite">
            {plural(total, "avis", "avis")}
          </p>
        </CardHeader>
        <CardContent>
          {reviews.length === 0 ? (
            <p className="py-6 text-center text-slate-700">Aucun avis pour l'instant.</p>
          ) : (
            <ul className="space-y-3">
              {reviews.map((review) => (
                <li key={review.id} className="rounded-lg border border-slate-200 p-4">
                  <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
                    <Stars rating={review.rating} />
                    <span className="font-semibold text-slate-900">{review.author}</span>
                    {review.hidden ? <Badge tone="amber">Masqué</Badge> : null}
                  </div>
                  <p className="mt-1 text-sm text-slate-600">
                    <Link
                      to={href("/formations/:slug", { slug: review.courseSlug })}
                      className="text-brand-700 underline underline-offset-2"
                    >
                      {review.courseTitle}
                    </Link>
                    {" · "}
                    {review.date}
                    {review.edited ? ` · modifié le ${review.edited}` : ""}
                  </p>
                  <p className="mt-2 text-sm break-words whitespace-pre-line text-slate-800">{review.body}</p>
                  {moderator ? (
                    <Form method="post" className="mt-3">
                      <input type="hidden" name="reviewId" value={review.id} />
                      <input type="hidden" name="decision" value={review.hidden ? "show" : "hide"} />
                      <Button
                        type="submit"
                        size="sm"
                        variant="outline"
                        aria-label={`${review.hidden ? "Rétablir" : "Masquer"} l'avis de ${review.author} sur « ${review.courseTitle} »`}
                      >
                        {review.hidden ? "Rétablir" : "Masquer"}
                      </Button>
                    </Form>
                  ) : null}
                </li>
              ))}
            </ul>
          )}
          <Pager page={page} pageCount={pageCount} hrefFor={pageHref} label="Pages des avis" className="mt-4" />
        </CardContent>
      </Card>
    </div>
  );
}
