import { startTestSmtpServer } from "../setup/smtp";
import { prepareIsolatedServerTemplate } from "./isolated-server";
import { keepMail } from "./mailbox";

/**
 * The SMTP server the e2e server sends its mails to (playwright.config.ts), open for the whole
 * run, and the data folder the specs' own servers start from.
 */
export default async function globalSetup() {
  const smtp = await startTestSmtpServer({ port: Number(process.env.E2E_SMTP_PORT), onMail: keepMail });
  const removeTemplate = await prepareIsolatedServerTemplate();
  return async () => {
    removeTemplate();
    await smtp.close();
  };
}
