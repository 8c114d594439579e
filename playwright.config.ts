import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineConfig } from "@playwright/test";

// One temporary data folder per run, shared by the workers through the environment.
process.env.E2E_DATA_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), "campus-e2e-"));
const port = Number(process.env.E2E_PORT ?? 3210);
// The test SMTP server of tests/e2e/global-setup.ts: the server's mails land in E2E_DATA_DIR/mailbox.
process.env.E2E_SMTP_PORT ??= String(port + 1);

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: true,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? "line" : "list",
  globalSetup: "./tests/e2e/global-setup.ts",
  globalTeardown: "./tests/e2e/global-teardown.ts",
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  webServer: {
    // The production entry, as `npm run serve` runs it (from BUILD_DIR when set, as the specs' own servers).
    command: `node_modules/.bin/node ${path.join(process.env.BUILD_DIR ?? "build", "server/start.js")}`,
    url: `http://127.0.0.1:${port}/healthz`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: {
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: process.env.E2E_DATA_DIR,
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      LOG_LEVEL: "error",
      SMTP_URL: `smtp://127.0.0.1:${process.env.E2E_SMTP_PORT}`,
      // Tests change data and read it back as anonymous visitors at once: no page cache here
      // (tests/integration/server.test.ts covers it).
      PAGE_CACHE_SECONDS: "0",
    },
  },
});
