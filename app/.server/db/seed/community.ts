import { and, eq, gt, inArray, lte, max, sql } from "drizzle-orm";
import { isRole } from "~/lib/roles";
import type { Actor } from "../../auth/actor";
import { createThread, moderateThread, replyToThread, toggleLike } from "../../forum";
import {
  listConversations,
  markConversationRead,
  MESSAGE_NOTICE_QUEUE,
  sendMessage,
  sendMessageNotice,
  sendMessageTo,
  type MessageNoticeJob,
} from "../../messaging";
import { NOTIFICATION_EMAIL_QUEUE } from "../../notifications";
import type { Database } from "../client";
import { forumThreads, jobs, notifications, users } from "../schema";

/**
 * A trial's community (never in a deployment): forum threads with replies and likes, and a
 * conversation between the demo student and her teacher, so that the forum, the messaging and the
 * notifications show something real on first start. Everything goes through the forum and
 * messaging capabilities (their rules, counters, notifications), dated over the last three weeks.
 * Runs after the teaching data, whose learners take part. Runs once: it does nothing when the
 * demo teacher has already written a thread.
 */

const DAY = 24 * 60 * 60 * 1000;
const HOUR = 60 * 60 * 1000;

type Person = "admin" | "teacher" | "student" | "moussa" | "kadiatou" | "oumar" | "mariam";

const emails: Record<Person, string> = {
  admin: "admin@campus.test",
  teacher: "enseignant@campus.test",
  student: "etudiant@campus.test",
  moussa: "moussa.diallo@campus.test",
  kadiatou: "kadiatou.sangare@campus.test",
  oumar: "oumar.toure@campus.test",
  mariam: "mariam.kone@campus.test",
};

type Thread = {
  author: Person;
  /** How long ago it was posted. */
  ago: number;
  category: "intelligence-artificielle" | "cybersecurite" | "projets" | "ressources" | "questions-generales";
  title: string;
  body: string;
  pinned?: boolean;
  replies: Array<{ author: Person; ago: number; body: string }>;
  likedBy: Person[];
};

const threads: Thread[] = [
  {
    author: "teacher",
    ago: 20 * DAY,
    category: "ressources",
    title: "Bienvenue sur le forum : comment bien poser sa question",
    body: "Bonjour à toutes et à tous !\n\nCe forum sert à nous entraider entre apprenants et formateurs. Pour obtenir une réponse rapide : choisissez la bonne catégorie, donnez un titre précis, dites ce que vous avez déjà essayé et, pour une erreur, copiez son message exact.\n\nRestez courtois : tout le monde a débuté un jour. #bienvenue #entraide",
    pinned: true,
    replies: [],
    likedBy: ["moussa", "kadiatou", "student", "mariam"],
  },
  {
    author: "moussa",
    ago: 12 * DAY,
    category: "intelligence-artificielle",
    title: "Apprentissage supervisé ou non supervisé : comment choisir ?",
    body: "Dans le module Machine Learning, je comprends la définition des deux, mais je ne sais pas lequel choisir pour mon projet : regrouper les clients d'une boutique de Bamako selon leurs achats. Des avis ? #IA #MachineLearning",
    replies: [
      {
        author: "teacher",
        ago: 11 * DAY,
        body: "Bonne question, Moussa. Vous n'avez pas d'étiquette « type de client » au départ : c'est un problème non supervisé, de regroupement (clustering). Essayez k-means sur le montant et la fréquence des achats, puis regardez si les groupes ont un sens pour le commerçant.",
      },
      {
        author: "kadiatou",
        ago: 10 * DAY,
        body: "J'ai fait la même chose pour une coopérative de karité : pensez à mettre les variables à la même échelle avant k-means, sinon le montant écrase tout le reste.",
      },
    ],
    likedBy: ["student", "oumar", "teacher"],
  },
  {
    author: "kadiatou",
    ago: 9 * DAY,
    category: "cybersecurite",
    title: "Un mot de passe solide et facile à retenir, c'est possible ?",
    body: "On nous conseille des mots de passe longs et différents partout, mais je n'arrive pas à tous les retenir. Comment faites-vous au quotidien ? #cybersécurité #motsdepasse",
    replies: [
      {
        author: "mariam",
        ago: 9 * DAY - 3 * HOUR,
        body: "J'utilise une phrase de passe de quatre ou cinq mots sans rapport entre eux, et un gestionnaire de mots de passe pour le reste. Et la double authentification partout où c'est proposé, y compris ici (Mon Profil, Sécurité).",
      },
    ],
    likedBy: ["teacher", "moussa"],
  },
  {
    author: "student",
    ago: 6 * DAY,
    category: "intelligence-artificielle",
    title: "Installer Python et TensorFlow sur un ordinateur modeste",
    body: "Mon ordinateur portable a 4 Go de mémoire et la connexion est lente à la maison. Quelle installation conseillez-vous pour suivre le module Python & TensorFlow sans tout bloquer ? #python #tensorflow",
    replies: [
      {
        author: "oumar",
        ago: 5 * DAY,
        body: "Même situation pour moi : j'ai installé Miniconda plutôt qu'Anaconda, beaucoup plus léger, puis seulement les paquets du module. Téléchargez-les au cybercafé ou la nuit, quand le réseau est meilleur.",
      },
      {
        author: "teacher",
        ago: 4 * DAY,
        body: "Tout à fait. Pour les exercices du module, la version CPU de TensorFlow suffit. Et pour les gros entraînements, utilisez un carnet en ligne gratuit : votre ordinateur n'a alors qu'un navigateur à faire tourner.",
      },
    ],
    likedBy: ["oumar", "mariam"],
  },
  {
    author: "oumar",
    ago: 3 * DAY,
    category: "projets",
    title: "Projet final : un site pour la coopérative de mon village",
    body: "Pour le projet de Développement Web, je fais un site qui présente les produits de la coopérative maraîchère de mon village, avec les prix du jour. Vos retours sur la maquette sont les bienvenus ! #devweb #projet",
    replies: [
      {
        author: "teacher",
        ago: 2 * DAY,
        body: "Très bon sujet, Oumar. Pensez aux téléphones d'abord : la plupart des clients de la coopérative le consulteront sur un petit écran, avec peu de données. Des pages légères et des images compressées.",
      },
    ],
    likedBy: ["student", "kadiatou", "moussa"],
  },
  {
    author: "mariam",
    ago: 1 * DAY,
    category: "questions-generales",
    title: "Payer une formation depuis la Côte d'Ivoire",
    body: "Je vis à Abidjan : puis-je payer ma prochaine formation par mobile money depuis la Côte d'Ivoire ? #paiement",
    replies: [
      {
        author: "admin",
        ago: 20 * HOUR,
        body: "Bonjour Mariam, oui : au moment de l'inscription, choisissez « Mobile money » ; le paiement passe par CinetPay, qui accepte les opérateurs de plusieurs pays d'Afrique de l'Ouest. En cas de souci, écrivez-nous depuis la messagerie.",
      },
    ],
    likedBy: ["kadiatou"],
  },
];

/** The demo student asks her teacher; his last answer is still unread. */
const conversation: Array<{ from: Person; to: Person; ago: number; body: string }> = [
  {
    from: "student",
    to: "teacher",
    ago: 8 * DAY,
    body: "Bonjour M. Traoré, je bloque sur l'exercice de régression du module Machine Learning : mes prédictions sont toutes identiques. Auriez-vous une piste ?",
  },
  {
    from: "teacher",
    to: "student",
    ago: 8 * DAY - 2 * HOUR,
    body: "Bonjour Aïssata, vérifiez que vos données sont normalisées avant l'entraînement, et que le taux d'apprentissage n'est pas trop élevé. Si ça ne passe toujours pas, envoyez-moi votre carnet.",
  },
  { from: "student", to: "teacher", ago: 7 * DAY, body: "C'était la normalisation ! Ça marche maintenant, merci beaucoup." },
  {
    from: "teacher",
    to: "student",
    ago: 2 * DAY,
    body: "Parfait. Ne manquez pas la prochaine session de questions-réponses : nous y aborderons l'IA générative, le module suivant.",
  },
];

/** The notices of messages left unread went out after their delay, back then (messaging/notices.ts). */
async function sendDueNotices(db: Database, until: Date) {
  const due = await db
    .select({ id: jobs.id, payload: jobs.payload, runAt: jobs.runAt })
    .from(jobs)
    .where(and(eq(jobs.queue, MESSAGE_NOTICE_QUEUE), eq(jobs.status, "pending"), lte(jobs.runAt, until)));
  for (const job of due) {
    await sendMessageNotice(db, job.payload as MessageNoticeJob, job.runAt);
    await db.update(jobs).set({ status: "done", finishedAt: job.runAt }).where(eq(jobs.id, job.id));
  }
}

export async function seedDemoCommunity(db: Database, now = new Date()): Promise<void> {
  // All or nothing: a start interrupted halfway leaves no thread, and the next one writes them all.
  await db.transaction((tx) => writeCommunity(tx, now));
}

async function writeCommunity(db: Database, now: Date): Promise<void> {
  const rows = await db
    .select({ id: users.id, email: users.email, role: users.role })
    .from(users)
    .where(inArray(users.email, Object.values(emails)));
  const people = new Map(rows.map((row) => [row.email, { id: row.id, role: isRole(row.role) ? row.role : null } satisfies Actor]));
  const actor = (person: Person) => people.get(emails[person]);
  const teacher = actor("teacher");
  if (!teacher || people.size < Object.keys(emails).length) return;
  const [already] = await db.select({ id: forumThreads.id }).from(forumThreads).where(eq(forumThreads.authorId, teacher.id)).limit(1);
  if (already) return;
  const at = (ago: number) => new Date(now.getTime() - ago);
  const [before] = await db.select({ last: max(notifications.id) }).from(notifications);

  for (const thread of threads) {
    const { id } = await createThread(
      db,
      actor(thread.author)!,
      { title: thread.title, body: thread.body, category: thread.category },
      at(thread.ago),
    );
    if (thread.pinned) await moderateThread(db, teacher, id, "pin", at(thread.ago));
    for (const reply of thread.replies) await replyToThread(db, actor(reply.author)!, id, { body: reply.body }, at(reply.ago));
    for (const person of thread.likedBy) await toggleLike(db, actor(person)!, id);
  }
  // The teacher greets the group of each of his courses; the demo student has read it in hers.
  const student = actor("student")!;
  const studentGroups = new Set((await listConversations(db, student, { now })).map((group) => group.id));
  for (const group of await listConversations(db, teacher, { now })) {
    if (group.kind !== "course" || !group.course) continue;
    const { conversationId } = await sendMessage(
      db,
      teacher,
      group.id,
      {
        body: `Bienvenue dans le groupe de la formation « ${group.course.title} » ! Posez ici vos questions sur les leçons et entraidez-vous ; je passe chaque soir.`,
      },
      at(15 * DAY),
    );
    if (studentGroups.has(conversationId)) await markConversationRead(db, student, conversationId, at(15 * DAY - HOUR));
  }
  for (const [index, message] of conversation.entries()) {
    const sent = await sendMessageTo(db, actor(message.from)!, actor(message.to)!.id, { body: message.body }, at(message.ago));
    // Each message is read half an hour later, but the last one: its notice went out before.
    const last = index === conversation.length - 1;
    await sendDueNotices(db, last ? now : at(message.ago - HOUR / 2));
    if (!last) await markConversationRead(db, actor(message.to)!, sent.conversationId, at(message.ago - HOUR / 2));
  }
  await sendDueNotices(db, now);
  // These are past events, whose e-mails would have gone then: none is sent now.
  await db
    .delete(jobs)
    .where(
      and(
        eq(jobs.queue, NOTIFICATION_EMAIL_QUEUE),
        eq(jobs.status, "pending"),
        gt(sql`(${jobs.payload} ->> 'notificationId')::bigint`, before?.last ?? 0),
      ),
    );
}
