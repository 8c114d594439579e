import { LegalPage } from "~/components/about/legal-page";
import { telHref } from "~/components/public/links";
import { getInstitute } from "~/.server/catalogue";
import { dbContext } from "~/.server/context";
import { pageMeta } from "~/lib/seo";
import type { Route } from "./+types/mentions-legales";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: "Mentions légales",
    description: "Éditeur du site, directeur de la publication, hébergement et propriété intellectuelle.",
    path: "/mentions-legales",
  });

export async function loader({ context }: Route.LoaderArgs) {
  const { name, chamberName, chamberAcronym, address, email, phones } = await getInstitute(context.get(dbContext));
  return { institute: { name, chamberName, chamberAcronym, address, email, phone: phones[0] } };
}

export default function LegalNotice({ loaderData }: Route.ComponentProps) {
  const { institute } = loaderData;
  return (
    <LegalPage
      title="Mentions légales"
      intro={<p>Informations relatives à l'éditeur et à l'hébergement de ce site.</p>}
      sections={[
        {
          title: "Éditeur du site",
          body: (
            <>
              <p>
                {institute.name}, établissement créé par la {institute.chamberName} ({institute.chamberAcronym}).
              </p>
              <ul>
                <li>Adresse : {institute.address}</li>
                {institute.phone && (
                  <li>
                    Téléphone : <a href={telHref(institute.phone)}>{institute.phone}</a>
                  </li>
                )}
                <li>
                  E-mail : <a href={`mailto:${institute.email}`}>{institute.email}</a>
                </li>
                <li>Numéro d'immatriculation : à compléter.</li>
              </ul>
            </>
          ),
        },
        { title: "Directeur de la publication", body: <p>À compléter par l'institut.</p> },
        { title: "Hébergement", body: <p>Nom, adresse et téléphone de l'hébergeur : à compléter.</p> },
        {
          title: "Propriété intellectuelle",
          body: (
            <p>
              Les textes, logos et contenus pédagogiques de ce site appartiennent à l'{institute.name} ou à ses partenaires. Toute
              reproduction sans autorisation est interdite.
            </p>
          ),
        },
      ]}
    />
  );
}
