import { formatFcfa } from "~/lib/format";
import type { Institute } from "../catalogue";
import { renderActionMail, type InstituteIdentity, type MailAttachment, type MailMessage } from "../mail";

function hello(firstName: string) {
  return firstName ? `Bonjour ${firstName},` : "Bonjour,";
}

/** Cash at the office: the reference, the amount, where and when to pay. */
export function cashInstructionsMail(args: {
  to: string;
  firstName: string;
  reference: string;
  amount: number;
  courseTitle: string;
  institute: Pick<Institute, "name" | "address" | "openingHours" | "phones">;
  url: string;
  identity: InstituteIdentity;
}): MailMessage {
  const hours = args.institute.openingHours.map((line) => `${line.days} : ${line.hours}`).join(" ; ");
  return renderActionMail({
    to: args.to,
    subject: `Votre inscription à « ${args.courseTitle} » : paiement à l'institut – ${args.identity.shortName}`,
    greeting: hello(args.firstName),
    paragraphs: [
      `Votre inscription à la formation « ${args.courseTitle} » est enregistrée. Elle sera ouverte dès que le paiement sera reçu.`,
      `Présentez-vous à l'accueil de l'institut avec la référence ${args.reference} et réglez ${formatFcfa(args.amount)} en espèces. Un reçu vous sera remis.`,
      `Adresse : ${args.institute.address}. Horaires : ${hours}. Téléphone : ${args.institute.phones[0] ?? ""}.`,
      "Cette référence est valable 48 heures ; passé ce délai, il suffira de recommencer l'inscription.",
    ],
    action: { label: "Voir mon inscription", url: args.url },
    footnote: "Vous n'avez rien demandé ? Ignorez ce message : aucune somme n'est due.",
    identity: args.identity,
  });
}

/** A completed payment: the receipt attached, and the way to the course. */
export function receiptMail(args: {
  to: string;
  firstName: string;
  reference: string;
  amount: number;
  courseTitle: string;
  url: string;
  receipt: MailAttachment;
  identity: InstituteIdentity;
}): MailMessage {
  const mail = renderActionMail({
    to: args.to,
    subject: `Paiement reçu : « ${args.courseTitle} » – ${args.identity.shortName}`,
    greeting: hello(args.firstName),
    paragraphs: [
      `Nous avons bien reçu votre paiement de ${formatFcfa(args.amount)} (référence ${args.reference}) pour la formation « ${args.courseTitle} ».`,
      "Votre inscription est active : vous pouvez commencer la formation dès maintenant. Le reçu est joint à ce message et reste disponible dans votre espace.",
    ],
    action: { label: "Commencer la formation", url: args.url },
    footnote: "Conservez ce reçu : il atteste de votre paiement.",
    identity: args.identity,
  });
  return { ...mail, attachments: [args.receipt] };
}
