import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { resolveAuthSecret } from "./config";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});
function tempDir() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "campus-secret-"));
  dirs.push(dir);
  return dir;
}

/** The secret `resolveAuthSecret` gives in a process of its own, started with the others, all asking at `at` (ms). */
function secretFromProcess(dataDir: string, at: number): Promise<string> {
  const config = fileURLToPath(new URL("./config.ts", import.meta.url));
  const script = `const { resolveAuthSecret } = await import(${JSON.stringify(config)});
    while (Date.now() < ${at});
    process.stdout.write(resolveAuthSecret({ production: false, dataDir: ${JSON.stringify(dataDir)} }));`;
  const node = path.resolve("node_modules/.bin/node");
  return new Promise((resolve, reject) => {
    const child = spawn(fs.existsSync(node) ? node : process.execPath, ["--input-type=module", "-e", script]);
    let out = "";
    let err = "";
    child.stdout.on("data", (chunk) => (out += chunk));
    child.stderr.on("data", (chunk) => (err += chunk));
    child.on("close", (code) => (code === 0 ? resolve(out) : reject(new Error(err))));
  });
}

describe("the trial's signing secret", () => {
  it("is generated once, kept in DATA_DIR and given again", () => {
    const dir = tempDir();
    const secret = resolveAuthSecret({ production: false, dataDir: dir });
    expect(secret.length).toBeGreaterThanOrEqual(32);
    expect(resolveAuthSecret({ production: false, dataDir: dir })).toBe(secret);
    expect(fs.readdirSync(dir)).toEqual(["auth-secret"]);
  });

  it("is the same for every process of a first start, all asking at once", async () => {
    const dir = tempDir();
    const at = Date.now() + 1_500; // after the processes have loaded the module
    const secrets = await Promise.all(Array.from({ length: 4 }, () => secretFromProcess(dir, at)));
    expect(new Set(secrets).size).toBe(1);
    expect(fs.readFileSync(path.join(dir, "auth-secret"), "utf8").trim()).toBe(secrets[0]);
    expect(fs.readdirSync(dir)).toEqual(["auth-secret"]);
  });

  it("replaces a damaged file", () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, "auth-secret"), "court\n");
    const secret = resolveAuthSecret({ production: false, dataDir: dir });
    expect(secret.length).toBeGreaterThanOrEqual(32);
    expect(fs.readFileSync(path.join(dir, "auth-secret"), "utf8").trim()).toBe(secret);
  });
});
