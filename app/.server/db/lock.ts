import fs from "node:fs";
import path from "node:path";

export class DataDirLockedError extends Error {
  override name = "DataDirLockedError";
}

export const LOCK_FILE_NAME = "campus.lock";

/** Locks this process holds, so a second open in the same process is refused too. */
const heldHere = new Set<string>();

function isRunning(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function readOwner(file: string): number | undefined {
  try {
    const pid = Number(fs.readFileSync(file, "utf8").trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/**
 * PGlite has no lock of its own: two processes on one folder corrupt it. `DATA_DIR/campus.lock`
 * holds the owner's pid, created atomically (O_EXCL). A file left by a process that no longer runs
 * (a crash, a kill -9, a container restart where the pid is our own) is taken over. The take-over
 * moves the stale file aside under a name of our own first (an atomic rename), so two processes
 * starting together on a stale lock cannot both win. Returns the release function.
 */
export function acquireDataDirLock(dataDir: string): () => void {
  fs.mkdirSync(dataDir, { recursive: true });
  const lockPath = path.resolve(dataDir, LOCK_FILE_NAME);
  if (heldHere.has(lockPath)) {
    throw new DataDirLockedError(`Le dossier de données ${path.resolve(dataDir)} est déjà ouvert par ce processus.`);
  }
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      fs.writeFileSync(lockPath, `${process.pid}\n`, { flag: "wx" });
      heldHere.add(lockPath);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        heldHere.delete(lockPath);
        // Only remove the file if it is still ours.
        if (readOwner(lockPath) === process.pid) fs.rmSync(lockPath, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }

    const aside = `${lockPath}.${process.pid}.stale`;
    try {
      fs.renameSync(lockPath, aside);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") continue; // released meanwhile: retry
      throw error;
    }
    const owner = readOwner(aside);
    if (owner !== undefined && owner !== process.pid && isRunning(owner)) {
      // A live owner: put its file back (link fails if a third process took the name meanwhile).
      try {
        fs.linkSync(aside, lockPath);
      } catch {
        /* the name is taken again anyway */
      }
      fs.rmSync(aside, { force: true });
      throw new DataDirLockedError(
        `Le dossier de données ${path.resolve(dataDir)} est déjà utilisé par un autre processus Campus (pid ${owner}). ` +
          "Arrêtez-le d'abord, ou donnez à celui-ci un autre DATA_DIR. " +
          `Si aucun processus Campus ne tourne (pid réutilisé), supprimez ${lockPath}.`,
      );
    }
    fs.rmSync(aside, { force: true });
  }
  throw new DataDirLockedError(`Impossible de prendre le verrou ${lockPath} : d'autres processus le disputent.`);
}
