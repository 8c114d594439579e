import { FileText, HardDrive, Upload, Video } from "~/components/icons";
import { data, Link } from "react-router";
import { dbContext, envContext, userContext } from "~/.server/context";
import {
  attachContentFile,
  CONTENT_LIST_LIMIT,
  deleteContentFile,
  detachContentFile,
  listCourseContent,
  renameContentFile,
  replaceContentFile,
} from "~/.server/courses";
import { isAppError } from "~/.server/errors";
import { uploadLimits } from "~/.server/files/ingest";
import { formFailure } from "~/.server/http/errors";
import { listManagedQuizzes } from "~/.server/quizzes";
import { storageContext } from "~/.server/storage/context";
import { redirectWithToast } from "~/.server/toast";
import { ContentLibrary } from "~/components/courses/content-library";
import { StatCard } from "~/components/ui/stat-card";
import { contentKindLabels, contentKinds, parseContentFilters, parseContentTarget } from "~/lib/content";
import { formatDate } from "~/lib/dates";
import { plural } from "~/lib/format";
import { formatFileSize } from "~/lib/uploads";
import type { Route } from "./+types/content";

const PATH = "/teacher/content";

/**
 * "Gérer Contenus": the videos, documents and cover images of the courses the user manages (a
 * teacher their own, an admin all), per course, with where each is used, its size and a video's
 * low-data versions; the quizzes of each course; the user's uploads not attached yet. Filters
 * ?cours= and ?type=; ?supprimer=<id> asks to confirm a deletion (without JavaScript too).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = context.get(userContext);
  const db = context.get(dbContext);
  const url = new URL(request.url);
  const filters = parseContentFilters(url.searchParams);
  const [content, allCourses, { quizzes }] = await Promise.all([
    listCourseContent(db, user, filters),
    filters.course ? listCourseContent(db, user, { course: null, kind: "quiz" }).then((all) => all.courses) : null,
    listManagedQuizzes(db, user),
  ]);
  const courseOptions = (allCourses ?? content.courses).map((course) => ({ value: String(course.id), label: course.title }));
  const showQuizzes = filters.kind === null || filters.kind === "quiz";
  const describe = (file: (typeof content.unattached)[number]) => ({
    id: file.id,
    name: file.name,
    purpose: file.purpose,
    size: formatFileSize(file.size),
    versionsSize: file.versionsSize ? formatFileSize(file.versionsSize) : null,
    addedOn: formatDate(file.createdAt),
    uses: file.uses,
    transcode: file.transcode,
  });
  const allFiles = [...content.courses.flatMap((course) => course.files), ...content.unattached];
  const deleting = allFiles.find((file) => file.id === url.searchParams.get("supprimer")) ?? null;
  const search = new URLSearchParams(url.searchParams);
  search.delete("supprimer");
  const here = search.size ? `${PATH}?${search}` : PATH;
  return {
    filters: { course: filters.course ? String(filters.course) : "", kind: filters.kind ?? "" },
    here,
    courseOptions,
    kindOptions: contentKinds.map((kind) => ({ value: kind, label: contentKindLabels[kind] })),
    limits: uploadLimits(context.get(envContext)),
    totals: {
      files: content.totals.files,
      bytes: formatFileSize(content.totals.bytes + content.totals.versionsBytes),
      versions: formatFileSize(content.totals.versionsBytes),
      videos: content.totals.videos,
      videosReady: content.totals.videosReady,
      unattached: content.totals.unattached,
    },
    truncated: content.truncated ? CONTENT_LIST_LIMIT : null,
    courses: content.courses.map((course) => ({
      id: course.id,
      title: course.title,
      status: course.status,
      lessons: course.lessons,
      files: course.files.map(describe),
      quizzes: showQuizzes
        ? quizzes
            .filter((quiz) => quiz.courseId === course.id)
            .map((quiz) => ({ id: quiz.id, title: quiz.title, questions: quiz.questionCount }))
        : null,
    })),
    unattached: filters.kind === "quiz" || filters.course ? null : content.unattached.map(describe),
    deleting: deleting ? { id: deleting.id, name: deleting.name, used: deleting.uses.length > 0 } : null,
  };
}

export const meta = () => [{ title: "Gérer Contenus · Espace enseignant" }];

/** Where to come back to: this page with its filters, never another site. */
function backTo(request: Request): string {
  const url = new URL(request.url);
  url.searchParams.delete("supprimer");
  url.searchParams.delete("index");
  return url.searchParams.size ? `${PATH}?${url.searchParams}` : PATH;
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = context.get(userContext);
  const db = context.get(dbContext);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  const fileId = String(form.get("fileId") ?? "");
  const back = backTo(request);
  const values = { fileId, name: String(form.get("name") ?? ""), target: String(form.get("target") ?? "") };
  try {
    switch (intent) {
      case "rename": {
        const { name } = await renameContentFile(db, user, fileId, { name: form.get("name") });
        return redirectWithToast(back, { type: "success", title: "Fichier renommé", description: `Il s'appelle désormais « ${name} ».` });
      }
      case "attach": {
        const { name } = await attachContentFile(db, user, fileId, parseContentTarget(form.get("target")));
        return redirectWithToast(back, { type: "success", title: "Fichier rattaché", description: `« ${name} » est en place.` });
      }
      case "replace": {
        const { places } = await replaceContentFile(db, user, fileId, form.get("replacementId"));
        return redirectWithToast(back, {
          type: "success",
          title: "Fichier remplacé",
          description: places ? `Remplacé à ${plural(places, "endroit", "endroits")}.` : "Le nouveau fichier est en place.",
        });
      }
      case "detach": {
        const lesson = Number(form.get("lessonId"));
        const { name } = await detachContentFile(db, user, fileId, Number.isSafeInteger(lesson) && lesson > 0 ? lesson : null);
        return redirectWithToast(back, {
          type: "success",
          title: "Fichier retiré",
          description: `« ${name} » n'est plus utilisé à cet endroit.`,
        });
      }
      case "delete": {
        const { name } = await deleteContentFile(db, context.get(storageContext), user, fileId);
        return redirectWithToast(back, { type: "success", title: "Fichier supprimé", description: `« ${name} » a été supprimé.` });
      }
      default:
        throw data("Action inconnue.", { status: 400 });
    }
  } catch (error) {
    // Deleted meanwhile (a second click, another tab): said plainly, not a 404 page.
    if (isAppError(error, "not_found")) {
      return redirectWithToast(back, {
        type: "error",
        title: "Fichier introuvable",
        description: "Ce fichier n'existe plus ou ne vous est pas accessible.",
      });
    }
    return formFailure(error, { intent, values });
  }
}

export default function ContentPage({ loaderData, actionData }: Route.ComponentProps) {
  const { totals, truncated } = loaderData;
  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <div>
        <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">Gérer Contenus</h1>
        <p className="mt-2 text-slate-700">
          Les vidéos, documents et images de vos cours : où chacun est utilisé, sa taille, et les versions légères des vidéos.
        </p>
      </div>
      <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <StatCard label="Fichiers" value={totals.files} icon={<FileText className="size-5" />} />
        <StatCard
          label="Espace utilisé"
          value={totals.bytes}
          note={`dont ${totals.versions} de versions légères`}
          icon={<HardDrive className="size-5" />}
        />
        <StatCard
          label="Vidéos"
          value={totals.videos}
          note={`versions légères prêtes : ${totals.videosReady}`}
          icon={<Video className="size-5" />}
        />
        <StatCard
          label="Non rattachés"
          value={totals.unattached}
          note="effacés 24 h après leur envoi"
          icon={<Upload className="size-5" />}
        />
      </dl>
      {truncated ? (
        <p role="status" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">
          Seuls les {truncated} premiers fichiers sont affichés : choisissez un cours pour voir les autres.
        </p>
      ) : null}
      <ContentLibrary data={loaderData} actionData={actionData} />
      <p className="text-sm text-slate-600">
        Les leçons elles-mêmes (titres, textes, ordre) se modifient dans le formulaire de chaque cours, accessible depuis{" "}
        <Link to="/teacher/courses" className="font-medium text-brand-700 underline">
          Mes Cours
        </Link>
        .
      </p>
    </div>
  );
}
