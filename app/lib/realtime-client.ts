import {
  CLOSE,
  HEARTBEAT_MS,
  REALTIME_PATH,
  RECONNECT_DELAYS_MS,
  TIMEOUT_MS,
  type ClientFrame,
  type RealtimeEventData,
  type ServerFrame,
} from "./realtime";

export type RealtimeStatus = "connecting" | "open" | "closed" | "stopped";
type EventHandler = (event: RealtimeEventData, topic: string) => void;

/**
 * The browser's one WebSocket to the server (app/.server/realtime/server.ts), shared by every
 * component of the page: it subscribes to the topics components ask for, pings every 25 s, counts
 * the connection lost when no answer comes within 10 s, reconnects after 1, 2, 5 then every 10 s
 * (at once when the network or the tab comes back), and subscribes again. After a reconnection,
 * or when the server says events may have been missed, `onResync` listeners reload what they show.
 * Pages never depend on it: without it they still work by form posts and reloads.
 */
export class RealtimeConnection {
  status: RealtimeStatus = "closed";
  private socket: WebSocket | null = null;
  private readonly handlers = new Map<string, Set<EventHandler>>();
  private readonly resyncHandlers = new Set<() => void>();
  private readonly statusHandlers = new Set<(status: RealtimeStatus) => void>();
  private attempt = 0;
  private everOpened = false;
  private reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  private heartbeatTimer: ReturnType<typeof setInterval> | undefined;
  private deadline: ReturnType<typeof setTimeout> | undefined;
  private readonly url: string;

  constructor(location: Pick<Location, "protocol" | "host"> = window.location) {
    this.url = `${location.protocol === "https:" ? "wss:" : "ws:"}//${location.host}${REALTIME_PATH}`;
    window.addEventListener("online", this.wake);
    document.addEventListener("visibilitychange", this.wake);
  }

  /** Receives `topic`'s events until the returned function is called. */
  subscribe(topic: string, handler: EventHandler): () => void {
    let set = this.handlers.get(topic);
    const fresh = !set;
    if (!set) this.handlers.set(topic, (set = new Set()));
    set.add(handler);
    if (fresh && !topic.startsWith("user:")) this.sendFrame({ type: "subscribe", topics: [topic] });
    return () => {
      const current = this.handlers.get(topic);
      current?.delete(handler);
      if (current && !current.size) {
        this.handlers.delete(topic);
        if (!topic.startsWith("user:")) this.sendFrame({ type: "unsubscribe", topics: [topic] });
      }
    };
  }

  onResync(handler: () => void): () => void {
    this.resyncHandlers.add(handler);
    return () => this.resyncHandlers.delete(handler);
  }

  onStatus(handler: (status: RealtimeStatus) => void): () => void {
    this.statusHandlers.add(handler);
    return () => this.statusHandlers.delete(handler);
  }

  connect(): void {
    if (this.status === "stopped" || this.socket) return;
    clearTimeout(this.reconnectTimer);
    this.setStatus("connecting");
    let socket: WebSocket;
    try {
      socket = new WebSocket(this.url);
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.socket = socket;
    // Not open (or not "ready") within the timeout: give up this try.
    this.armDeadline();
    socket.onmessage = (message) => this.onFrame(message.data);
    socket.onclose = (event) => this.onClose(socket, event.code);
  }

  /** Closes for good (the page is leaving, or the session ended). */
  stop(): void {
    this.setStatus("stopped");
    clearTimeout(this.reconnectTimer);
    this.clearTimers();
    window.removeEventListener("online", this.wake);
    document.removeEventListener("visibilitychange", this.wake);
    this.socket?.close();
    this.socket = null;
  }

  private readonly wake = () => {
    if (this.status !== "closed" || document.visibilityState === "hidden" || !navigator.onLine) return;
    this.attempt = 0;
    this.connect();
  };

  private onFrame(data: unknown) {
    let frame: ServerFrame;
    try {
      frame = JSON.parse(String(data)) as ServerFrame;
    } catch {
      return;
    }
    switch (frame.type) {
      case "ready": {
        clearTimeout(this.deadline);
        const reconnected = this.everOpened;
        this.everOpened = true;
        this.attempt = 0;
        this.setStatus("open");
        const topics = [...this.handlers.keys()].filter((topic) => !topic.startsWith("user:"));
        if (topics.length) this.sendFrame({ type: "subscribe", topics });
        this.startHeartbeat();
        if (reconnected) this.resync();
        break;
      }
      case "pong":
        clearTimeout(this.deadline);
        break;
      case "event":
        for (const handler of this.handlers.get(frame.topic) ?? []) handler(frame.event, frame.topic);
        break;
      case "resync":
        this.resync();
        break;
      default:
        break;
    }
  }

  private onClose(socket: WebSocket, code: number) {
    if (this.socket !== socket) return;
    this.socket = null;
    this.clearTimers();
    if (this.status === "stopped") return;
    if (code === CLOSE.signedOut) {
      this.setStatus("stopped");
      return;
    }
    this.scheduleReconnect();
  }

  private scheduleReconnect() {
    this.setStatus("closed");
    const delay = RECONNECT_DELAYS_MS[Math.min(this.attempt, RECONNECT_DELAYS_MS.length - 1)];
    this.attempt++;
    clearTimeout(this.reconnectTimer);
    // Offline or in a hidden tab: wait for `online` / `visibilitychange` rather than retrying blindly.
    this.reconnectTimer = setTimeout(() => {
      if (navigator.onLine) this.connect();
    }, delay);
  }

  private startHeartbeat() {
    clearInterval(this.heartbeatTimer);
    this.heartbeatTimer = setInterval(() => {
      this.sendFrame({ type: "ping" });
      this.armDeadline();
    }, HEARTBEAT_MS);
  }

  private armDeadline() {
    clearTimeout(this.deadline);
    const socket = this.socket;
    this.deadline = setTimeout(() => {
      // No answer: this connection is as good as lost.
      if (socket && this.socket === socket) socket.close();
      if (socket && this.socket === socket) this.onClose(socket, 1006);
    }, TIMEOUT_MS);
  }

  private clearTimers() {
    clearInterval(this.heartbeatTimer);
    clearTimeout(this.deadline);
  }

  private resync() {
    for (const handler of this.resyncHandlers) handler();
  }

  private sendFrame(frame: ClientFrame) {
    if (this.socket?.readyState === WebSocket.OPEN && this.status === "open") this.socket.send(JSON.stringify(frame));
  }

  private setStatus(status: RealtimeStatus) {
    if (this.status === status) return;
    this.status = status;
    for (const handler of this.statusHandlers) handler(status);
  }
}
