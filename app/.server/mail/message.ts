/** What a mail is and who sends it: the types the templates (./templates.ts) and sendMail (./index.ts) share. */
export interface MailAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
}

export interface MailMessage {
  to: string;
  subject: string;
  html: string;
  text: string;
  attachments?: MailAttachment[];
  /** Where an answer goes (the visitor's address on the institute's copy of a contact message). */
  replyTo?: string;
  /** Extra header lines: List-Unsubscribe and List-Unsubscribe-Post on a newsletter (RFC 8058). */
  headers?: Record<string, string>;
}

export interface InstituteIdentity {
  name: string;
  shortName: string;
  email: string;
}
