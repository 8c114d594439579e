/**
 * Files: resumable uploads (tus), checked and stored (ingest), served with Range (serve), attached
 * to courses (attach), swept when abandoned (maintenance). Owns the files table. Who may read an
 * attached file is the learning capability's rule (a lesson's readers).
 */
export { claimFiles, releaseUnusedCourseFiles, setLessonAttachments, type WantedFile } from "./attach";
export { ingestUpload, uploadLimits, type StoredFile, type UploadLimits } from "./ingest";
export { deleteFileRow, deleteStoredBytes, renamedFileName, renameFile, setAttachmentLesson } from "./library";
export { deleteUnattachedFiles, UNATTACHED_FILE_RETENTION_MS } from "./maintenance";
export { canUseUnattachedFile, usableUnattachedFilesWhere } from "./policy";
export { fileResponse, type ReadableFile } from "./serve";
export { createUploadServer, type UploadServer } from "./uploads";
export {
  getTranscodeStates,
  probeMedia,
  requestMissingTranscodes,
  requestTranscode,
  TRANSCODE_QUEUE,
  transcodeQueue,
  transcodeVideo,
  type RenditionName,
  type TranscodeState,
} from "./transcode";
