import { formatPercent } from "~/lib/format";
import { sql } from "drizzle-orm";
import { financePeriods, formatPeriodMonth, revenueLabels, revenueNote } from "~/lib/finance";
import { formatNumericDate } from "~/lib/dates";
import { paymentMethodLabels, paymentStatusLabels, type PaymentMethod, type PaymentStatus } from "~/lib/payments";
import { roleLabels, type Role } from "~/lib/roles";
import type { Actor } from "../auth/actor";
import { queryRows, type Database } from "../db/client";
import { AppError } from "../errors";
import { commissionLines, listCommissionMonths, type ReportDocument } from "../finance";
import { canManageFinance } from "../finance/policy";
import { getFinanceSummary, getMonthlyFigures, type Window } from "./admin";
import { collectedBetween } from "./revenue";

/**
 * The reports administrators generate (dashboard: users, courses, financial, analytics,
 * certifications, live sessions; finance: monthly, commissions, tax), as a table of columns and
 * rows with their totals, read over the chosen period. The finance capability stores them.
 */
export const reportKinds = {
  utilisateurs: "Rapport utilisateurs",
  cours: "Rapport cours",
  financier: "Rapport financier",
  analytique: "Rapport analytique avancé",
  certifications: "Rapport certifications",
  sessions: "Rapport sessions en direct",
  mensuel: "Rapport mensuel",
  commissions: "Rapport des commissions",
  fiscal: "Rapport fiscal",
} as const;
export type ReportKind = keyof typeof reportKinds;

export function isReportKind(value: unknown): value is ReportKind {
  return typeof value === "string" && Object.hasOwn(reportKinds, value);
}

const ts = (date: Date) => sql`${date.toISOString()}::timestamptz`;
/** An amount cell: a number in the CSV, « 120 000 FCFA » in the PDF (finance/reports.ts). */
const fcfa = (value: number) => ({ fcfa: Math.round(value) });

export async function buildReport(db: Database, admin: Actor, kind: ReportKind, window: Window): Promise<ReportDocument> {
  if (!canManageFinance(admin)) throw AppError.forbidden("Réservé aux administrateurs.");
  const { from, to } = window;
  const title = `${reportKinds[kind]} — ${financePeriods[window.period].label} au ${formatNumericDate(to)}`;
  const base = { kind, title, periodStart: from, periodEnd: to };
  switch (kind) {
    case "utilisateurs": {
      const rows = await queryRows<{ name: string; email: string; role: string; created_at: string; courses: number }>(
        db,
        sql`select trim(u.first_name || ' ' || u.last_name) as name, u.email, u.role, u.created_at, coalesce(e.courses, 0) as courses
          from users u left join (select user_id, count(*)::int as courses from enrolments
            where activated_at is not null group by user_id) e on e.user_id = u.id
          order by u.created_at desc`,
      );
      const fresh = rows.filter((row) => new Date(row.created_at) >= from).length;
      return {
        ...base,
        columns: ["Nom", "E-mail", "Rôle", "Inscrit le", "Formations suivies"],
        rows: rows.map((row) => [
          row.name,
          row.email,
          roleLabels[row.role as Role] ?? row.role,
          formatNumericDate(new Date(row.created_at)),
          Number(row.courses),
        ]),
        totals: [
          ["Utilisateurs", String(rows.length)],
          ["Nouveaux sur la période", String(fresh)],
        ],
      };
    }
    case "cours": {
      const rows = await queryRows<{
        title: string;
        status: string;
        price: number;
        enrolments: number;
        completed: number;
        revenue: number;
      }>(
        db,
        sql`select c.title, c.status::text as status, c.price_fcfa as price,
            count(e.id) filter (where e.activated_at is not null)::int as enrolments, count(e.completed_at)::int as completed,
            coalesce((select sum(p.amount) from payments p where p.course_id = c.id
              and ${collectedBetween(from, to, "p")}), 0)::float8 as revenue
          from courses c left join enrolments e on e.course_id = c.id group by c.id order by c.title`,
      );
      return {
        ...base,
        columns: ["Formation", "Statut", "Prix", "Inscriptions", "Terminées", "Complétion", revenueLabels.collected],
        rows: rows.map((row) => [
          row.title,
          ({ draft: "Brouillon", published: "Publié", archived: "Archivé" } as Record<string, string>)[row.status] ?? row.status,
          fcfa(Number(row.price)),
          Number(row.enrolments),
          Number(row.completed),
          formatPercent(Number(row.enrolments) ? (Number(row.completed) / Number(row.enrolments)) * 100 : 0),
          fcfa(Number(row.revenue)),
        ]),
        totals: [
          ["Formations", String(rows.length)],
          [revenueLabels.collected, fcfa(rows.reduce((sum, row) => sum + Number(row.revenue), 0))],
        ],
      };
    }
    case "financier": {
      const [summary, rows] = await Promise.all([
        getFinanceSummary(db, admin, window),
        queryRows<{
          at: string;
          reference: string;
          title: string;
          email: string;
          method: string;
          amount: number;
          status: string;
          refunded_at: string | null;
        }>(
          db,
          sql`select coalesce(p.completed_at, p.created_at) as at, p.reference, c.title, u.email, p.method::text as method, p.amount,
              p.status::text as status, p.refunded_at
            from payments p join courses c on c.id = p.course_id join users u on u.id = p.user_id
            where p.created_at >= ${ts(from)} and p.created_at < ${ts(to)}
              or p.completed_at >= ${ts(from)} and p.completed_at < ${ts(to)}
              or p.refunded_at >= ${ts(from)} and p.refunded_at < ${ts(to)}
            order by 1 desc`,
        ),
      ]);
      return {
        ...base,
        columns: ["Date", "Référence", "Formation", "Apprenant", "Moyen", "Montant", "Statut"],
        rows: rows.map((row) => [
          formatNumericDate(new Date(row.at)),
          row.reference,
          row.title,
          row.email,
          paymentMethodLabels[row.method as PaymentMethod],
          fcfa(Number(row.amount)),
          paymentStatusLabels[row.status as PaymentStatus],
        ]),
        totals: [
          [revenueLabels.collected, fcfa(summary.totalRevenue)],
          [revenueLabels.refunds, fcfa(summary.refunds)],
          [revenueLabels.net, fcfa(summary.netRevenue)],
          [revenueLabels.commissions, fcfa(summary.commissionsDue)],
          ["Transactions", String(summary.transactions)],
          ["Marge nette", summary.netMargin === null ? "—" : formatPercent(summary.netMargin)],
          ["Définitions", revenueNote],
        ],
      };
    }
    case "analytique":
    case "mensuel":
    case "fiscal": {
      const months = Math.max(1, Math.ceil(financePeriods[window.period].days / 30.4));
      const figures = await getMonthlyFigures(db, admin, to, months);
      const paid = await queryRows<{ month: string; total: number }>(
        db,
        sql`select period as month, sum(amount)::float8 as total from commission_payouts where status = 'paid' group by 1`,
      );
      const paidBy = new Map(paid.map((row) => [row.month, Number(row.total)]));
      const lines = await commissionLines(db, { from: new Date(`${figures[0]!.month}-01T00:00:00Z`), to });
      const commissionBy = new Map<string, number>();
      for (const line of lines) commissionBy.set(line.period, (commissionBy.get(line.period) ?? 0) + line.commissionFcfa);
      if (kind === "analytique")
        return {
          ...base,
          columns: [
            "Mois",
            "Nouveaux utilisateurs",
            "Inscriptions",
            "Formations terminées",
            revenueLabels.collected,
            revenueLabels.refunds,
          ],
          rows: figures.map((month) => [
            formatPeriodMonth(month.month),
            month.signUps,
            month.enrolments,
            month.completions,
            fcfa(month.revenue),
            fcfa(month.refunds),
          ]),
          totals: [
            ["Nouveaux utilisateurs", String(figures.reduce((sum, month) => sum + month.signUps, 0))],
            ["Inscriptions", String(figures.reduce((sum, month) => sum + month.enrolments, 0))],
            [revenueLabels.collected, fcfa(figures.reduce((sum, month) => sum + month.revenue, 0))],
            [revenueLabels.refunds, fcfa(figures.reduce((sum, month) => sum + month.refunds, 0))],
            ["Définitions", revenueNote],
          ],
        };
      if (kind === "mensuel")
        return {
          ...base,
          columns: [
            "Mois",
            revenueLabels.collected,
            revenueLabels.refunds,
            revenueLabels.commissions,
            "Net pour l'institut (après commissions)",
          ],
          rows: figures.map((month) => {
            const commission = commissionBy.get(month.month) ?? 0;
            return [
              formatPeriodMonth(month.month),
              fcfa(month.revenue),
              fcfa(month.refunds),
              fcfa(commission),
              fcfa(month.revenue - month.refunds - commission),
            ];
          }),
          totals: [
            [revenueLabels.collected, fcfa(figures.reduce((sum, month) => sum + month.revenue, 0))],
            [revenueLabels.refunds, fcfa(figures.reduce((sum, month) => sum + month.refunds, 0))],
            [revenueLabels.commissions, fcfa(figures.reduce((sum, month) => sum + (commissionBy.get(month.month) ?? 0), 0))],
            ["Définitions", revenueNote],
          ],
        };
      return {
        ...base,
        columns: [
          "Mois",
          revenueLabels.collected,
          revenueLabels.refunds,
          `${revenueLabels.net} (base)`,
          "Commissions versées aux enseignants",
        ],
        rows: figures.map((month) => [
          formatPeriodMonth(month.month),
          fcfa(month.revenue),
          fcfa(month.refunds),
          fcfa(month.revenue - month.refunds),
          fcfa(paidBy.get(month.month) ?? 0),
        ]),
        totals: [
          [`${revenueLabels.net} (base)`, fcfa(figures.reduce((sum, month) => sum + month.revenue - month.refunds, 0))],
          ["Définitions", revenueNote],
        ],
      };
    }
    case "commissions": {
      const months = await listCommissionMonths(db, admin, { from, to });
      return {
        ...base,
        columns: ["Mois", "Enseignant", "E-mail", "Formation", "Ventes", "Brut", "Remboursé", "Taux", "Commission", "Statut"],
        rows: months.flatMap((month) =>
          month.lines.map((line) => [
            formatPeriodMonth(line.period),
            line.instructorName,
            line.instructorEmail,
            line.courseTitle,
            line.sales,
            fcfa(line.grossFcfa),
            fcfa(line.refundedFcfa),
            line.minRate === line.maxRate ? formatPercent(line.minRate) : `${line.minRate}–${formatPercent(line.maxRate)}`,
            fcfa(line.commissionFcfa),
            month.payout?.status === "paid" ? "Payée" : month.payout?.status === "processing" ? "Traitement" : "À payer",
          ]),
        ),
        totals: [["Commissions de la période", fcfa(months.reduce((sum, month) => sum + month.commissionFcfa, 0))]],
      };
    }
    case "certifications": {
      const rows = await queryRows<{
        code: string;
        learner_name: string;
        course_title: string;
        issued_at: string;
        grade: string | null;
        score: number | null;
      }>(
        db,
        sql`select code, learner_name, course_title, issued_at, grade::text as grade, score::float8 as score from certificates
          where issued_at >= ${ts(from)} and issued_at < ${ts(to)} order by issued_at desc`,
      );
      return {
        ...base,
        columns: ["Numéro", "Apprenant", "Formation", "Délivré le", "Mention", "Score"],
        rows: rows.map((row) => [
          row.code,
          row.learner_name,
          row.course_title,
          formatNumericDate(new Date(row.issued_at)),
          row.grade ?? "",
          row.score === null ? "" : formatPercent(Number(row.score), { decimals: 2 }),
        ]),
        totals: [["Certificats délivrés", String(rows.length)]],
      };
    }
    case "sessions": {
      const rows = await queryRows<{ title: string; instructor: string | null; next_live_at: string | null; url: string | null }>(
        db,
        sql`select c.title, trim(u.first_name || ' ' || u.last_name) as instructor, c.next_live_at, c.live_session_url as url
          from courses c left join users u on u.id = c.instructor_id
          where c.next_live_at is not null or c.live_session_url is not null order by c.next_live_at nulls last`,
      );
      return {
        ...base,
        columns: ["Formation", "Enseignant", "Prochaine session", "Lien"],
        rows: rows.map((row) => [
          row.title,
          row.instructor ?? "",
          row.next_live_at ? formatNumericDate(new Date(row.next_live_at)) : "",
          row.url ?? "",
        ]),
        totals: [["Formations avec sessions en direct", String(rows.length)]],
      };
    }
  }
}
