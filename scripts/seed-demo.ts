/**
 * Fills a trial database with a plausible past year (sign-ups, enrolments, payments by each
 * method, abandoned payments, refunds, lesson progress, quiz attempts, completions), so that
 * every chart of a trial shows something and the benches run at scale. Refuses a deployment
 * (NODE_ENV or CAMPUS_MODE set to production). On PGlite, stop the server first: it holds DATA_DIR.
 *
 *   npm run seed:demo -- --learners 2000
 */
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { openDatabase } from "../app/.server/db/client";
import { seedDatabase } from "../app/.server/db/seed";
import { demoHistoryRefusal, seedDemoHistory } from "../app/.server/db/seed/demo-history";
import { loadEnv } from "../app/.server/env";

const usage = "Usage : npm run seed:demo -- --learners 2000";

async function main() {
  const refusal = demoHistoryRefusal(process.env);
  if (refusal) {
    console.error(refusal);
    process.exit(2);
  }
  const { values } = parseArgs({ options: { learners: { type: "string", default: "200" } } });
  const learners = z.coerce
    .number({ error: "--learners doit être un nombre" })
    .int("--learners doit être un nombre entier")
    .min(1, "--learners doit valoir au moins 1")
    .max(200_000, "--learners vaut au plus 200 000")
    .safeParse(values.learners);
  if (!learners.success) {
    console.error(`${learners.error.issues.map((issue) => issue.message).join("\n")}\n${usage}`);
    process.exit(2);
  }
  const env = loadEnv();
  const again = demoHistoryRefusal(env);
  if (again) {
    console.error(again);
    process.exit(2);
  }
  const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
  try {
    // A trial's reference data and demo accounts (the admin who recorded the cash).
    await seedDatabase(database.db, { demoAccounts: true });
    const started = Date.now();
    const summary = await seedDemoHistory(database.db, {
      learners: learners.data,
      onProgress: (done) => process.stdout.write(`\r${done} / ${learners.data} apprenants`),
    });
    process.stdout.write("\n");
    // A bulk load leaves the planner's statistics describing empty tables until autovacuum comes by:
    // the first pages would be planned for a few rows, not for a year of history.
    await database.db.execute(sql`analyze`);
    console.log(
      `Historique de démonstration ajouté en ${Math.round((Date.now() - started) / 1000)} s : ${summary.learners} apprenants, ` +
        `${summary.enrolments} inscriptions, paiements ${summary.payments.mobile_money} mobile money / ${summary.payments.card} carte / ` +
        `${summary.payments.cash} espèces, ${summary.abandoned} abandonnés, ${summary.refunds} remboursés, ` +
        `${summary.completions} formations terminées, ${summary.quizAttempts} tentatives de quiz.`,
    );
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
