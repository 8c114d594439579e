/**
 * The bench's reference point: Debian's nginx serving pages captured from the app, byte for byte,
 * precompressed (the app's own brotli, gzip and plain bodies, picked by Accept-Encoding as the app
 * picks them). Installs nginx-light with apt-get when it is missing.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const CANDIDATES = ["/usr/sbin/nginx", "/usr/bin/nginx"];

function findNginx() {
  return CANDIDATES.find((file) => fs.existsSync(file));
}

/** The nginx binary, installed from Debian's nginx-light if needed (root, as on our machines). */
export function ensureNginx(): string {
  const found = findNginx();
  if (found) return found;
  console.log("nginx absent : apt-get install nginx-light...");
  for (const args of [["update"], ["install", "-y", "--no-install-recommends", "nginx-light"]]) {
    const result = spawnSync("apt-get", args, {
      stdio: ["ignore", "ignore", "inherit"],
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    });
    if (result.status !== 0)
      throw new Error(`apt-get ${args.join(" ")} a échoué (${result.status ?? result.error?.message}) : installez nginx-light`);
  }
  const installed = findNginx();
  if (!installed) throw new Error("nginx-light installé mais nginx introuvable dans /usr/sbin");
  return installed;
}

/** One page as the app sent it: its path and its body in each encoding. */
export interface CapturedPage {
  path: string;
  identity: Buffer;
  br: Buffer;
  gzip: Buffer;
}

export interface RunningNginx {
  child: ChildProcess;
  origin: string;
  stop(): Promise<void>;
}

/** Starts nginx (all cores: worker_processes auto) on 127.0.0.1:port serving `pages`. */
export async function startNginx(pages: CapturedPage[], port: number): Promise<RunningNginx> {
  const binary = ensureNginx();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "campus-bench-nginx-"));
  const www = path.join(dir, "www");
  fs.mkdirSync(www);
  // nginx's workers run as an unprivileged user: they must be able to read the pages.
  fs.chmodSync(dir, 0o755);
  const locations = pages.map((page, index) => {
    const name = `page-${index}.html`;
    fs.writeFileSync(path.join(www, name), page.identity);
    fs.writeFileSync(path.join(www, `${name}.br`), page.br);
    fs.writeFileSync(path.join(www, `${name}.gz`), page.gzip);
    return `    location = ${page.path} { try_files /${name}$variant =404; }`;
  });
  const temp = (kind: string) => `${kind}_temp_path ${path.join(dir, kind)};`;
  fs.writeFileSync(
    path.join(dir, "nginx.conf"),
    [
      "worker_processes auto;",
      `pid ${path.join(dir, "nginx.pid")};`,
      "error_log stderr error;",
      "events { worker_connections 4096; }",
      "http {",
      "  access_log off;",
      `  ${["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map(temp).join(" ")}`,
      "  sendfile on;",
      "  tcp_nodelay on;",
      "  keepalive_timeout 65;",
      "  keepalive_requests 1000000;",
      "  types {}",
      '  default_type "text/html; charset=utf-8";',
      '  map $http_accept_encoding $variant { ~*\\bbr\\b .br; ~*\\bgzip\\b .gz; default ""; }',
      '  map $http_accept_encoding $coding { ~*\\bbr\\b br; ~*\\bgzip\\b gzip; default ""; }',
      "  server {",
      `    listen 127.0.0.1:${port};`,
      `    root ${www};`,
      "    add_header Vary Accept-Encoding;",
      "    add_header Content-Encoding $coding;",
      ...locations,
      "  }",
      "}",
    ].join("\n"),
  );
  const child = spawn(binary, ["-e", "stderr", "-p", dir, "-c", path.join(dir, "nginx.conf"), "-g", "daemon off;"], {
    stdio: ["ignore", "inherit", "inherit"],
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  process.once("exit", () => child.kill("SIGKILL"));
  const origin = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null) {
      child.kill("SIGTERM");
      await exited;
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      if ((await fetch(`${origin}${pages[0]!.path}`)).ok) break;
    } catch {
      // not yet
    }
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error("nginx n'a pas démarré");
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { child, origin, stop };
}
