import { Link } from "react-router";
import { Hourglass } from "lucide-react";
import { buttonClasses } from "~/components/ui/button";
import type { UpcomingScreen } from "~/lib/sidebar";

/** The page of a screen not built yet: what it will hold, and a way back. Status 200, not 404. */
export function ComingSoon({ screen }: { screen: UpcomingScreen }) {
  return (
    <div className="mx-auto max-w-2xl">
      <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">{screen.title}</h1>
      <div className="mt-6 rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
        <div className="flex items-start gap-4">
          <span className="rounded-full bg-amber-100 p-3 text-amber-800">
            <Hourglass aria-hidden="true" className="size-6" />
          </span>
          <div className="space-y-2">
            <p className="text-lg font-semibold text-slate-900">Bientôt disponible</p>
            <p className="text-slate-700">{screen.description}</p>
            <p className="text-sm text-slate-600">Cet écran est en cours de préparation ; il apparaîtra ici dès qu'il sera prêt.</p>
          </div>
        </div>
        <div className="mt-6">
          <Link to={screen.back.to} className={buttonClasses({ variant: "outline", size: "sm" })}>
            {screen.back.label}
          </Link>
        </div>
      </div>
    </div>
  );
}

export function upcomingKey(pathname: string): string {
  return pathname.replace(/\.data$/, "").replace(/^\/+|\/+$/g, "");
}
