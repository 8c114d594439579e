import { CloudUpload } from "lucide-react";
import { useEffect, useState } from "react";
import { Link, useRevalidator } from "react-router";
import {
  forgetOtherLearnersProgress,
  onPendingChange,
  pendingProgress,
  sendPendingProgress,
  type PendingProgress,
} from "~/lib/offline/outbox";
import { DOWNLOADS_PATH, forgetOtherLearners } from "~/lib/offline/store";

/** What waits to be sent for this learner, kept up to date (this tab, other tabs). */
export function usePendingProgress(userId: string): PendingProgress[] {
  const [pending, setPending] = useState<PendingProgress[]>([]);
  useEffect(() => {
    const update = () => setPending(pendingProgress(userId));
    update();
    return onPendingChange(update);
  }, [userId]);
  return pending;
}

/**
 * In every signed-in page: sends the progress kept offline as soon as the network is there (on
 * opening, and when it returns), refreshes the page's figures once sent, and says what still
 * waits. Also removes what another learner left on this phone (a session that ended without
 * signing out): their stored lessons and their unsent progress.
 */
export function OfflineSync({ userId }: { userId: string }) {
  const pending = usePendingProgress(userId);
  const revalidator = useRevalidator();

  useEffect(() => {
    void forgetOtherLearners(userId);
    forgetOtherLearnersProgress(userId);
    const send = async () => {
      const before = pendingProgress(userId).length;
      if (!before || !navigator.onLine) return;
      const left = await sendPendingProgress(userId);
      if (left < before) void revalidator.revalidate();
    };
    void send();
    window.addEventListener("online", send);
    return () => window.removeEventListener("online", send);
    // The revalidator changes on every navigation; sending once per learner and per reconnection is enough.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [userId]);

  if (pending.length === 0) return null;
  return (
    <p
      role="status"
      className="mb-4 flex flex-wrap items-center gap-2 rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950"
    >
      <CloudUpload aria-hidden="true" className="size-5 shrink-0" />
      <span className="min-w-0 flex-1">
        {pending.length > 1
          ? `${pending.length} progressions attendent d'être envoyées : elles partiront dès le retour du réseau.`
          : "Une progression attend d'être envoyée : elle partira dès le retour du réseau."}
      </span>
      <Link to={DOWNLOADS_PATH} className="font-medium underline">
        Voir le détail
      </Link>
    </p>
  );
}
