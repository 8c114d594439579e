import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
  subject: string;
  /** The decoded bodies (quoted-printable and base64 parts decoded), concatenated. */
  body: string;
}

export interface TestSmtpServer {
  url: string;
  mails: ReceivedMail[];
  /** Waits until a mail to `to` arrives (polling), then returns the latest one. */
  waitForMail(to: string, options?: { after?: number; timeoutMs?: number }): Promise<ReceivedMail>;
  close(): Promise<void>;
}

function decodeQuotedPrintable(text: string): string {
  const bytes: number[] = [];
  const source = text.replace(/=\r?\n/g, "");
  for (let i = 0; i < source.length; i++) {
    const char = source[i]!;
    if (char === "=" && /^[0-9A-F]{2}$/i.test(source.slice(i + 1, i + 3))) {
      bytes.push(parseInt(source.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(char, "utf8"));
    }
  }
  return Buffer.from(bytes).toString("utf8");
}

function decodeHeader(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, "?==?")
    .replace(/=\?utf-8\?([QB])\?([^?]*)\?=/gi, (_, encoding: string, text: string) =>
      encoding.toUpperCase() === "B" ? Buffer.from(text, "base64").toString("utf8") : decodeQuotedPrintable(text.replace(/_/g, " ")),
    );
}

/** Decodes every MIME part of a raw message well enough to read its text and links. */
export function decodeMail(raw: string): { subject: string; body: string } {
  const [head = "", ...rest] = raw.split(/\r?\n\r?\n/);
  const unfolded = head.replace(/\r?\n[ \t]+/g, " ");
  const subject = decodeHeader(/^subject: (.*)$/im.exec(unfolded)?.[1]?.trim() ?? "");
  const body = rest.join("\n\n");
  const parts = body.split(/^--.*$/m);
  const decoded = parts.map((part) => {
    const [partHead = "", ...partBody] = part.split(/\r?\n\r?\n/);
    const content = partBody.join("\n\n");
    if (/content-transfer-encoding:\s*quoted-printable/i.test(partHead)) return decodeQuotedPrintable(content);
    if (/content-transfer-encoding:\s*base64/i.test(partHead)) return Buffer.from(content.replace(/\s+/g, ""), "base64").toString("utf8");
    return content;
  });
  return { subject, body: decoded.join("\n") };
}

/** The first link in a mail's body matching `pattern` (HTML-escaped ampersands undone), or an error showing the body. */
export function linkIn(body: string, pattern: RegExp): string {
  const link = body.match(pattern)?.[0];
  if (!link) throw new Error(`no link matching ${pattern} in:\n${body}`);
  return link.replace(/&amp;/g, "&");
}

/**
 * A real SMTP server in the test process (no TLS, no authentication), collecting what it receives;
 * on `port` if given (else a free one), handing each mail to `onMail` as well.
 */
export async function startTestSmtpServer(options: { port?: number; onMail?: (mail: ReceivedMail) => void } = {}): Promise<TestSmtpServer> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        const { subject, body } = decodeMail(raw);
        const mail: ReceivedMail = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase()),
          raw,
          subject,
          body,
        };
        mails.push(mail);
        options.onMail?.(mail);
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    async waitForMail(to, options = {}) {
      const deadline = Date.now() + (options.timeoutMs ?? 10_000);
      const after = options.after ?? 0;
      for (;;) {
        const found = mails.slice(after).filter((mail) => mail.to.includes(to.toLowerCase()));
        if (found.length) return found[found.length - 1]!;
        if (Date.now() > deadline) throw new Error(`no mail to ${to} within the delay`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
