import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "../setup/server-build";
import { startTestSmtpServer, type TestSmtpServer } from "../setup/smtp";

/**
 * A server of a spec's own (same build as the config's server, BUILD_DIR honoured): its own data
 * folder, a free port, and a real SMTP server in the test process so that mails (confirmation,
 * invitation) can be read and followed. For specs that change accounts (roles, deactivation) or
 * need the mail, without disturbing the demo accounts other spec files share.
 */
export interface IsolatedServer {
  base: string;
  smtp: TestSmtpServer;
  output(): string;
  stop(): Promise<void>;
}

/** Where global-setup.ts leaves the data folder of a server that started once: migrated and seeded. */
const TEMPLATE_DATA_DIR = "E2E_TEMPLATE_DATA_DIR";

export async function startIsolatedServer(
  options: { timeoutMs?: number; /** a folder of the caller's own, kept at stop */ dataDir?: string } = {},
): Promise<IsolatedServer> {
  const smtp = await startTestSmtpServer();
  const ownsDataDir = !options.dataDir;
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), "campus-e2e-own-"));
  // A copy of the started-once folder spares each spec's server creating the database, applying
  // the migrations and seeding (20 to 45 s a server on our 2-core machines, with the suite running).
  const template = process.env[TEMPLATE_DATA_DIR];
  if (ownsDataDir && template) fs.cpSync(template, dataDir, { recursive: true });
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  // PGlite in its own folder, development mode (the demo accounts are seeded).
  const { DATABASE_URL: _database, NODE_ENV: _mode, ...inherited } = process.env;
  let output = "";
  const child: ChildProcess = spawn(process.execPath, [path.join(process.env.BUILD_DIR ?? "build", "server/start.js")], {
    env: {
      ...inherited,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      PUBLIC_URL: base,
      LOG_LEVEL: "error",
      SMTP_URL: smtp.url,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  const exited = new Promise((resolve) => child.once("exit", resolve));

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      await exited;
    }
    await smtp.close();
    if (ownsDataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  };

  const deadline = Date.now() + (options.timeoutMs ?? 90_000);
  for (;;) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`the spec's own server did not start:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { base, smtp, output: () => output, stop };
}

/**
 * Starts a server once on a new folder and stops it, leaving the folder migrated and seeded for
 * every spec's own server to start from (startIsolatedServer). Returns the function that removes it.
 */
export async function prepareIsolatedServerTemplate(): Promise<() => void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "campus-e2e-template-"));
  const server = await startIsolatedServer({ dataDir, timeoutMs: 240_000 });
  await server.stop();
  process.env[TEMPLATE_DATA_DIR] = dataDir;
  return () => fs.rmSync(dataDir, { recursive: true, force: true });
}
