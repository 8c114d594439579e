import { createHash, randomBytes } from "node:crypto";
import { AppError } from "../errors";

/**
 * Where a live session's room comes from. A pasted link (Zoom, Meet, Jitsi...) always works: the
 * same address for everyone. With BBB_URL and BBB_SECRET, the platform runs the room on
 * BigBlueButton through its documented API (https://docs.bigbluebutton.org/development/api):
 * every call is `<BBB_URL>api/<call>?<query>&checksum=<sha1(call + query + secret)>`; `create` is
 * idempotent for one meetingID, `join` is a signed address the browser opens (moderator for the
 * course's managers, viewer for learners), `getRecordings` lists the recordings.
 */

export type RoomRole = "moderator" | "viewer";

/** A room role as BigBlueButton's join call names it. */
const bigBlueButtonRoles: Record<RoomRole, string> = { moderator: "MODERATOR", viewer: "VIEWER" };

export interface RoomSession {
  meetingId: string | null;
  title: string;
  durationMinutes: number;
  joinUrl: string | null;
}

export interface BigBlueButtonConfig {
  url: string;
  secret: string;
  /** Per call (default 8 s): a room that does not answer must not hang the learner's click. */
  timeoutMs?: number;
}

export interface BigBlueButton {
  /** Creates the meeting if it is not running (BigBlueButton ends empty meetings); idempotent. */
  createMeeting(session: RoomSession & { meetingId: string }, options: { welcome?: string; logoutUrl?: string }): Promise<void>;
  /** The signed address that lets this person in with this role. */
  joinUrl(session: { meetingId: string }, person: { id: string; fullName: string }, role: RoomRole): string;
  /** The first published recording's playback address, if any. */
  recordingUrl(session: { meetingId: string }): Promise<string | null>;
}

/** A new meetingID: unguessable, so that nobody joins a meeting by guessing its number. */
export function newMeetingId(): string {
  return `campus-${randomBytes(12).toString("base64url")}`;
}

/** BigBlueButton's checksum: SHA-1 of the call's name, its query string and the shared secret. */
export function bigBlueButtonChecksum(call: string, query: string, secret: string): string {
  return createHash("sha1").update(`${call}${query}${secret}`).digest("hex");
}

/** `call`'s address with its parameters and checksum. */
export function signedCallUrl(config: Pick<BigBlueButtonConfig, "url" | "secret">, call: string, params: Record<string, string>): string {
  const query = new URLSearchParams(params).toString();
  return `${config.url}api/${call}?${query}${query ? "&" : ""}checksum=${bigBlueButtonChecksum(call, query, config.secret)}`;
}

/** The text of `<tag>` in an XML answer (BigBlueButton's answers are small and flat). */
function xmlText(xml: string, tag: string): string | null {
  const match = new RegExp(`<${tag}>(?:<!\\[CDATA\\[)?([\\s\\S]*?)(?:\\]\\]>)?</${tag}>`).exec(xml);
  return match
    ? match[1]!
        .trim()
        .replace(/&amp;/g, "&")
        .replace(/&lt;/g, "<")
        .replace(/&gt;/g, ">")
        .replace(/&quot;/g, '"')
    : null;
}

const unavailable = () => AppError.unavailable("La salle BigBlueButton ne répond pas. Réessayez dans un instant.");

export function createBigBlueButton(config: BigBlueButtonConfig): BigBlueButton {
  const timeoutMs = config.timeoutMs ?? 8_000;

  async function call(name: string, params: Record<string, string>): Promise<string> {
    let response: Response;
    try {
      response = await fetch(signedCallUrl(config, name, params), { signal: AbortSignal.timeout(timeoutMs) });
    } catch {
      throw unavailable();
    }
    const xml = await response.text().catch(() => "");
    if (!response.ok || xmlText(xml, "returncode") !== "SUCCESS") {
      const key = xmlText(xml, "messageKey");
      // getRecordings answers SUCCESS with noRecordings; anything else is a refusal.
      if (key === "checksumError") throw AppError.unavailable("BigBlueButton refuse la signature : vérifiez BBB_SECRET.");
      throw unavailable();
    }
    return xml;
  }

  return {
    async createMeeting(session, options) {
      await call("create", {
        name: session.title,
        meetingID: session.meetingId,
        record: "true",
        autoStartRecording: "false",
        allowStartStopRecording: "true",
        // Some extra minutes: a session that runs late is not cut.
        duration: String(session.durationMinutes + 30),
        ...(options.welcome ? { welcome: options.welcome } : {}),
        ...(options.logoutUrl ? { logoutURL: options.logoutUrl } : {}),
      });
    },
    joinUrl(session, person, role) {
      return signedCallUrl(config, "join", {
        fullName: person.fullName,
        meetingID: session.meetingId,
        role: bigBlueButtonRoles[role],
        userID: person.id,
        redirect: "true",
      });
    },
    async recordingUrl(session) {
      const xml = await call("getRecordings", { meetingID: session.meetingId });
      const playback = /<playback>[\s\S]*?<url>([\s\S]*?)<\/url>/.exec(xml);
      return playback ? playback[1]!.trim().replace(/&amp;/g, "&") : null;
    },
  };
}

/** The BigBlueButton of this configuration, or null when it is not set. */
export function bigBlueButtonFrom(env: { BBB_URL?: string; BBB_SECRET?: string }): BigBlueButton | null {
  return env.BBB_URL && env.BBB_SECRET ? createBigBlueButton({ url: env.BBB_URL, secret: env.BBB_SECRET }) : null;
}
