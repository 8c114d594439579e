import { useEffect } from "react";
import { useHydrated } from "./use-hydrated";
import { Toaster as Sonner, toast as showToast } from "sonner";

export type ToastMessage = {
  id: string;
  type: "success" | "error";
  title: string;
  description?: string;
};

/**
 * Sonner's container for signed-in areas: one toast at a time, 5 seconds each, below the top bar
 * (its search, bell and the person's name) on every width. Not at the bottom of a phone: there it
 * covered the form buttons a learner reaches for (and a finger resting on it keeps it open).
 */
export function Toaster() {
  return (
    <Sonner
      position="top-right"
      offset={{ top: "5rem", right: "1.5rem" }}
      mobileOffset={{ top: "4.5rem", left: "1rem", right: "1rem" }}
      visibleToasts={1}
      duration={5000}
      closeButton
      containerAriaLabel="Notifications"
      // Our own colours rather than sonner's richColors, whose red fails WCAG AA contrast.
      toastOptions={{
        classNames: {
          toast: "border! shadow-lg!",
          title: "font-semibold!",
          description: "text-sm! text-inherit!",
          success: "bg-green-50! text-green-900! border-green-300!",
          error: "bg-red-50! text-red-900! border-red-300!",
        },
      }}
    />
  );
}

/** Shows a toast handed over by the server (see app/.server/toast.ts) once per id. */
export function useServerToast(toast: ToastMessage | null | undefined) {
  useEffect(() => {
    if (!toast) return;
    // A timeout lets the Toaster mount first on the initial hydration.
    const timer = setTimeout(() => {
      const show = toast.type === "error" ? showToast.error : showToast.success;
      show(toast.title, { id: toast.id, description: toast.description });
    }, 0);
    return () => clearTimeout(timer);
  }, [toast]);
}

/**
 * The same message rendered by the server, for readers without JavaScript (and for the moments
 * before scripts load on a slow network). Removed once the page is hydrated, when sonner shows it;
 * on a page React does not hydrate, app/enhance/toasts.ts moves it into its own toast region.
 */
export function NoScriptToast({ toast }: { toast: ToastMessage | null | undefined }) {
  const hydrated = useHydrated();
  if (!toast || hydrated) return null;
  return (
    <div
      role={toast.type === "error" ? "alert" : "status"}
      data-server-toast={toast.type}
      className={
        "mb-4 rounded-md border px-4 py-3 " +
        (toast.type === "error" ? "border-red-300 bg-red-50 text-red-900" : "border-green-300 bg-green-50 text-green-900")
      }
    >
      <p className="font-semibold">{toast.title}</p>
      {toast.description && <p className="text-sm">{toast.description}</p>}
    </div>
  );
}
