import { data } from "react-router";
import type { SessionUser } from "~/.server/auth/guards";
import type { Database } from "~/.server/db/client";
import { countUnreadMessages } from "~/.server/messaging";
import { countUnreadNotifications } from "~/.server/notifications";
import { getToast } from "~/.server/toast";
import { readSidebarCollapsed } from "~/lib/sidebar";

/**
 * What every signed-in layout hands to <AppShell>: the user's name and e-mail, the role (for the
 * sidebar's groups), the collapse state read from the cookie, the pending toast (its cookie
 * cleared in the same response), the bell's unread count and the unread messages (« Messagerie »'s badge).
 */
export async function shellLoaderData(request: Request, user: SessionUser, db: Database) {
  const [{ toast, headers }, unreadNotifications, unreadMessages] = await Promise.all([
    getToast(request),
    countUnreadNotifications(db, user),
    countUnreadMessages(db, user),
  ]);
  return data(
    {
      user: { id: user.id, firstName: user.firstName, lastName: user.lastName, email: user.email, role: user.role },
      unreadNotifications,
      unreadMessages,
      collapsed: readSidebarCollapsed(request.headers.get("Cookie")),
      toast,
    },
    headers ? { headers } : undefined,
  );
}
