import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { bigBlueButtonChecksum } from "~/.server/live-sessions/providers";

/**
 * A local BigBlueButton that speaks its documented API (create, join, getRecordings, under
 * /bigbluebutton/api/) and refuses a call whose checksum is wrong, as a real server does
 * (returncode FAILED, messageKey checksumError). It records what it received, so tests see the
 * meetings created and who joined with which role.
 */
export interface FakeBigBlueButton {
  /** BBB_URL for the app: "http://127.0.0.1:<port>/bigbluebutton/". */
  url: string;
  secret: string;
  meetings: Map<string, { name: string; duration: string; record: string }>;
  joins: Array<{ meetingID: string; fullName: string; role: string; userID: string }>;
  /** Calls refused for their checksum. */
  refused: string[];
  /** Playback addresses the next getRecordings answers, by meetingID. */
  recordings: Map<string, string>;
  close(): Promise<void>;
}

const xml = (body: string) => `<response><returncode>SUCCESS</returncode>${body}</response>`;

export async function startFakeBigBlueButton(options: { port?: number; secret?: string } = {}): Promise<FakeBigBlueButton> {
  const secret = options.secret ?? "fake-bbb-shared-secret";
  const fake: Omit<FakeBigBlueButton, "url" | "close"> = { secret, meetings: new Map(), joins: [], refused: [], recordings: new Map() };

  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://fake");
    const match = /^\/bigbluebutton\/api\/(\w+)$/.exec(url.pathname);
    const send = (status: number, body: string, type = "text/xml") => res.writeHead(status, { "content-type": type }).end(body);
    if (!match) return send(404, "not found", "text/plain");
    const call = match[1]!;
    // The checksum covers the query string as sent, without its own parameter.
    const query = url.search.slice(1).replace(/&?checksum=[0-9a-f]+$/, "");
    if (url.searchParams.get("checksum") !== bigBlueButtonChecksum(call, query, secret)) {
      fake.refused.push(call);
      return send(
        200,
        "<response><returncode>FAILED</returncode><messageKey>checksumError</messageKey><message>Checksums do not match</message></response>",
      );
    }
    const params = url.searchParams;
    const meetingID = params.get("meetingID") ?? "";
    if (call === "create") {
      fake.meetings.set(meetingID, {
        name: params.get("name") ?? "",
        duration: params.get("duration") ?? "",
        record: params.get("record") ?? "",
      });
      return send(200, xml(`<meetingID>${meetingID}</meetingID><createTime>${Date.now()}</createTime>`));
    }
    if (call === "join") {
      if (!fake.meetings.has(meetingID)) {
        return send(200, "<response><returncode>FAILED</returncode><messageKey>notFound</messageKey></response>");
      }
      fake.joins.push({
        meetingID,
        fullName: params.get("fullName") ?? "",
        role: params.get("role") ?? "",
        userID: params.get("userID") ?? "",
      });
      const name = (params.get("fullName") ?? "").replace(/[<>&"]/g, "");
      return send(
        200,
        `<!doctype html><html lang="fr"><head><title>Salle BigBlueButton (test)</title></head><body><h1>Salle de test</h1><p>${name} (${params.get("role")})</p></body></html>`,
        "text/html; charset=utf-8",
      );
    }
    if (call === "getRecordings") {
      const playback = fake.recordings.get(meetingID);
      return send(
        200,
        playback
          ? xml(
              `<recordings><recording><meetingID>${meetingID}</meetingID><published>true</published><playback><format><type>presentation</type><url>${playback}</url></format></playback></recording></recordings>`,
            )
          : xml("<recordings></recordings><messageKey>noRecordings</messageKey>"),
      );
    }
    return send(200, "<response><returncode>FAILED</returncode><messageKey>unsupportedRequest</messageKey></response>");
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    ...fake,
    url: `http://127.0.0.1:${port}/bigbluebutton/`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
