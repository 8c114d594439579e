import { RealtimeConnection } from "~/lib/realtime-client";

declare global {
  interface Window {
    campusRealtime?: RealtimeConnection;
  }
}

/**
 * The page's one WebSocket (app/lib/realtime-client.ts), shared by the shell's script and the
 * page's own scripts, which are separate files: the first to ask opens it. None without WebSocket.
 */
export function pageRealtime(): RealtimeConnection | null {
  if (typeof WebSocket === "undefined") return null;
  if (!window.campusRealtime) {
    window.campusRealtime = new RealtimeConnection();
    window.campusRealtime.connect();
  }
  return window.campusRealtime;
}
