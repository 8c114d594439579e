import type { InstituteIdentity, MailMessage } from "./message";

/** Escapes text for HTML mail bodies. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[char]!);
}

interface ActionMail {
  to: string;
  subject: string;
  greeting: string;
  paragraphs: string[];
  action: { label: string; url: string };
  footnote: string;
  identity: InstituteIdentity;
}

/** One layout for every action mail: a greeting, a few lines, one button, the raw link, a footnote. */
export function renderActionMail(mail: ActionMail): MailMessage {
  const { identity } = mail;
  const text = [
    mail.greeting,
    "",
    ...mail.paragraphs.flatMap((paragraph) => [paragraph, ""]),
    `${mail.action.label} : ${mail.action.url}`,
    "",
    mail.footnote,
    "",
    "—",
    identity.name,
  ].join("\n");
  const html = `<!doctype html>
<html lang="fr">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(mail.subject)}</title></head>
<body style="margin:0;padding:0;background:#f4f6fb;font-family:Arial,Helvetica,sans-serif;color:#1f2937">
  <table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f4f6fb;padding:24px 12px">
    <tr><td align="center">
      <table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border-radius:8px;padding:28px">
        <tr><td style="font-size:18px;font-weight:bold;color:#1e3a8a;padding-bottom:16px">${escapeHtml(identity.name)}</td></tr>
        <tr><td style="font-size:15px;line-height:1.6">
          <p style="margin:0 0 12px">${escapeHtml(mail.greeting)}</p>
          ${mail.paragraphs.map((paragraph) => `<p style="margin:0 0 12px">${escapeHtml(paragraph)}</p>`).join("\n          ")}
          <p style="margin:24px 0"><a href="${escapeHtml(mail.action.url)}" style="background:#1d4ed8;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:6px;display:inline-block;font-weight:bold">${escapeHtml(mail.action.label)}</a></p>
          <p style="margin:0 0 12px;font-size:13px;color:#4b5563">Si le bouton ne fonctionne pas, copiez ce lien dans votre navigateur :<br><a href="${escapeHtml(mail.action.url)}" style="color:#1d4ed8;word-break:break-all">${escapeHtml(mail.action.url)}</a></p>
          <p style="margin:16px 0 0;font-size:13px;color:#4b5563">${escapeHtml(mail.footnote)}</p>
        </td></tr>
      </table>
    </td></tr>
  </table>
</body>
</html>`;
  return { to: mail.to, subject: mail.subject, html, text };
}

/** "de l'Institut …" or "de Campus": French elision before a vowel or a mute h. */
export function ofInstitute(name: string): string {
  return /^[aeiouyhàâéèêëîïôûù]/i.test(name) ? `de l'${name}` : `de ${name}`;
}

function hello(firstName?: string | null) {
  return firstName ? `Bonjour ${firstName},` : "Bonjour,";
}

export function verificationMail(args: { to: string; firstName?: string | null; url: string; identity: InstituteIdentity }): MailMessage {
  return renderActionMail({
    to: args.to,
    subject: `Confirmez votre adresse e-mail – ${args.identity.shortName}`,
    greeting: hello(args.firstName),
    paragraphs: [
      `Merci de votre inscription sur le site ${ofInstitute(args.identity.name)}.`,
      "Pour activer votre compte, confirmez votre adresse e-mail en cliquant sur le bouton ci-dessous. Ce lien est valable 24 heures.",
    ],
    action: { label: "Confirmer mon adresse e-mail", url: args.url },
    footnote: "Si vous n'êtes pas à l'origine de cette inscription, ignorez simplement ce message.",
    identity: args.identity,
  });
}

export function passwordResetMail(args: { to: string; firstName?: string | null; url: string; identity: InstituteIdentity }): MailMessage {
  return renderActionMail({
    to: args.to,
    subject: `Réinitialisation de votre mot de passe – ${args.identity.shortName}`,
    greeting: hello(args.firstName),
    paragraphs: [
      "Vous avez demandé à réinitialiser le mot de passe de votre compte.",
      "Cliquez sur le bouton ci-dessous pour choisir un nouveau mot de passe. Ce lien est valable 1 heure et ne peut servir qu'une fois.",
    ],
    action: { label: "Choisir un nouveau mot de passe", url: args.url },
    footnote: "Si vous n'avez rien demandé, ignorez ce message : votre mot de passe reste inchangé.",
    identity: args.identity,
  });
}

/** Sign-in throttling (app/.server/auth/throttle.ts): an account under attack confirms new browsers by this link. */
export function deviceConfirmationMail(args: {
  to: string;
  firstName?: string | null;
  url: string;
  identity: InstituteIdentity;
}): MailMessage {
  return renderActionMail({
    to: args.to,
    subject: `Confirmez votre connexion – ${args.identity.shortName}`,
    greeting: hello(args.firstName),
    paragraphs: [
      "Quelqu'un vient de se connecter à votre compte avec votre mot de passe, depuis un appareil où ce compte n'avait jamais servi. Comme de nombreuses tentatives ont visé votre compte, nous demandons une confirmation.",
      "Si c'est vous : ouvrez ce lien sur l'appareil où vous voulez vous connecter, confirmez, puis connectez-vous à nouveau. Ce lien est valable 30 minutes et ne sert qu'une fois.",
    ],
    action: { label: "Confirmer cet appareil", url: args.url },
    footnote:
      "Si ce n'est pas vous, quelqu'un connaît votre mot de passe : ne cliquez pas, et changez-le dès maintenant depuis votre profil (ou par « Mot de passe oublié »).",
    identity: args.identity,
  });
}

export function invitationMail(args: {
  to: string;
  firstName?: string | null;
  url: string;
  roleLabel?: string;
  identity: InstituteIdentity;
}): MailMessage {
  return renderActionMail({
    to: args.to,
    subject: `Votre compte sur la plateforme – ${args.identity.shortName}`,
    greeting: hello(args.firstName),
    paragraphs: [
      `Un compte${args.roleLabel ? ` (${args.roleLabel})` : ""} a été créé pour vous sur la plateforme ${ofInstitute(args.identity.name)}.`,
      "Pour y accéder, choisissez votre mot de passe en cliquant sur le bouton ci-dessous. Ce lien est valable 7 jours et ne peut servir qu'une fois.",
    ],
    action: { label: "Choisir mon mot de passe", url: args.url },
    footnote: "Si vous ne vous attendiez pas à cette invitation, ignorez ce message.",
    identity: args.identity,
  });
}
