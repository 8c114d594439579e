import { Form, Link, useNavigation, href } from "react-router";
import { z } from "zod";
import { certificatesContext, listAllCertificates, reissueCertificate, revokeCertificate } from "~/.server/certificates";
import { dbContext, userContext } from "~/.server/context";
import { formFailure, orHttpError } from "~/.server/http/errors";
import { redirectWithToast } from "~/.server/toast";
import { Badge, type BadgeTone } from "~/components/ui/badge";
import { buttonClasses } from "~/components/ui/button";
import { FilterBar } from "~/components/ui/filter-bar";
import { certificateStateLabels, type CertificateState } from "~/lib/certificates";
import { formatDate } from "~/lib/dates";
import { plural } from "~/lib/format";
import { failureOf } from "~/lib/form-result";
import { formatPercent } from "~/lib/quiz";
import { ofName } from "~/lib/text";
import type { Route } from "./+types/certificates";

/** /admin/certificates: every certificate issued, searched and filtered; revoke with a reason, re-issue after a name correction. */

const STATUSES = [
  { value: "", label: "Tous" },
  { value: "valide", label: "Valides" },
  { value: "expire", label: "Expirés" },
  { value: "revoque", label: "Révoqués" },
] as const;

export async function loader({ context, url }: Route.LoaderArgs) {
  const q = (url.searchParams.get("q") ?? "").slice(0, 100);
  const statut = url.searchParams.get("statut") ?? "";
  const rows = await orHttpError(listAllCertificates(context.get(dbContext), context.get(userContext), { q, statut }));
  return {
    q,
    statut: STATUSES.some((status) => status.value === statut) ? statut : "",
    certificates: rows.map((row) => ({
      id: row.id,
      code: row.code,
      learnerName: row.learnerName,
      currentName: row.currentName,
      nameChanged: row.nameChanged && !row.replacedAt,
      email: row.email,
      courseTitle: row.courseTitle,
      issuedAt: formatDate(row.issuedAt),
      validUntil: row.validUntil ? formatDate(row.validUntil) : null,
      score: row.score,
      gradeLabel: row.gradeLabel,
      state: row.state,
      replaced: row.replacedAt !== null,
      revokedReason: row.revokedReason,
    })),
  };
}

export const meta = () => [{ title: "Certificats délivrés" }];

const actionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("revoke"), id: z.string().uuid(), reason: z.string().max(2000) }),
  z.object({ intent: z.literal("reissue"), id: z.string().uuid() }),
]);

export async function action({ request, context, url }: Route.ActionArgs) {
  const db = context.get(dbContext);
  const user = context.get(userContext);
  const parsed = actionSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) return formFailure(parsed.error);
  const back = `${url.pathname}${url.search}`;
  try {
    if (parsed.data.intent === "revoke") {
      const revoked = await revokeCertificate(db, user, parsed.data.id, parsed.data.reason);
      return redirectWithToast(back, {
        type: "success",
        title: "Certificat révoqué",
        description: `La page de vérification ${ofName(revoked.code)} le dit désormais ; un e-mail en informe la personne titulaire.`,
      });
    }
    const replacement = await reissueCertificate(db, context.get(certificatesContext), user, parsed.data.id);
    return redirectWithToast(back, {
      type: "success",
      title: "Certificat réémis",
      description: `Nouveau numéro : ${replacement.code}. L'apprenant est prévenu.`,
    });
  } catch (error) {
    return formFailure(error, { intent: `${parsed.data.intent}:${parsed.data.id}` });
  }
}

const stateTones: Record<CertificateState, BadgeTone> = { valid: "green", expired: "amber", revoked: "red" };

export default function AdminCertificatesPage({ loaderData, actionData }: Route.ComponentProps) {
  const { q, statut, certificates } = loaderData;
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  return (
    <div className="mx-auto max-w-5xl space-y-6">
      <div>
        <h1 className="text-2xl font-bold text-slate-900">Certificats délivrés</h1>
        <p className="mt-1 text-slate-600">
          Les certificats sont délivrés par le système quand un apprenant termine une formation. Une révocation s'affiche aussitôt sur la
          page de vérification publique et dans la liste de révocation signée.
        </p>
      </div>

      <FilterBar
        label="Rechercher des certificats"
        id="certificates"
        className="rounded-lg border border-slate-200 bg-white p-4"
        search={{ value: q, placeholder: "Numéro, apprenant ou formation" }}
        choices={[{ name: "statut", label: "État", value: statut, options: STATUSES }]}
        clearHref={q || statut ? "/admin/certificates" : null}
      />

      <p className="text-sm text-slate-700" aria-live="polite">
        {plural(certificates.length, "certificat", "certificats")}
        {certificates.length === 500 ? " (les 500 plus récents)" : ""}
      </p>

      {certificates.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 bg-white p-8 text-center text-slate-700">
          {q || statut
            ? "Aucun certificat ne correspond à cette recherche."
            : "Aucun certificat délivré pour l'instant : le système en délivre un quand un apprenant termine toutes les leçons d'une formation et réussit ses quiz obligatoires."}
        </p>
      ) : (
        <ul className="space-y-3">
          {certificates.map((certificate) => {
            const revokeFailure = failureOf(actionData, `revoke:${certificate.id}`);
            const reissueFailure = failureOf(actionData, `reissue:${certificate.id}`);
            return (
              <li key={certificate.id} className="rounded-lg border border-slate-200 bg-white p-4">
                <div className="flex flex-wrap items-start justify-between gap-2">
                  <div className="min-w-0">
                    <p className="font-semibold text-slate-900">
                      {certificate.learnerName} · {certificate.courseTitle}
                    </p>
                    <p className="text-sm text-slate-600">
                      <Link
                        to={href("/certificats/:code", { code: certificate.code })}
                        className="font-mono text-brand-700 underline underline-offset-2"
                      >
                        {certificate.code}
                      </Link>
                      {" · "}délivré le {certificate.issuedAt}
                      {certificate.validUntil ? ` · valide jusqu'au ${certificate.validUntil}` : ""}
                      {certificate.score !== null ? ` · ${formatPercent(certificate.score)}` : ""}
                      {certificate.gradeLabel ? ` · ${certificate.gradeLabel}` : ""}
                    </p>
                    {certificate.email ? <p className="text-sm text-slate-600">{certificate.email}</p> : null}
                  </div>
                  <Badge tone={stateTones[certificate.state]}>
                    {certificate.replaced ? "Remplacé" : certificateStateLabels[certificate.state].replace("Certificat ", "")}
                  </Badge>
                </div>
                {certificate.revokedReason ? <p className="mt-2 text-sm text-slate-700">Motif : {certificate.revokedReason}</p> : null}
                {certificate.nameChanged ? (
                  <div className="mt-3 rounded-md bg-amber-50 p-3 text-sm text-amber-950">
                    <p>
                      Le nom du compte est maintenant « {certificate.currentName} ». Réémettre révoque ce certificat et en délivre un
                      nouveau à ce nom (mêmes formation, score et dates).
                    </p>
                    <Form method="post" className="mt-2">
                      <input type="hidden" name="intent" value="reissue" />
                      <input type="hidden" name="id" value={certificate.id} />
                      <button type="submit" className={buttonClasses({ size: "sm" })} disabled={busy}>
                        Réémettre au nom {ofName(certificate.currentName ?? "")}
                      </button>
                    </Form>
                    {reissueFailure ? <p className="mt-2 font-medium text-red-700">{reissueFailure.message}</p> : null}
                  </div>
                ) : null}
                {certificate.state !== "revoked" ? (
                  <details className="mt-3" open={Boolean(revokeFailure)}>
                    <summary className="cursor-pointer text-sm font-medium text-red-700">Révoquer ce certificat</summary>
                    <Form method="post" className="mt-2 space-y-2">
                      <input type="hidden" name="intent" value="revoke" />
                      <input type="hidden" name="id" value={certificate.id} />
                      <label htmlFor={`motif-${certificate.id}`} className="block text-sm font-medium text-slate-800">
                        Motif (affiché sur la page de vérification)
                      </label>
                      <textarea
                        id={`motif-${certificate.id}`}
                        name="reason"
                        required
                        minLength={3}
                        maxLength={500}
                        rows={2}
                        aria-invalid={revokeFailure ? true : undefined}
                        aria-describedby={revokeFailure ? `motif-${certificate.id}-erreur` : undefined}
                        className="block w-full rounded-md border border-slate-400 px-3 py-2 text-base"
                      />
                      {revokeFailure ? (
                        <p id={`motif-${certificate.id}-erreur`} className="text-sm font-medium text-red-700">
                          {revokeFailure.fieldErrors.reason ?? revokeFailure.message}
                        </p>
                      ) : null}
                      <button
                        type="submit"
                        className={buttonClasses({ size: "sm", className: "bg-red-700 hover:bg-red-800" })}
                        disabled={busy}
                      >
                        Révoquer
                      </button>
                    </Form>
                  </details>
                ) : null}
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
