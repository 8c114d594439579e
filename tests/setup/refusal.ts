import { AppError } from "~/.server/errors";

/** The AppError a call was refused with; fails the test when the call went through or threw something else. */
export async function refusalOf(work: Promise<unknown>): Promise<AppError> {
  const outcome = await work.then(
    () => new Error("expected a refusal (AppError), the call went through"),
    (error: unknown) => error,
  );
  if (outcome instanceof AppError) return outcome;
  throw outcome;
}
