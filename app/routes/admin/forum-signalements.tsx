import { Form, Link, href } from "react-router";
import { z } from "zod";
import { dbContext, userContext } from "~/.server/context";
import { listOpenReports, resolveReport } from "~/.server/forum";
import { formFailure, orHttpError } from "~/.server/http/errors";
import { redirectWithToast } from "~/.server/toast";
import { Button } from "~/components/ui/button";
import { formatDateTime, formatRelative } from "~/lib/dates";
import { plural } from "~/lib/format";
import { serialIdSchema } from "~/lib/schemas";
import type { Route } from "./+types/forum-signalements";

/** /admin/forum: what readers reported in the forum, oldest first, to dismiss or hide. */

const PATH = "/admin/forum";

export async function loader({ context }: Route.LoaderArgs) {
  const now = new Date();
  const reports = await orHttpError(listOpenReports(context.get(dbContext), context.get(userContext)));
  return {
    reports: reports.map(({ createdAt, ...report }) => ({
      ...report,
      when: formatRelative(createdAt, now),
      at: formatDateTime(createdAt),
      iso: createdAt.toISOString(),
    })),
  };
}

export const meta = () => [{ title: "Signalements du forum" }];

const actionSchema = z.object({ reportId: serialIdSchema, decision: z.enum(["dismiss", "hide"]) });

export async function action({ request, context }: Route.ActionArgs) {
  const form = Object.fromEntries(await request.formData());
  const parsed = actionSchema.safeParse(form);
  if (!parsed.success) return formFailure(parsed.error);
  await orHttpError(resolveReport(context.get(dbContext), context.get(userContext), parsed.data.reportId, parsed.data.decision));
  return redirectWithToast(PATH, {
    type: "success",
    title: "Signalement traité",
    description: parsed.data.decision === "hide" ? "Le message est masqué." : "Le signalement est classé sans suite.",
  });
}

export default function ForumReportsPage({ loaderData }: Route.ComponentProps) {
  const { reports } = loaderData;
  return (
    <div className="mx-auto max-w-4xl space-y-6">
      <div>
        <h1 className="text-2xl font-bold text-slate-900">Signalements du forum</h1>
        <p className="mt-1 text-slate-600">
          {reports.length === 0
            ? "Aucun signalement en attente."
            : `${plural(reports.length, "signalement", "signalements")} en attente, les plus anciens d'abord.`}
        </p>
      </div>
      {reports.length > 0 && (
        <ul className="space-y-3">
          {reports.map((report) => (
            <li key={report.id} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
              <p className="text-sm text-slate-600">
                {report.replyId ? "Réponse dans " : "Sujet "}
                <Link
                  to={`${href("/dashboard/forum/:id", { id: String(report.threadId) })}${report.replyId ? `#reponse-${report.replyId}` : ""}`}
                  className="font-semibold text-brand-700 underline underline-offset-2"
                >
                  {report.threadTitle}
                </Link>
                {" · "}signalé par {report.reporter}{" "}
                <time dateTime={report.iso} title={report.at}>
                  {report.when}
                </time>
              </p>
              <blockquote className="mt-2 line-clamp-4 border-l-4 border-slate-200 pl-3 text-sm break-words whitespace-pre-line text-slate-800">
                {report.text}
              </blockquote>
              <p className="mt-2 text-sm text-slate-900">
                <span className="font-semibold">Raison :</span> {report.reason}
              </p>
              <div className="mt-3 flex flex-wrap gap-2">
                <Form method="post">
                  <input type="hidden" name="reportId" value={report.id} />
                  <input type="hidden" name="decision" value="hide" />
                  <Button type="submit" size="sm">
                    Masquer le message
                  </Button>
                </Form>
                <Form method="post">
                  <input type="hidden" name="reportId" value={report.id} />
                  <input type="hidden" name="decision" value="dismiss" />
                  <Button type="submit" variant="outline" size="sm">
                    Classer sans suite
                  </Button>
                </Form>
              </div>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
