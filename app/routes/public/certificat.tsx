import { data, Link, href } from "react-router";
import { getInstitute } from "~/.server/catalogue";
import { certificatesContext, issuerUrls, verifyForVisitor } from "~/.server/certificates";
import { clientIpContext, dbContext } from "~/.server/context";
import { formatRetryAfter } from "~/.server/rate-limit";
import { VerifyForm } from "~/components/certificates/verify-form";
import { Icon } from "~/components/public/icon";
import { SocialIcon } from "~/components/public/social-icon";
import { buttonClasses } from "~/components/ui/button";
import { certificateStateLabels, linkedInAddToProfileUrl } from "~/lib/certificates";
import { formatDate } from "~/lib/dates";
import type { Route } from "./+types/certificat";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: loaderData?.certificate ? `${loaderData.certificate.stateLabel} · ${loaderData.certificate.code}` : "Vérifier un certificat" },
  // A person's name: not for search engines.
  { name: "robots", content: "noindex" },
];

/** Each look-up is counted; a revocation must show at once: never cached. */
export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "no-store" });

/**
 * The public page of one certificate (the QR code's URL): valid, expired or revoked, with the name,
 * the course and the dates, nothing else personal. Rate-limited per address.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const db = context.get(dbContext);
  const result = await verifyForVisitor(db, params.code, context.get(clientIpContext));
  switch (result.status) {
    case "found": {
      const certificate = result.certificate;
      const urls = issuerUrls(context.get(certificatesContext).publicUrl);
      return {
        certificate: {
          code: certificate.code,
          state: certificate.state,
          stateLabel: certificateStateLabels[certificate.state],
          learnerName: certificate.learnerName,
          courseTitle: certificate.courseTitle,
          issuedAt: formatDate(certificate.issuedAt),
          validUntil: certificate.validUntil ? formatDate(certificate.validUntil) : null,
          gradeLabel: certificate.gradeLabel,
          revokedAt: certificate.revokedAt ? formatDate(certificate.revokedAt) : null,
          revokedReason: certificate.revokedReason,
          replacementCode: certificate.replacementCode,
          credentialUrl: urls.credential(certificate.code),
          // The holder adds a valid certificate to their LinkedIn profile from here (LinkedIn's own form, prefilled).
          linkedInUrl:
            certificate.state === "valid"
              ? linkedInAddToProfileUrl({
                  name: certificate.courseTitle,
                  organizationName: (await getInstitute(db)).name,
                  issuedAt: certificate.issuedAt,
                  validUntil: certificate.validUntil,
                  code: certificate.code,
                  url: urls.verification(certificate.code),
                })
              : null,
        },
        message: null,
      };
    }
    case "rate_limited":
      return data(
        {
          certificate: null,
          message: `Trop de vérifications depuis votre connexion : réessayez dans ${formatRetryAfter(result.retryAfterSeconds)}.`,
        },
        { status: 429, headers: { "Retry-After": String(result.retryAfterSeconds) } },
      );
    case "invalid":
    case "not_found":
      return data({ certificate: null, message: "Aucun certificat ne porte ce numéro. Vérifiez la saisie." }, { status: 404 });
  }
}

const stateStyles = {
  valid: { box: "border-green-300 bg-green-50 text-green-900", icon: "circle-check" },
  expired: { box: "border-amber-300 bg-amber-50 text-amber-950", icon: "clock" },
  revoked: { box: "border-red-300 bg-red-50 text-red-900", icon: "x" },
} as const;

export default function CertificatePage({ loaderData, params }: Route.ComponentProps) {
  const { certificate, message } = loaderData;
  return (
    <main className="mx-auto max-w-3xl px-4 py-10 sm:py-14">
      <p className="text-sm">
        <Link to="/certificats" className="font-medium text-brand-700 underline underline-offset-2">
          Vérifier un certificat
        </Link>
      </p>
      {certificate ? (
        <>
          <div role="status" className={`mt-4 flex items-start gap-3 rounded-xl border p-5 ${stateStyles[certificate.state].box}`}>
            <Icon name={stateStyles[certificate.state].icon} className="mt-1 size-7 shrink-0" />
            <div>
              <h1 className="text-2xl font-bold">{certificate.stateLabel}</h1>
              <p className="mt-1">
                {certificate.state === "valid"
                  ? "Ce certificat a été délivré par l'institut et il est valide."
                  : certificate.state === "expired"
                    ? `Ce certificat a été délivré par l'institut ; sa validité a pris fin le ${certificate.validUntil}.`
                    : `Ce certificat a été révoqué par l'institut${certificate.revokedAt ? ` le ${certificate.revokedAt}` : ""} : il n'atteste plus rien.`}
              </p>
              {certificate.state === "revoked" && certificate.revokedReason ? (
                <p className="mt-1">Motif : {certificate.revokedReason}</p>
              ) : null}
              {certificate.replacementCode ? (
                <p className="mt-1">
                  Il a été remplacé par le certificat{" "}
                  <Link
                    to={href("/certificats/:code", { code: certificate.replacementCode })}
                    className="font-semibold underline underline-offset-2"
                  >
                    {certificate.replacementCode}
                  </Link>
                  .
                </p>
              ) : null}
            </div>
          </div>
          <dl className="mt-6 grid gap-x-6 gap-y-3 rounded-xl border border-slate-200 bg-white p-5 shadow-sm sm:grid-cols-[auto_1fr]">
            <dt className="text-slate-600">Titulaire</dt>
            <dd className="text-lg font-semibold text-slate-900">{certificate.learnerName}</dd>
            <dt className="text-slate-600">Formation</dt>
            <dd className="font-semibold text-slate-900">{certificate.courseTitle}</dd>
            {certificate.gradeLabel ? (
              <>
                <dt className="text-slate-600">Mention</dt>
                <dd className="text-slate-900">{certificate.gradeLabel}</dd>
              </>
            ) : null}
            <dt className="text-slate-600">Délivré le</dt>
            <dd className="text-slate-900">{certificate.issuedAt}</dd>
            <dt className="text-slate-600">Valide jusqu'au</dt>
            <dd className="text-slate-900">{certificate.validUntil ?? "Sans date d'expiration"}</dd>
            <dt className="text-slate-600">Numéro</dt>
            <dd className="font-mono text-slate-900">{certificate.code}</dd>
          </dl>
          <div className="mt-4 flex flex-wrap items-center gap-3">
            {certificate.linkedInUrl ? (
              <a href={certificate.linkedInUrl} target="_blank" rel="noopener noreferrer" className={buttonClasses({ size: "sm" })}>
                <SocialIcon network="linkedin" className="size-4" />
                Ajouter à LinkedIn<span className="sr-only"> (s'ouvre sur LinkedIn)</span>
              </a>
            ) : null}
            <a href={certificate.credentialUrl} className="text-sm font-medium text-brand-700 underline underline-offset-2">
              Attestation Open Badges 3.0 (JSON)
            </a>
          </div>
        </>
      ) : (
        <>
          <h1 className="mt-4 flex items-center gap-2 text-2xl font-bold text-slate-900">
            <Icon name="search-x" className="size-7 text-slate-500" />
            Certificat introuvable
          </h1>
          <p role="alert" className="mt-2 text-slate-700">
            {message}
          </p>
        </>
      )}
      <section aria-labelledby="autre" className="mt-8 rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
        <h2 id="autre" className="mb-3 font-semibold text-slate-900">
          Vérifier un autre certificat
        </h2>
        <VerifyForm value={certificate ? "" : params.code.slice(0, 40)} />
      </section>
    </main>
  );
}
