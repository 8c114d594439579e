import { decodeJwt } from "jose";
import { verifyForVisitor } from "~/.server/certificates";
import { clientIpContext, dbContext } from "~/.server/context";
import type { Route } from "./+types/certificat-attestation";

/**
 * A certificate's Open Badges 3.0 credential at a public address, like its verification page (and
 * counted against the same look-ups per address): attestation.json is the credential, as the
 * signed one (attestation.jwt, VC-JWT) carries it.
 */
export async function loader({ params, context, url }: Route.LoaderArgs) {
  const result = await verifyForVisitor(context.get(dbContext), params.code, context.get(clientIpContext));
  const headers = { "Access-Control-Allow-Origin": "*", "Cache-Control": "no-store" };
  if (result.status === "rate_limited")
    return Response.json(
      { error: "Trop de vérifications depuis votre connexion : réessayez plus tard." },
      { status: 429, headers: { ...headers, "Retry-After": String(result.retryAfterSeconds) } },
    );
  if (result.status !== "found") return Response.json({ error: "Aucun certificat ne porte ce numéro." }, { status: 404, headers });
  const jws = result.certificate.credential;
  if (url.pathname.endsWith(".jwt")) return new Response(jws, { headers: { ...headers, "Content-Type": "application/vc+jwt" } });
  // The JWT payload is the credential itself, with the JWT's registered claims beside it.
  const { iss: _iss, jti: _jti, sub: _sub, nbf: _nbf, exp: _exp, ...credential } = decodeJwt(jws);
  return new Response(JSON.stringify(credential, null, 2), {
    headers: { ...headers, "Content-Type": "application/vc+ld+json; charset=utf-8" },
  });
}
