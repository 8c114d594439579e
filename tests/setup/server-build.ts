import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");

/**
 * A production build for tests that start the real server. `TEST_BUILD_DIR` reuses one already
 * built (CI builds once); otherwise builds into node_modules/.cache (inside the project so the
 * server bundle still resolves its packages from node_modules; ignored by git) and returns a
 * function that removes it.
 */
export async function buildForTests(): Promise<{ buildDir: string; remove: () => void }> {
  const given = process.env.TEST_BUILD_DIR;
  if (given) {
    const buildDir = path.resolve(root, given);
    if (!fs.existsSync(path.join(buildDir, "server/index.js"))) throw new Error(`TEST_BUILD_DIR=${given} has no server/index.js`);
    return { buildDir, remove: () => {} };
  }
  const buildDir = path.join(root, "node_modules/.cache/campus-test-builds", `build-${process.pid}-${Date.now()}`);
  const cli = path.join(root, "node_modules/@react-router/dev/bin.cjs");
  let output = "";
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(process.execPath, [cli, "build"], {
      cwd: root,
      env: { ...process.env, NODE_ENV: "production", BUILD_DIR: buildDir },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.once("error", reject);
    child.once("exit", resolve);
  });
  const remove = () => fs.rmSync(buildDir, { recursive: true, force: true });
  if (code !== 0) {
    remove();
    throw new Error(`react-router build failed (${code}):\n${output}`);
  }
  return { buildDir, remove };
}

/** A TCP port nobody listens on right now (the kernel's choice). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
