import { startTestSmtpServer } from "../setup/smtp";
import { keepMail } from "./mailbox";

/** The SMTP server the e2e server sends its mails to (playwright.config.ts), open for the whole run. */
export default async function globalSetup() {
  const smtp = await startTestSmtpServer({ port: Number(process.env.E2E_SMTP_PORT), onMail: keepMail });
  return () => smtp.close();
}
