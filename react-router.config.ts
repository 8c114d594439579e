import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  // The whole route manifest as one hashed, cached asset, instead of a part of it in every page
  // and requests to /__manifest as links appear (docs/decisions/0036-route-manifest-up-front.md).
  routeDiscovery: { mode: "initial" },
  // BUILD_DIR lets several builds live side by side (parallel test runs on one machine).
  buildDirectory: process.env.BUILD_DIR ?? "build",
} satisfies Config;
