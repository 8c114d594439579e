import { CircleCheck, Circle, PlayCircle } from "~/components/icons";
import { Link, href } from "react-router";
import { formatMinutes } from "~/lib/format";

export type OutlineLesson = { id: number; title: string; durationMinutes: number; done: boolean };

/** The course's lessons in order, what is done, and the lesson being read. */
export function CourseOutline({ slug, lessons, currentId }: { slug: string; lessons: OutlineLesson[]; currentId?: number }) {
  return (
    <ol className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white">
      {lessons.map((lesson, index) => {
        const current = lesson.id === currentId;
        const Icon = lesson.done ? CircleCheck : current ? PlayCircle : Circle;
        return (
          <li key={lesson.id}>
            <Link
              to={href("/dashboard/formations/:slug/lecons/:lessonId", { slug, lessonId: String(lesson.id) })}
              aria-current={current ? "page" : undefined}
              className={`flex items-start gap-3 px-4 py-3 text-sm hover:bg-slate-50 ${current ? "text-brand-900 bg-brand-50 font-semibold" : "text-slate-800"}`}
            >
              <Icon aria-hidden="true" className={`mt-0.5 size-5 shrink-0 ${lesson.done ? "text-emerald-700" : "text-slate-400"}`} />
              <span className="min-w-0 flex-1">
                <span className="sr-only">{lesson.done ? "Terminée : " : "À faire : "}</span>
                {index + 1}. {lesson.title}
              </span>
              {lesson.durationMinutes > 0 ? (
                <span className="shrink-0 text-slate-600 tabular-nums">{formatMinutes(lesson.durationMinutes)}</span>
              ) : null}
            </Link>
          </li>
        );
      })}
    </ol>
  );
}
