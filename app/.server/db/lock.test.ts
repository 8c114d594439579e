import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { acquireDataDirLock, DataDirLockedError, LOCK_FILE_NAME } from "./lock";

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "campus-lock-"));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

const lockFile = () => path.join(dir, LOCK_FILE_NAME);

/** A process that stays alive until killed. */
function sleeper() {
  return spawn(process.execPath, ["-e", "setTimeout(() => {}, 60_000)"], { stdio: "ignore" });
}

describe("acquireDataDirLock", () => {
  it("writes the pid, and release removes the file", () => {
    const release = acquireDataDirLock(dir);
    expect(fs.readFileSync(lockFile(), "utf8").trim()).toBe(String(process.pid));
    release();
    expect(fs.existsSync(lockFile())).toBe(false);
    release(); // twice is harmless
  });

  it("creates the data folder when it does not exist", () => {
    const nested = path.join(dir, "a", "b");
    const release = acquireDataDirLock(nested);
    expect(fs.existsSync(path.join(nested, LOCK_FILE_NAME))).toBe(true);
    release();
  });

  it("refuses a second open in the same process", () => {
    const release = acquireDataDirLock(dir);
    try {
      expect(() => acquireDataDirLock(dir)).toThrow(DataDirLockedError);
      expect(fs.readFileSync(lockFile(), "utf8").trim()).toBe(String(process.pid));
    } finally {
      release();
    }
  });

  it("refuses a folder held by another running process, naming it, and leaves its lock alone", () => {
    const other = sleeper();
    try {
      fs.writeFileSync(lockFile(), `${other.pid}\n`);
      expect(() => acquireDataDirLock(dir)).toThrow(new RegExp(`déjà utilisé.*pid ${other.pid}.*DATA_DIR`));
      expect(fs.readFileSync(lockFile(), "utf8").trim()).toBe(String(other.pid));
      expect(fs.readdirSync(dir)).toEqual([LOCK_FILE_NAME]);
    } finally {
      other.kill("SIGKILL");
    }
  });

  it("takes over a lock left by a process that has died", async () => {
    const dead = sleeper();
    dead.kill("SIGKILL");
    await new Promise((resolve) => dead.once("exit", resolve));
    fs.writeFileSync(lockFile(), `${dead.pid}\n`);
    const release = acquireDataDirLock(dir);
    expect(fs.readFileSync(lockFile(), "utf8").trim()).toBe(String(process.pid));
    release();
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it("takes over a lock with our own pid from a previous life (container restart) or garbage", () => {
    fs.writeFileSync(lockFile(), `${process.pid}\n`);
    acquireDataDirLock(dir)();
    fs.writeFileSync(lockFile(), "not a pid");
    acquireDataDirLock(dir)();
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it("release does not remove a lock that another process has taken since", () => {
    const release = acquireDataDirLock(dir);
    fs.writeFileSync(lockFile(), "12345\n");
    release();
    expect(fs.readFileSync(lockFile(), "utf8").trim()).toBe("12345");
  });
});
