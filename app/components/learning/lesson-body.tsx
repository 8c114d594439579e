import { Icon } from "~/components/public/icon";
import { fileUrl, formatFileSize } from "~/lib/uploads";
import { chooseVideo } from "~/lib/video-quality";
import { VideoPlayer, type PlayerOptions, type PlayerVideo } from "./video-player";

type LessonFile = { id: string; name: string; size: number; contentType: string };

export type LessonBodyData = {
  title: string;
  description: string;
  content: string;
  videoUrl: string | null;
  video: (LessonFile & PlayerVideo) | null;
  attachments: LessonFile[];
};

/**
 * What a lesson holds, as a learner reads it on a phone: the video with the browser's own
 * controls, in the version that suits the connection (streamed with Range requests, so it starts
 * and seeks without loading it whole), the
 * text in paragraphs (plain text, never HTML), and the documents to open or download.
 */
export function LessonBody({
  lesson,
  className,
  player,
}: {
  lesson: LessonBodyData;
  className?: string;
  /** How the video starts (version, position, data saving); the 720p version by default. */
  player?: PlayerOptions;
}) {
  const paragraphs = lesson.content
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.trim())
    .filter(Boolean);
  return (
    <div className={["space-y-6", className].filter(Boolean).join(" ")}>
      {lesson.video ? (
        <VideoPlayer video={lesson.video} title={lesson.title} options={player ?? { initial: chooseVideo(lesson.video, {}) }} />
      ) : lesson.videoUrl ? (
        <a
          href={lesson.videoUrl}
          target="_blank"
          rel="noopener noreferrer"
          className="flex items-center gap-3 rounded-xl border border-slate-200 bg-white p-4 font-semibold text-brand-700 hover:bg-brand-50"
        >
          <Icon name="circle-play" className="size-8 shrink-0" aria-hidden="true" />
          Regarder la vidéo de la leçon<span className="sr-only"> (s'ouvre sur un autre site)</span>
        </a>
      ) : null}

      {lesson.description ? <p className="text-lg leading-relaxed text-slate-700">{lesson.description}</p> : null}

      {paragraphs.length > 0 ? (
        <div className="space-y-4 leading-relaxed text-slate-800">
          {paragraphs.map((paragraph, index) => (
            <p key={index} className="whitespace-pre-line">
              {paragraph}
            </p>
          ))}
        </div>
      ) : null}

      {lesson.attachments.length > 0 ? (
        <section aria-labelledby="documents-de-la-lecon">
          <h2 id="documents-de-la-lecon" className="text-lg font-bold text-slate-900">
            Documents de la leçon
          </h2>
          <ul className="mt-3 divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white">
            {lesson.attachments.map((file) => (
              <li key={file.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 px-4 py-3">
                <Icon name="download" className="size-5 shrink-0 text-brand-700" aria-hidden="true" />
                <a href={fileUrl(file.id)} className="min-w-0 flex-1 font-medium break-all text-brand-700 hover:underline">
                  {file.name}
                </a>
                <span className="text-sm text-slate-600">{formatFileSize(file.size)}</span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}
