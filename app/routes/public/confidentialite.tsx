import { Link } from "react-router";
import { LegalPage } from "~/components/about/legal-page";
import { getInstitute } from "~/.server/catalogue";
import { dbContext } from "~/.server/context";
import { pageMeta } from "~/lib/seo";
import type { Route } from "./+types/confidentialite";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: "Politique de confidentialité",
    description: "Quelles données personnelles l'institut collecte sur ce site, pourquoi, combien de temps, et comment exercer vos droits.",
    path: "/confidentialite",
  });

export async function loader({ context }: Route.LoaderArgs) {
  const { name, address, email } = await getInstitute(context.get(dbContext));
  return { institute: { name, address, email } };
}

export default function Privacy({ loaderData }: Route.ComponentProps) {
  const { institute } = loaderData;
  return (
    <LegalPage
      title="Politique de confidentialité"
      intro={
        <p>
          L'{institute.name} attache une grande importance à la protection de vos données personnelles. Cette page explique quelles données
          nous collectons sur ce site, à quelles fins, et quels sont vos droits.
        </p>
      }
      sections={[
        {
          title: "Responsable du traitement",
          body: (
            <p>
              {institute.name}, {institute.address}. Contact : <a href={`mailto:${institute.email}`}>{institute.email}</a>.
            </p>
          ),
        },
        {
          title: "Données collectées",
          body: (
            <ul>
              <li>Formulaire de contact : nom, adresse e-mail, téléphone (facultatif), sujet, message et centre d'intérêt.</li>
              <li>Lettre d'information : adresse e-mail.</li>
              <li>Compte apprenant : nom, adresse e-mail, informations de profil et progression dans les formations.</li>
              <li>Données techniques : adresse IP, utilisée pour protéger les formulaires contre les abus.</li>
            </ul>
          ),
        },
        {
          title: "Finalités",
          body: (
            <p>
              Ces données servent uniquement à répondre à vos demandes, à gérer vos inscriptions et vos certifications, à vous envoyer la
              lettre d'information si vous l'avez demandée, et à assurer la sécurité du site. Elles ne sont ni vendues ni cédées à des
              tiers.
            </p>
          ),
        },
        {
          title: "Durée de conservation",
          body: <p>À compléter par le service juridique (par exemple : messages de contact conservés 3 ans).</p>,
        },
        {
          title: "Cookies",
          body: (
            <p>
              Le site n'utilise pas de cookies publicitaires ni de mesure d'audience tierce. Un cookie de session est déposé uniquement
              lorsque vous vous connectez à votre compte.
            </p>
          ),
        },
        {
          title: "Vos droits",
          body: (
            <p>
              Conformément à la loi malienne n° 2013-015 du 21 mai 2013 relative à la protection des données à caractère personnel, vous
              pouvez accéder à vos données, les faire rectifier ou supprimer, et vous opposer à leur traitement en écrivant à{" "}
              <a href={`mailto:${institute.email}`}>{institute.email}</a> ou via notre <Link to="/contact">page de contact</Link>. Vous
              pouvez aussi saisir l'Autorité de Protection des Données à caractère Personnel (APDP).
            </p>
          ),
        },
      ]}
    />
  );
}
