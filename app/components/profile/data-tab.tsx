import { Link } from "react-router";
import { Download, Trash2 } from "~/components/icons";
import { buttonClasses } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";

const EXPORT_PATH = "/dashboard/profile/mes-donnees";

/**
 * « Mes données »: download everything the platform keeps about me; delete my account (on its own
 * confirmation page), or, for staff, why not (`deletionRefusal`).
 */
export function DataTab({ deletionRefusal }: { deletionRefusal: string | null }) {
  return (
    <div className="space-y-6">
      <Card aria-labelledby="telecharger-titre">
        <CardHeader>
          <CardTitle id="telecharger-titre">Télécharger mes données</CardTitle>
          <CardDescription>
            Votre compte, vos inscriptions, vos paiements, votre progression dans les leçons, vos résultats de quiz, vos certificats, les
            messages que vous avez envoyés et vos publications du forum.
          </CardDescription>
        </CardHeader>
        <CardContent className="space-y-3">
          <div className="flex flex-wrap gap-3">
            <a href={`${EXPORT_PATH}?format=json`} className={buttonClasses()} download>
              <Download aria-hidden="true" className="size-4" />
              Télécharger en JSON
            </a>
            <a href={`${EXPORT_PATH}?format=csv`} className={buttonClasses({ variant: "outline" })} download>
              <Download aria-hidden="true" className="size-4" />
              Télécharger en CSV (zip)
            </a>
          </div>
          <p className="text-sm text-slate-700">
            Le JSON tient en un seul fichier, lisible par un programme. Le zip contient un fichier CSV par type de données, à ouvrir dans un
            tableur (Excel, LibreOffice).
          </p>
        </CardContent>
      </Card>

      <Card aria-labelledby="supprimer-titre">
        <CardHeader>
          <CardTitle id="supprimer-titre">Supprimer mon compte</CardTitle>
          <CardDescription>
            Vos données personnelles sont effacées et plus personne ne peut se connecter à ce compte. Vos paiements et vos certificats sont
            gardés sans votre nom, comme la loi l'exige.
          </CardDescription>
        </CardHeader>
        <CardContent>
          {deletionRefusal === null ? (
            <Link
              to="/dashboard/profile/suppression"
              className={buttonClasses({ variant: "outline", className: "border-red-700 text-red-800 hover:bg-red-50" })}
            >
              <Trash2 aria-hidden="true" className="size-4" />
              Supprimer mon compte…
            </Link>
          ) : (
            <p className="text-slate-800">{deletionRefusal}</p>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
