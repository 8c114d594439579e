import fs from "node:fs";
import path from "node:path";
import { expect } from "@playwright/test";
import type { ReceivedMail } from "../setup/smtp";

/**
 * The mails the e2e server sends: it speaks SMTP to the test SMTP server that global-setup.ts starts
 * in the runner, which keeps each mail as a JSON file here, where every worker can read it.
 */
function mailboxDir(): string {
  return path.join(process.env.E2E_DATA_DIR!, "mailbox");
}

let kept = 0;

/** Files one received mail (written whole, then renamed, so that a reader never sees half of it). */
export function keepMail(mail: ReceivedMail) {
  fs.mkdirSync(mailboxDir(), { recursive: true });
  const name = `${Date.now()}-${String(++kept).padStart(6, "0")}.json`;
  const partial = path.join(mailboxDir(), `.${name}`);
  fs.writeFileSync(partial, JSON.stringify(mail));
  fs.renameSync(partial, path.join(mailboxDir(), name));
}

/** Every mail to `to` kept so far, oldest first. */
export function mailsTo(to: string): ReceivedMail[] {
  if (!fs.existsSync(mailboxDir())) return [];
  return fs
    .readdirSync(mailboxDir())
    .filter((name) => !name.startsWith("."))
    .sort()
    .map((name) => JSON.parse(fs.readFileSync(path.join(mailboxDir(), name), "utf8")) as ReceivedMail)
    .filter((mail) => mail.to.includes(to.toLowerCase()));
}

/** The latest mail to `to` whose subject matches, once it has arrived. */
export async function waitForMail(to: string, subject: RegExp): Promise<ReceivedMail> {
  let found: ReceivedMail | undefined;
  await expect
    .poll(() => (found = mailsTo(to).findLast((mail) => subject.test(mail.subject))), {
      message: `a mail to ${to} (${subject})`,
      timeout: 15_000,
    })
    .toBeDefined();
  return found!;
}
