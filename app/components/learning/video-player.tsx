import { useEffect, useRef, useState, type RefObject } from "react";
import { Icon } from "~/components/public/icon";
import { formatFileSize, videoVersionUrl } from "~/lib/uploads";
import { connectionIsSlow, qualityParams, videoOptions, type PlayableVideo, type VideoChoice } from "~/lib/video-quality";

export type PlayerVideo = PlayableVideo & { name: string; poster: boolean };

export type PlayerOptions = {
  /** What the server chose (the learner's ?qualite=, their "Économie de données", Save-Data). */
  initial: VideoChoice;
  /** The learner chose in the address: the connection does not overrule them. */
  explicit?: boolean;
  /** "Économie de données": nothing is loaded before the learner presses play. */
  dataSaver?: boolean;
  /** Where to start, in seconds (a media fragment: works without JavaScript). */
  startAt?: number;
  videoRef?: RefObject<HTMLVideoElement | null>;
};

/**
 * A lesson video and its versions: the one chosen plays; each choice shows its size and is a link
 * (?qualite=), which JavaScript turns into a switch in place that keeps the position. On a
 * connection the browser reports as slow or saving data, the low version is taken before anything
 * plays.
 */
export function VideoPlayer({ video, title, options }: { video: PlayerVideo; title: string; options: PlayerOptions }) {
  const choices = videoOptions(video);
  const [choice, setChoice] = useState<VideoChoice>(options.initial);
  const ownRef = useRef<HTMLVideoElement>(null);
  const ref = options.videoRef ?? ownRef;
  const current = choices.find((option) => option.choice === choice) ?? choices[choices.length - 1]!;
  const fragment = options.startAt && options.startAt > 0 ? `#t=${options.startAt}` : "";
  // The address played; a switch puts the position it was at in its fragment.
  const [src, setSrc] = useState(`${current.url}${fragment}`);
  const resume = useRef(false);

  function switchTo(next: VideoChoice) {
    const element = ref.current;
    const option = choices.find((item) => item.choice === next);
    if (!option || next === choice) return;
    const at = Math.floor(element?.currentTime ?? 0);
    resume.current = Boolean(element && !element.paused);
    setSrc(`${option.url}${at > 0 ? `#t=${at}` : fragment}`);
    setChoice(next);
  }

  useEffect(() => {
    if (options.explicit || options.initial === "low") return;
    const connection = (navigator as Navigator & { connection?: { saveData?: boolean; effectiveType?: string } }).connection;
    if (connectionIsSlow(connection) && choices.some((option) => option.choice === "low")) switchTo("low");
    // Once, at first render: later network changes do not interrupt a playing video.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    if (resume.current) void ref.current?.play().catch(() => {});
    resume.current = false;
  }, [src, ref]);

  return (
    <figure className="space-y-2">
      <video
        ref={ref}
        key={video.id}
        src={src}
        poster={video.poster ? videoVersionUrl(video.id, "poster") : undefined}
        controls
        preload={options.dataSaver ? "none" : "metadata"}
        playsInline
        className="aspect-video w-full rounded-xl bg-black"
        aria-label={`Vidéo : ${title}`}
      >
        Votre navigateur ne lit pas cette vidéo : <a href={current.url}>téléchargez-la</a>.
      </video>
      <figcaption className="space-y-2 text-sm text-slate-700">
        {choices.length > 1 ? (
          <div className="flex flex-wrap items-center gap-2" role="group" aria-label="Qualité de la vidéo">
            <span className="font-medium text-slate-900">Qualité :</span>
            {choices.map((option) => (
              <a
                key={option.choice}
                href={`?qualite=${qualityParams[option.choice]}`}
                aria-current={option.choice === choice ? "true" : undefined}
                onClick={(event) => {
                  event.preventDefault();
                  switchTo(option.choice);
                }}
                className={[
                  "rounded-full border px-3 py-1",
                  option.choice === choice
                    ? "border-brand-700 bg-brand-700 font-semibold text-white"
                    : "border-slate-300 bg-white text-slate-800 hover:bg-slate-50",
                ].join(" ")}
              >
                {option.label} · {formatFileSize(option.size)}
              </a>
            ))}
          </div>
        ) : (
          <p>Une version légère de cette vidéo est en préparation.</p>
        )}
        <a href={current.url} download={video.name} className="inline-flex items-center gap-1.5 font-medium text-brand-700 hover:underline">
          <Icon name="download" className="size-4" aria-hidden="true" />
          Enregistrer cette vidéo ({formatFileSize(current.size)})
        </a>
      </figcaption>
    </figure>
  );
}
