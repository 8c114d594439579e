import { certificatesContext, publishedIssuerProfile, publishedKey, publishedKeySet, revocationList } from "~/.server/certificates";
import { dbContext } from "~/.server/context";
import type { Route } from "./+types/certificats-publics";

const json = (value: unknown, status = 200) =>
  new Response(JSON.stringify(value, null, 2), {
    status,
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Cache-Control": "public, max-age=300",
      "Access-Control-Allow-Origin": "*",
    },
  });

/**
 * What a verifier needs besides a credential, at stable URLs (issuerUrls): the issuer's Open Badges
 * Profile (/certificats/emetteur), its public keys (/certificats/cles, one at /certificats/cles/:kid)
 * and the signed revocation list (/certificats/statut). Readable by anyone, from any site.
 */
export async function loader({ params, context, url }: Route.LoaderArgs) {
  const db = context.get(dbContext);
  const services = context.get(certificatesContext);
  switch (url.pathname.split("/")[2]) {
    case "emetteur":
      return json(await publishedIssuerProfile(db, services));
    case "cles": {
      if ("kid" in params && params.kid) {
        const jwk = await publishedKey(db, services, params.kid);
        return jwk ? json(jwk) : json({ error: "Clé inconnue." }, 404);
      }
      return json(await publishedKeySet(db, services));
    }
    case "statut":
      return new Response(await revocationList(db, services), {
        headers: { "Content-Type": "application/vc+jwt", "Cache-Control": "public, max-age=60", "Access-Control-Allow-Origin": "*" },
      });
    default:
      return json({ error: "Document inconnu." }, 404);
  }
}
