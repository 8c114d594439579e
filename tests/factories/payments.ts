import type { Database } from "~/.server/db/client";
import { recordCashPayment, startCheckout } from "~/.server/payments";
import type { Payments } from "~/.server/payments/setup";
import { createUser, type TestUser } from "./users";

/** Payment services for tests: no online provider (cash only), mail to the outbox. Pass your own for the test gateway. */
export function cashOnlyPayments(): Payments {
  return { online: null, sandbox: null, publicUrl: "http://campus.test", mailEnv: { LOG_LEVEL: "silent" } };
}

/**
 * A cash payment of the course by the learner, through the payments capability: the checkout
 * (pending, with its reference), then, when `completed`, recorded by an administrator with a
 * receipt number, which opens the course.
 */
export async function createPayment(
  db: Database,
  learner: TestUser,
  course: { id: number },
  options: {
    completed?: boolean;
    admin?: TestUser;
    receiptNumber?: string;
    services?: Payments;
    /** When it was opened and paid (default: now). */ at?: Date;
  } = {},
) {
  const services = options.services ?? cashOnlyPayments();
  const outcome = await startCheckout(db, services, learner, course.id, "cash", options.at);
  if (outcome.kind !== "cash") throw new Error(`createPayment factory: the course is free or already followed (${outcome.kind})`);
  if (!options.completed) return { reference: outcome.reference };
  const admin = options.admin ?? (await createUser(db, { role: "admin", firstName: "Moussa", lastName: "Diallo" }));
  await recordCashPayment(db, services, admin, outcome.reference, options.receiptNumber ?? `R-${outcome.reference}`, options.at);
  return { reference: outcome.reference };
}
