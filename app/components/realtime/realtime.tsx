import { createContext, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from "react";
import { useNavigation, useRevalidator } from "react-router";
import type { RealtimeEventData } from "~/lib/realtime";
import { RealtimeConnection, type RealtimeStatus } from "~/lib/realtime-client";

const RealtimeContext = createContext<RealtimeConnection | null>(null);

/**
 * One WebSocket per signed-in page (the shell provides it), opened once the page runs in the
 * browser. Without JavaScript there is none, and every screen still works by posts and reloads.
 */
export function RealtimeProvider({ children }: { children: ReactNode }) {
  const [connection, setConnection] = useState<RealtimeConnection | null>(null);
  useEffect(() => {
    if (typeof WebSocket === "undefined") return;
    const next = new RealtimeConnection();
    setConnection(next);
    next.connect();
    return () => next.stop();
  }, []);
  return <RealtimeContext.Provider value={connection}>{children}</RealtimeContext.Provider>;
}

/** Calls `handler` for every event of `topic` (null: none) while mounted. */
export function useRealtimeEvent(topic: string | null, handler: (event: RealtimeEventData) => void) {
  const connection = useContext(RealtimeContext);
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(() => {
    if (!connection || !topic) return;
    return connection.subscribe(topic, (event) => latest.current(event));
  }, [connection, topic]);
}

/** Calls `handler` when events may have been missed (after a reconnection). */
export function useRealtimeResync(handler: () => void) {
  const connection = useContext(RealtimeContext);
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(() => connection?.onResync(() => latest.current()), [connection]);
}

export function useRealtimeStatus(): RealtimeStatus {
  const connection = useContext(RealtimeContext);
  const [status, setStatus] = useState<RealtimeStatus>(connection?.status ?? "closed");
  useEffect(() => {
    if (!connection) return;
    setStatus(connection.status);
    return connection.onStatus(setStatus);
  }, [connection]);
  return status;
}

/**
 * Returns a function that runs `callback` at once, or, while a navigation or a form is under way
 * (or `busy`), once after it ends. A fetch sent meanwhile could carry a session cookie the answer
 * under way is about to replace, and a reload would interrupt that answer.
 */
export function useWhenIdle(callback: () => void, busy = false): () => void {
  const navigating = useNavigation().state !== "idle";
  const idle = !busy && !navigating;
  const state = useRef({ idle, waiting: false, callback });
  state.current.idle = idle;
  state.current.callback = callback;
  useEffect(() => {
    if (!idle || !state.current.waiting) return;
    state.current.waiting = false;
    state.current.callback();
  }, [idle]);
  return useCallback(() => {
    if (state.current.idle) state.current.callback();
    else state.current.waiting = true;
  }, []);
}

/**
 * Reloads the page's data (its loaders, which check who may see what) when one of `topics` has
 * news, or after a reconnection: at most once per 150 ms, and never over a navigation or a reload
 * under way but after it. Interrupting one would drop what its answer carried once only, such as
 * the toast after a redirect (the user's own post is news on the very page it leads to).
 */
export function useLiveRevalidation(topics: Array<string | null>, accept: (event: RealtimeEventData) => boolean = () => true) {
  const revalidator = useRevalidator();
  const revalidateWhenIdle = useWhenIdle(() => void revalidator.revalidate(), revalidator.state !== "idle");
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const revalidate = useCallback(() => {
    if (timer.current) return;
    timer.current = setTimeout(() => {
      timer.current = undefined;
      revalidateWhenIdle();
    }, 150);
  }, [revalidateWhenIdle]);
  useEffect(() => () => clearTimeout(timer.current), []);
  const connection = useContext(RealtimeContext);
  const key = topics.filter(Boolean).join("|");
  const acceptRef = useRef(accept);
  acceptRef.current = accept;
  useEffect(() => {
    if (!connection || !key) return;
    const stops = key.split("|").map((topic) =>
      connection.subscribe(topic, (event) => {
        if (acceptRef.current(event)) revalidate();
      }),
    );
    return () => stops.forEach((stop) => stop());
  }, [connection, key, revalidate]);
  useRealtimeResync(revalidate);
}
