import { Link, isRouteErrorResponse } from "react-router";
import { getOptionalUser } from "~/.server/auth/guards";
import { dbContext } from "~/.server/context";
import { orHttpError } from "~/.server/http/errors";
import { getLessonForViewer } from "~/.server/learning";
import { Icon } from "~/components/public/icon";
import { courseHref, enrolHref } from "~/components/public/links";
import { NotFoundContent } from "~/components/public/not-found";
import { LessonBody } from "~/components/learning/lesson-body";
import { buttonClasses } from "~/components/ui/button";
import { pageMeta } from "~/lib/seo";
import { choiceOfParam, chooseVideo } from "~/lib/video-quality";
import type { Route } from "./+types/formation-apercu";

/** The full stylesheet: this page's classes stay out of the public site's light one (app/root.tsx). */
export const handle = { stylesheet: "app" };
/**
 * A free-preview lesson of a published course, open to every visitor (/formations/:slug/apercu/:id):
 * its video, text and documents. The course's team and learners see any lesson of it here
 * (canReadLesson). Anyone else gets the 404 page.
 */
export async function loader(args: Route.LoaderArgs) {
  const lessonId = /^\d{1,9}$/.test(args.params.lessonId) ? Number(args.params.lessonId) : 0;
  const { course, lesson } = await orHttpError(
    getLessonForViewer(args.context.get(dbContext), await getOptionalUser(args), args.params.slug, lessonId),
  );
  // The visitor's ?qualite= only: this page may be served from the anonymous page cache, by address.
  const asked = choiceOfParam(args.url.searchParams.get("qualite"));
  return {
    player: lesson.video ? { initial: chooseVideo(lesson.video, { asked }), explicit: asked !== null } : null,
    course: { slug: course.slug, title: course.title, status: course.status },
    lesson: {
      id: lesson.id,
      title: lesson.title,
      description: lesson.description,
      content: lesson.content,
      durationMinutes: lesson.durationMinutes,
      isFree: lesson.isFree,
      videoUrl: lesson.videoUrl,
      video: lesson.video,
      attachments: lesson.attachments,
    },
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
  if (!loaderData) return [{ title: "Page introuvable" }, { name: "robots", content: "noindex" }];
  const { course, lesson } = loaderData;
  const meta = pageMeta(matches, {
    title: `${lesson.title} · Aperçu de la formation ${course.title}`,
    description: lesson.description || `Une leçon gratuite de la formation ${course.title}.`,
    path: `${courseHref(course.slug)}/apercu/${lesson.id}`,
  });
  return lesson.isFree && course.status === "published" ? meta : [...meta, { name: "robots", content: "noindex" }];
};

export default function LessonPreviewPage({ loaderData }: Route.ComponentProps) {
  const { course, lesson } = loaderData;
  return (
    <main className="mx-auto max-w-4xl px-4 py-8 sm:px-6 lg:py-12">
      <nav aria-label="Fil d'Ariane" className="text-sm text-slate-600">
        <ol className="flex flex-wrap items-center gap-1.5">
          <li>
            <Link to="/formations" className="hover:text-brand-700 hover:underline">
              Formations
            </Link>
          </li>
          <li aria-hidden="true">/</li>
          <li>
            <Link to={courseHref(course.slug)} className="hover:text-brand-700 hover:underline">
              {course.title}
            </Link>
          </li>
          <li aria-hidden="true">/</li>
          <li>
            <span aria-current="page" className="font-medium text-slate-900">
              Aperçu
            </span>
          </li>
        </ol>
      </nav>

      <p className="mt-6 inline-flex items-center gap-1.5 rounded-full bg-emerald-50 px-3 py-1 text-sm font-semibold text-emerald-800 ring-1 ring-emerald-200">
        <Icon name="eye" className="size-4" aria-hidden="true" />
        {lesson.isFree ? "Leçon en aperçu gratuit" : "Aperçu réservé à l'équipe pédagogique"}
      </p>
      <h1 className="mt-3 text-3xl font-extrabold tracking-tight text-slate-900 sm:text-4xl">{lesson.title}</h1>

      <LessonBody lesson={lesson} className="mt-6" player={loaderData.player ?? undefined} />

      <section aria-labelledby="suite" className="mt-10 rounded-2xl bg-brand-800 p-6 text-white sm:p-8">
        <h2 id="suite" className="text-xl font-bold">
          Envie de suivre toute la formation ?
        </h2>
        <p className="mt-2 text-brand-100">
          Inscrivez-vous à « {course.title} » pour accéder à toutes les leçons, aux quiz et au certificat.
        </p>
        <div className="mt-5 flex flex-col gap-3 sm:flex-row">
          {/* A draft or archived course, previewed by its teacher or an administrator, takes no enrolment. */}
          {course.status === "published" ? (
            <Link to={enrolHref(course.slug)} className={buttonClasses({ variant: "secondary", size: "lg" })}>
              S'inscrire
            </Link>
          ) : null}
          <Link to={courseHref(course.slug)} className={buttonClasses({ variant: "inverse", size: "lg" })}>
            Voir le programme
          </Link>
        </div>
      </section>
    </main>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isRouteErrorResponse(error) && error.status === 404) {
    return <NotFoundContent message="Cette leçon n'existe pas ou n'est pas en accès libre. Découvrez le programme de nos formations." />;
  }
  throw error;
}
