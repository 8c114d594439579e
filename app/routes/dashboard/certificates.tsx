import {
  Award,
  BadgeCheck,
  BookOpen,
  Download,
  GraduationCap,
  KeyRound,
  Hourglass,
  ShieldCheck,
  Star,
  TrendingUp,
} from "~/components/icons";
import { Link, href } from "react-router";
import { issuerUrls, listMyCertificates } from "~/.server/certificates";
import { getInstitute } from "~/.server/catalogue";
import { dbContext, envContext, userContext } from "~/.server/context";
import { ShareButton } from "~/components/certificates/share-button";
import { SocialIcon } from "~/components/public/social-icon";
import { ProgressBar } from "~/components/learning/progress-bar";
import { Badge, type BadgeTone } from "~/components/ui/badge";
import { buttonClasses } from "~/components/ui/button";
import { StatCard } from "~/components/ui/stat-card";
import { LinkTabs } from "~/components/ui/tabs";
import { certificateStateLabels, gradeBandsText, linkedInAddToProfileUrl, type CertificateState } from "~/lib/certificates";
import { formatDate } from "~/lib/dates";
import { formatPercent } from "~/lib/quiz";
import type { Route } from "./+types/certificates";

export async function loader(args: Route.LoaderArgs) {
  const user = args.context.get(userContext);
  const db = args.context.get(dbContext);
  const urls = issuerUrls(args.context.get(envContext).PUBLIC_URL);
  const [{ earned, revoked, inProgress, tiles }, institute] = await Promise.all([listMyCertificates(db, user), getInstitute(db)]);
  const tab = args.url.searchParams.get("onglet") === "en-cours" ? "en-cours" : "obtenus";
  return {
    tab,
    tiles,
    gradeBands: gradeBandsText(),
    earned: earned.map((certificate) => {
      const verificationUrl = urls.verification(certificate.code);
      return {
        code: certificate.code,
        courseTitle: certificate.courseTitle,
        instructorName: certificate.instructorName,
        issuedAt: formatDate(certificate.issuedAt),
        validUntil: certificate.validUntil ? formatDate(certificate.validUntil) : null,
        score: certificate.score,
        grade: certificate.grade,
        gradeLabel: certificate.gradeLabel,
        credits: certificate.credits,
        skills: certificate.skills,
        state: certificate.state,
        verificationUrl,
        linkedInUrl:
          certificate.state === "valid"
            ? linkedInAddToProfileUrl({
                name: certificate.courseTitle,
                organizationName: institute.name,
                issuedAt: certificate.issuedAt,
                validUntil: certificate.validUntil,
                code: certificate.code,
                url: verificationUrl,
              })
            : null,
      };
    }),
    // Revoked certificates attest nothing: shown apart, with the reason, and nothing to download or share.
    revoked: revoked.map((certificate) => ({
      code: certificate.code,
      courseTitle: certificate.courseTitle,
      issuedAt: formatDate(certificate.issuedAt),
      revokedAt: certificate.revokedAt ? formatDate(certificate.revokedAt) : null,
      revokedReason: certificate.revokedReason,
    })),
    inProgress: inProgress.map((course) => ({ ...course, estimatedEnd: formatDate(course.estimatedEnd) })),
  };
}

export const meta = () => [{ title: "Mes certificats" }];

const gradeTones: Record<string, BadgeTone> = { excellent: "green", tres_bien: "blue", bien: "amber" };
const stateTones: Record<CertificateState, BadgeTone> = { valid: "green", expired: "amber", revoked: "red" };

/**
 * Mes certificats: the five tiles, the certificates earned (download, share, LinkedIn, badge), the
 * revoked ones apart, and the courses on the way to one.
 */
export default function MyCertificatesPage({ loaderData }: Route.ComponentProps) {
  const { tab, tiles, earned, revoked, inProgress, gradeBands } = loaderData;
  return (
    <div className="mx-auto max-w-5xl space-y-6">
      <div>
        <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">Mes certificats</h1>
        <p className="mt-1 text-slate-700">
          Vos certificats de l'institut, vérifiables par tout employeur avec leur numéro ou leur QR code.
        </p>
      </div>

      <dl className="grid grid-cols-2 gap-3 md:grid-cols-5">
        <StatCard label="Certificats" value={tiles.certificates} icon={<Award className="size-5" />} />
        <StatCard label="Crédits" value={tiles.credits} icon={<Star className="size-5" />} />
        <StatCard
          label="Score moyen"
          value={tiles.averageScore === null ? "–" : formatPercent(tiles.averageScore)}
          icon={<TrendingUp className="size-5" />}
        />
        <StatCard label="Terminées" value={tiles.completed} icon={<GraduationCap className="size-5" />} />
        <StatCard label="En cours" value={tiles.inProgress} icon={<BookOpen className="size-5" />} wide />
      </dl>

      <LinkTabs
        label="Certificats"
        current={tab}
        items={[
          { value: "obtenus", label: `Certificats obtenus (${tiles.certificates})`, to: "/dashboard/certificates" },
          { value: "en-cours", label: `En cours (${tiles.inProgress})`, to: "/dashboard/certificates?onglet=en-cours" },
        ]}
      />

      {tab === "obtenus" ? (
        <>
          {earned.length === 0 ? (
            <div className="rounded-lg border border-dashed border-slate-300 bg-white p-8 text-center">
              <Award aria-hidden="true" className="mx-auto size-10 text-slate-400" />
              <h2 className="mt-3 font-semibold text-slate-900">Aucun certificat pour l'instant</h2>
              <p className="mt-1 text-slate-700">
                Terminez toutes les leçons d'une formation et réussissez ses quiz obligatoires : le certificat est délivré aussitôt.
              </p>
              <Link to="/dashboard/certificates?onglet=en-cours" className={buttonClasses({ variant: "outline", className: "mt-4" })}>
                Voir mes formations en cours
              </Link>
            </div>
          ) : (
            <>
              <ul className="grid gap-4 lg:grid-cols-2">
                {earned.map((certificate) => (
                  <li key={certificate.code}>
                    <article
                      aria-labelledby={`certificat-${certificate.code}`}
                      className="flex h-full flex-col rounded-lg border border-slate-200 bg-white p-5 shadow-sm"
                    >
                      <div className="flex flex-wrap items-center gap-2">
                        {certificate.gradeLabel ? (
                          <Badge tone={gradeTones[certificate.grade ?? "bien"]}>{certificate.gradeLabel}</Badge>
                        ) : null}
                        {certificate.score !== null ? (
                          <span className="text-sm font-semibold text-slate-800">Score {formatPercent(certificate.score)}</span>
                        ) : null}
                        {certificate.state !== "valid" ? (
                          <Badge tone={stateTones[certificate.state]}>{certificateStateLabels[certificate.state]}</Badge>
                        ) : null}
                      </div>
                      <h2 id={`certificat-${certificate.code}`} className="mt-2 text-lg font-semibold text-slate-900">
                        {certificate.courseTitle}
                      </h2>
                      <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
                        <dt className="text-slate-600">Délivré le</dt>
                        <dd className="text-slate-900">{certificate.issuedAt}</dd>
                        {certificate.instructorName ? (
                          <>
                            <dt className="text-slate-600">Formateur</dt>
                            <dd className="text-slate-900">{certificate.instructorName}</dd>
                          </>
                        ) : null}
                        <dt className="text-slate-600">N° du certificat</dt>
                        <dd className="font-mono text-slate-900">{certificate.code}</dd>
                        <dt className="text-slate-600">Crédits</dt>
                        <dd className="text-slate-900">{certificate.credits}</dd>
                      </dl>
                      {certificate.skills.length ? (
                        <div className="mt-3">
                          <h3 className="text-sm font-medium text-slate-700">Compétences</h3>
                          <ul className="mt-1 flex flex-wrap gap-1.5">
                            {certificate.skills.map((skill) => (
                              <li key={skill} className="rounded-full bg-slate-100 px-2.5 py-0.5 text-xs text-slate-800">
                                {skill}
                              </li>
                            ))}
                          </ul>
                        </div>
                      ) : null}
                      <p className="mt-3 flex items-center gap-1.5 text-sm text-slate-700">
                        <ShieldCheck aria-hidden="true" className="size-4 text-brand-700" />
                        {certificate.validUntil
                          ? `${certificate.state === "expired" ? "Expiré depuis le" : "Valide jusqu'au"} ${certificate.validUntil}`
                          : "Sans date d'expiration"}
                      </p>
                      <div className="mt-auto flex flex-wrap gap-2 pt-4">
                        <a
                          href={href("/dashboard/certificates/:code/certificat.pdf", { code: certificate.code })}
                          download
                          className={buttonClasses({ size: "sm" })}
                        >
                          <Download aria-hidden="true" className="size-4" />
                          Télécharger<span className="sr-only"> le certificat {certificate.courseTitle} en PDF</span>
                        </a>
                        <ShareButton url={certificate.verificationUrl} title={`Certificat ${certificate.courseTitle}`} />
                        {certificate.linkedInUrl ? (
                          <a
                            href={certificate.linkedInUrl}
                            target="_blank"
                            rel="noopener noreferrer"
                            className={buttonClasses({ variant: "ghost", size: "sm" })}
                          >
                            <SocialIcon network="linkedin" className="size-4" />
                            Ajouter à LinkedIn<span className="sr-only"> (s'ouvre sur LinkedIn)</span>
                          </a>
                        ) : null}
                        <a
                          href={href("/dashboard/certificates/:code/badge.png", { code: certificate.code })}
                          download
                          className={buttonClasses({ variant: "ghost", size: "sm" })}
                        >
                          <BadgeCheck aria-hidden="true" className="size-4" />
                          Badge numérique<span className="sr-only"> (image PNG) du certificat {certificate.courseTitle}</span>
                        </a>
                        <a
                          href={href("/dashboard/certificates/:code/badge.jwt", { code: certificate.code })}
                          download
                          className={buttonClasses({ variant: "ghost", size: "sm" })}
                        >
                          <KeyRound aria-hidden="true" className="size-4" />
                          Attestation signée<span className="sr-only"> (fichier JWT) du certificat {certificate.courseTitle}</span>
                        </a>
                      </div>
                    </article>
                  </li>
                ))}
              </ul>
              <p className="text-sm text-slate-600">
                Mentions : {gradeBands}. Le badge numérique est une image qui contient l'attestation Open Badges 3.0 signée par l'institut :
                elle se vérifie sans passer par notre site.
              </p>
            </>
          )}
          {revoked.length ? <RevokedCertificates certificates={revoked} /> : null}
        </>
      ) : inProgress.length === 0 ? (
        <div className="rounded-lg border border-dashed border-slate-300 bg-white p-8 text-center">
          <Hourglass aria-hidden="true" className="mx-auto size-10 text-slate-400" />
          <h2 className="mt-3 font-semibold text-slate-900">Aucune formation en cours</h2>
          <p className="mt-1 text-slate-700">Inscrivez-vous à une formation pour préparer votre prochain certificat.</p>
          <Link to="/formations" className={buttonClasses({ variant: "outline", className: "mt-4" })}>
            Voir le catalogue
          </Link>
        </div>
      ) : (
        <ul className="grid gap-4 lg:grid-cols-2">
          {inProgress.map((course) => (
            <li key={course.slug}>
              <article
                aria-labelledby={`en-cours-${course.slug}`}
                className="flex h-full flex-col rounded-lg border border-slate-200 bg-white p-5"
              >
                <h2 id={`en-cours-${course.slug}`} className="text-lg font-semibold text-slate-900">
                  {course.title}
                </h2>
                {course.instructorName ? <p className="text-sm text-slate-600">Avec {course.instructorName}</p> : null}
                <div className="mt-3">
                  <ProgressBar value={course.progress} label={`Progression dans ${course.title}`} />
                </div>
                <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
                  <dt className="text-slate-600">Modules terminés</dt>
                  <dd className="text-slate-900">
                    {course.lessonsDone}/{course.lessonCount}
                  </dd>
                  <dt className="text-slate-600">Score requis</dt>
                  <dd className="text-slate-900">
                    {course.requiredScore === null ? "Aucun quiz obligatoire" : formatPercent(course.requiredScore)}
                  </dd>
                  <dt className="text-slate-600">Fin estimée</dt>
                  <dd className="text-slate-900">{course.estimatedEnd}</dd>
                </dl>
                {course.waitingForQuiz ? (
                  <p className="mt-3 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-950">
                    Toutes les leçons sont terminées : réussissez les quiz obligatoires pour obtenir le certificat.
                  </p>
                ) : null}
                <div className="mt-auto pt-4">
                  <Link to={href("/dashboard/formations/:slug", { slug: course.slug })} className={buttonClasses({ size: "sm" })}>
                    Continuer la formation<span className="sr-only"> {course.title}</span>
                  </Link>
                </div>
              </article>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** The revoked certificates, apart from the earned ones: the reason, and no download, share or badge. */
function RevokedCertificates({ certificates }: { certificates: Route.ComponentProps["loaderData"]["revoked"] }) {
  return (
    <section aria-labelledby="revoques" className="space-y-3">
      <h2 id="revoques" className="text-lg font-semibold text-slate-900">
        Certificats révoqués ({certificates.length})
      </h2>
      <ul className="grid gap-4 lg:grid-cols-2">
        {certificates.map((certificate) => (
          <li key={certificate.code}>
            <article
              aria-labelledby={`revoque-${certificate.code}`}
              className="flex h-full flex-col rounded-lg border border-red-200 bg-white p-5"
            >
              <div>
                <Badge tone="red">{certificateStateLabels.revoked}</Badge>
              </div>
              <h3 id={`revoque-${certificate.code}`} className="mt-2 text-lg font-semibold text-slate-900">
                {certificate.courseTitle}
              </h3>
              <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
                <dt className="text-slate-600">Délivré le</dt>
                <dd className="text-slate-900">{certificate.issuedAt}</dd>
                {certificate.revokedAt ? (
                  <>
                    <dt className="text-slate-600">Révoqué le</dt>
                    <dd className="text-slate-900">{certificate.revokedAt}</dd>
                  </>
                ) : null}
                <dt className="text-slate-600">Motif</dt>
                <dd className="text-slate-900">{certificate.revokedReason ?? "Non précisé"}</dd>
                <dt className="text-slate-600">N° du certificat</dt>
                <dd className="font-mono text-slate-900">{certificate.code}</dd>
              </dl>
              <p className="mt-3 text-sm text-slate-700">
                Ce certificat n'atteste plus rien : il ne peut plus être téléchargé ni partagé. Pour toute question, contactez l'institut.
              </p>
            </article>
          </li>
        ))}
      </ul>
    </section>
  );
}
