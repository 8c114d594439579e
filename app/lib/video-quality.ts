import { fileUrl, videoVersionUrl } from "./uploads";

/**
 * Which version of a lesson video the player starts with, and how the choices read (issue 13).
 * Browser-safe: used by the lesson loaders and by the player.
 */
export type VideoChoice = "low" | "high" | "original";

/** The lesson page's ?qualite= (a choice without JavaScript is a link). */
export const qualityParams: Record<VideoChoice, string> = { low: "basse", high: "haute", original: "originale" };

export function choiceOfParam(param: string | null): VideoChoice | null {
  const found = (Object.keys(qualityParams) as VideoChoice[]).find((choice) => qualityParams[choice] === param);
  return found ?? null;
}

export type PlayableVideo = {
  id: string;
  size: number;
  versions: { name: "low" | "high"; size: number; height: number }[];
};

export type VideoOption = { choice: VideoChoice; label: string; size: number; url: string };

/** Low first (what a phone on a bad network wants), the original last. */
export function videoOptions(video: PlayableVideo): VideoOption[] {
  return [
    ...video.versions.map((version) => ({
      choice: version.name,
      label: `${version.name === "low" ? "Économie" : "Haute qualité"} (${version.height}p)`,
      size: version.size,
      url: videoVersionUrl(video.id, version.name),
    })),
    { choice: "original" as const, label: "Originale", size: video.size, url: fileUrl(video.id) },
  ];
}

/**
 * The version to start with: the learner's explicit choice; else the low one when they save data
 * (profile setting, or the browser's Save-Data); else the 720p one; the original until versions exist.
 */
export function chooseVideo(video: PlayableVideo, options: { asked?: VideoChoice | null; saveData?: boolean }): VideoChoice {
  const has = (choice: VideoChoice) => choice === "original" || video.versions.some((version) => version.name === choice);
  if (options.asked && has(options.asked)) return options.asked;
  if (options.saveData && has("low")) return "low";
  if (has("high")) return "high";
  return has("low") ? "low" : "original";
}

/** What the Network Information API says of the connection: slow enough for the low version? */
export function connectionIsSlow(connection: { saveData?: boolean; effectiveType?: string } | undefined): boolean {
  if (!connection) return false;
  return Boolean(connection.saveData) || ["slow-2g", "2g", "3g"].includes(connection.effectiveType ?? "");
}
