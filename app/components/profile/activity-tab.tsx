import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import type { ActivityView } from "./types";

export function ActivityTab({ entries }: { entries: ActivityView[] }) {
  return (
    <Card aria-labelledby="activite-titre">
      <CardHeader>
        <CardTitle id="activite-titre">Activité récente</CardTitle>
        <CardDescription>Connexions, modifications du profil et changements de sécurité de votre compte.</CardDescription>
      </CardHeader>
      <CardContent>
        {entries.length === 0 ? (
          <p className="text-slate-700">Aucune activité enregistrée pour le moment.</p>
        ) : (
          <ol className="divide-y divide-slate-200" data-testid="activite">
            {entries.map((entry) => (
              <li key={entry.id} className="flex flex-col gap-1 py-3 sm:flex-row sm:items-baseline sm:justify-between">
                <div>
                  <p className="font-medium text-slate-900">{entry.label}</p>
                  {entry.detail && <p className="text-sm text-slate-700">{entry.detail}</p>}
                </div>
                <time dateTime={entry.iso} title={entry.at} className="shrink-0 text-sm text-slate-600">
                  {entry.when}
                </time>
              </li>
            ))}
          </ol>
        )}
      </CardContent>
    </Card>
  );
}
