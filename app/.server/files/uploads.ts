import { AsyncLocalStorage } from "node:async_hooks";
import path from "node:path";
import { FileStore } from "@tus/file-store";
import { Server as TusServer } from "@tus/server";
import type express from "express";
import { isUploadPurpose, tooLargeMessage, UPLOAD_ENDPOINT } from "~/lib/uploads";
import type { Actor } from "../auth/actor";
import { sessionOf } from "../auth";
import type { Database } from "../db/client";
import type { FileStorage } from "../storage";
import { AppError } from "../errors";
import { httpStatusOf } from "../http/errors";
import { ingestUpload, type UploadLimits } from "./ingest";

/** An unfinished upload is kept a day, then removed by the maintenance job. */
const UPLOAD_EXPIRY_MS = 24 * 60 * 60 * 1000;

/** The tus protocol's way to refuse a request: a status and a body (here, a French message). */
function refusal(status_code: number, body: string) {
  return { status_code, body };
}

export interface UploadServer {
  /** Mounts the endpoint on the Express app (after the session middleware). */
  mount(app: express.Express): void;
  /** Removes unfinished uploads older than a day. */
  deleteExpired(): Promise<number>;
}

/**
 * Resumable uploads (the tus protocol, `@tus/server` with its file store under `directory`):
 * a dropped connection resumes where it stopped instead of starting a 2 GB video again. Only
 * teachers and admins upload; an upload is continued only by whoever started it. The finished
 * upload is checked and moved to storage by `ingestUpload`, and answers with the stored file
 * (its id is the upload's id).
 *
 * The store and its locks live on this machine: several app processes need sticky sessions for
 * this endpoint, or a shared store (docs/deployment.md).
 */
export function createUploadServer(deps: {
  db: Database;
  storage: FileStorage;
  limits: UploadLimits;
  directory: string;
  /** Who may upload at all (teachers and admins). */
  mayUpload: (actor: Actor) => boolean;
}): UploadServer {
  const { db, storage, limits, directory, mayUpload } = deps;
  const actingUser = new AsyncLocalStorage<Actor>();
  const datastore = new FileStore({ directory, expirationPeriodInMilliseconds: UPLOAD_EXPIRY_MS });

  const tus = new TusServer({
    path: UPLOAD_ENDPOINT,
    datastore,
    relativeLocation: true,
    maxSize: Math.max(...Object.values(limits)),
    // Same-origin only: no CORS answer for other sites.
    allowedOrigins: () => false,
    async onIncomingRequest(request, id) {
      const actor = actingUser.getStore();
      if (!actor) throw refusal(401, "Connectez-vous pour envoyer des fichiers.");
      if (request.method === "POST") return;
      let uploaderId: string | null | undefined;
      try {
        uploaderId = (await datastore.getUpload(id)).metadata?.uploaderId;
      } catch {
        throw refusal(404, "Cet envoi n'existe plus : recommencez.");
      }
      if (uploaderId !== actor.id) throw refusal(404, "Cet envoi n'existe plus : recommencez.");
    },
    async onUploadCreate(_request, upload) {
      const actor = actingUser.getStore()!;
      const purpose = upload.metadata?.purpose;
      if (!isUploadPurpose(purpose)) throw refusal(400, "Type d'envoi inconnu.");
      if (upload.size === undefined) throw refusal(400, "La taille du fichier doit être annoncée.");
      if (upload.size > limits[purpose]) throw refusal(413, tooLargeMessage(purpose, limits[purpose]));
      // The server's word on who uploads: a client cannot pass for somebody else.
      return { metadata: { ...upload.metadata, purpose, uploaderId: actor.id } };
    },
    async onUploadFinish(_request, upload) {
      const metadata = upload.metadata ?? {};
      try {
        const file = await ingestUpload(
          { db, storage, limits },
          {
            id: upload.id,
            purpose: metadata.purpose as Parameters<typeof ingestUpload>[1]["purpose"],
            filePath: path.join(directory, upload.id),
            originalName: metadata.filename ?? null,
            declaredType: metadata.filetype ?? null,
            uploadedBy: metadata.uploaderId!,
          },
        );
        const body = {
          id: file.id,
          name: file.originalName,
          size: file.size,
          contentType: file.contentType,
          variants: Object.keys(file.variants).map(Number),
        };
        return { status_code: 200, headers: { "Content-Type": "application/json; charset=utf-8" }, body: JSON.stringify(body) };
      } catch (error) {
        // Refused for what it is (type, unreadable image): its French message, its status.
        if (error instanceof AppError) throw refusal(httpStatusOf[error.code], error.message);
        console.error("Fichier reçu mais non enregistré :", error);
        throw refusal(500, "Le fichier a été reçu mais n'a pas pu être enregistré : réessayez.");
      } finally {
        // Its bytes are in storage now (or refused): the upload itself is done with.
        await datastore.remove(upload.id).catch(() => {});
      }
    },
  });

  return {
    mount(app) {
      app.all([UPLOAD_ENDPOINT, `${UPLOAD_ENDPOINT}/{*rest}`], async (req, res, next) => {
        res.setHeader("Cache-Control", "no-store");
        try {
          const origin = req.get("origin");
          if (origin && URL.parse(origin)?.host !== req.get("host")) {
            res.status(403).type("text/plain").send("Envoi refusé : il doit venir de ce site.");
            return;
          }
          const user = await sessionOf(res);
          if (!user || !mayUpload(user)) {
            res
              .status(user ? 403 : 401)
              .type("text/plain")
              .send(
                user ? "Seuls les enseignants et les administrateurs envoient des fichiers." : "Connectez-vous pour envoyer des fichiers.",
              );
            return;
          }
          await actingUser.run({ id: user.id, role: user.role }, () => tus.handle(req, res));
        } catch (error) {
          next(error);
        }
      });
    },
    deleteExpired: () => tus.cleanUpExpiredUploads(),
  };
}
