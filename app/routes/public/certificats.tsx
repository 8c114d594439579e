import { data, redirect, href } from "react-router";
import { issuerUrls } from "~/.server/certificates";
import { envContext } from "~/.server/context";
import { VerifyForm } from "~/components/certificates/verify-form";
import { Icon } from "~/components/public/icon";
import { normalizeCertificateCode } from "~/lib/certificates";
import { pageMeta } from "~/lib/seo";
import type { Route } from "./+types/certificats";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: "Vérifier un certificat",
    description:
      "Vérifiez un certificat de l'institut avec son numéro : valide, expiré ou révoqué, au nom de qui et pour quelle formation.",
    path: "/certificats",
  });

/** The code form sends here (GET ?code=…): a well-formed code goes to its page, anything else comes back with a message. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const typed = new URL(request.url).searchParams.get("code");
  const urls = issuerUrls(context.get(envContext).PUBLIC_URL);
  const links = { profile: urls.profile, keys: urls.keys, statusList: urls.statusList };
  if (typed === null) return { typed: "", error: null, links };
  const code = normalizeCertificateCode(typed);
  if (code) throw redirect(href("/certificats/:code", { code }));
  return data(
    {
      typed: typed.slice(0, 40),
      error: typed.trim()
        ? "Ce numéro n'a pas la forme d'un numéro de certificat (ICEF- suivi de 12 lettres et chiffres)."
        : "Saisissez le numéro du certificat.",
      links,
    },
    { status: 400 },
  );
}

export default function VerifyCertificatePage({ loaderData }: Route.ComponentProps) {
  const { typed, error, links } = loaderData;
  return (
    <main className="mx-auto max-w-3xl px-4 py-10 sm:py-14">
      <p className="flex items-center gap-2 text-sm font-semibold text-brand-700">
        <Icon name="badge-check" className="size-5" />
        Vérification
      </p>
      <h1 className="mt-2 text-3xl font-bold text-slate-900">Vérifier un certificat</h1>
      <p className="mt-3 text-slate-700">
        Un employeur ou un organisme peut vérifier qu'un certificat a bien été délivré par l'institut, et qu'il est toujours valide. Scannez
        le QR code du certificat, ou saisissez son numéro.
      </p>
      <section className="mt-6 rounded-xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6">
        <VerifyForm value={typed} error={error} />
      </section>
      <section aria-labelledby="sans-serveur" className="mt-8 space-y-2 text-slate-700">
        <h2 id="sans-serveur" className="text-lg font-semibold text-slate-900">
          Vérifier sans passer par notre site
        </h2>
        <p>
          Chaque certificat est aussi un badge numérique Open Badges 3.0 (une attestation vérifiable du W3C) signé avec la clé Ed25519 de
          l'institut. Le titulaire peut vous remettre ce fichier : sa signature se vérifie avec notre clé publique, et sa révocation
          éventuelle avec notre liste publiée.
        </p>
        <ul className="list-disc space-y-1 pl-5">
          <li>
            <a href={links.profile} className="font-medium text-brand-700 underline underline-offset-2">
              Profil de l'émetteur
            </a>
          </li>
          <li>
            <a href={links.keys} className="font-medium text-brand-700 underline underline-offset-2">
              Clés publiques (JWK)
            </a>
          </li>
          <li>
            <a href={links.statusList} className="font-medium text-brand-700 underline underline-offset-2">
              Liste de révocation (BitstringStatusList)
            </a>
          </li>
        </ul>
      </section>
    </main>
  );
}
