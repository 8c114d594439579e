import { Link } from "react-router";
import { LegalPage } from "~/components/about/legal-page";
import { getInstitute } from "~/.server/catalogue";
import { dbContext } from "~/.server/context";
import { pageMeta } from "~/lib/seo";
import type { Route } from "./+types/conditions-utilisation";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: "Conditions d'utilisation",
    description: "Les règles d'utilisation du site et de la plateforme de formation de l'institut.",
    path: "/conditions-utilisation",
  });

export async function loader({ context }: Route.LoaderArgs) {
  const { name, shortName, address, email } = await getInstitute(context.get(dbContext));
  return { institute: { name, shortName, address, email } };
}

export default function Terms({ loaderData }: Route.ComponentProps) {
  const { institute } = loaderData;
  return (
    <LegalPage
      title="Conditions d'utilisation"
      intro={
        <p>
          Les présentes conditions régissent l'utilisation du site et de la plateforme de formation de l'
          {institute.name} (« l'{institute.shortName} »). En utilisant le site, vous les acceptez.
        </p>
      }
      sections={[
        {
          title: "Objet",
          body: (
            <p>
              Le site présente l'offre de formation de l'{institute.shortName} et permet aux apprenants de créer un compte, de s'inscrire
              aux formations et de suivre leurs cours en ligne.
            </p>
          ),
        },
        {
          title: "Compte apprenant",
          body: (
            <p>
              Vous êtes responsable de la confidentialité de votre mot de passe et des actions effectuées avec votre compte. Signalez-nous
              sans délai toute utilisation non autorisée.
            </p>
          ),
        },
        {
          title: "Inscriptions et paiements",
          body: (
            <p>
              Les prix sont indiqués en francs CFA (FCFA). Les modalités de paiement (mobile money, carte bancaire, espèces à nos bureaux),
              de report et de remboursement sont à compléter par le service juridique.
            </p>
          ),
        },
        {
          title: "Propriété intellectuelle",
          body: (
            <p>
              Les contenus des formations (vidéos, documents, exercices, quiz) sont réservés à l'usage personnel des apprenants inscrits.
              Toute reproduction ou diffusion sans autorisation écrite est interdite.
            </p>
          ),
        },
        {
          title: "Comportement sur la plateforme",
          body: <p>Le forum et la messagerie doivent rester courtois et respectueux. L'institut peut suspendre un compte en cas d'abus.</p>,
        },
        {
          title: "Responsabilité et droit applicable",
          body: (
            <p>
              Les présentes conditions sont soumises au droit malien. À compléter par le service juridique. Pour toute question :{" "}
              <a href={`mailto:${institute.email}`}>{institute.email}</a> ou notre <Link to="/contact">page de contact</Link>.
            </p>
          ),
        },
      ]}
    />
  );
}
