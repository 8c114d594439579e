import { data } from "react-router";
import type { SessionUser } from "~/.server/auth/guards";
import { getToast } from "~/.server/toast";
import { readSidebarCollapsed } from "~/lib/sidebar";

/**
 * What every signed-in layout hands to <AppShell>: the user's name and e-mail, the role (for the
 * sidebar's groups), the collapse state read from the cookie, and the pending toast (its cookie
 * cleared in the same response).
 */
export async function shellLoaderData(request: Request, user: SessionUser) {
  const { toast, headers } = await getToast(request);
  return data(
    {
      user: { firstName: user.firstName, lastName: user.lastName, email: user.email, role: user.role },
      collapsed: readSidebarCollapsed(request.headers.get("Cookie")),
      toast,
    },
    headers ? { headers } : undefined,
  );
}
