/**
 * Import boundaries of app/.server (docs/architecture.md, "Capacités"): a capability imports
 * another only through its index.ts, or its policy.ts (a leaf every capability may read), never
 * its inner modules. Platform services (db, http, storage...) are shared and may be imported
 * module by module. Paths are resolved (relative or "~/"), so an alias cannot go around the rule.
 */
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const serverDir = path.join(root, "app/.server");

/** Shared services, not capabilities: imported module by module. */
export const PLATFORM = new Set([
  "db",
  "http",
  "storage",
  "jobs",
  "cache",
  "realtime",
  "mail",
  "rate-limit",
  "env.ts",
  "errors.ts",
  "context.ts",
]);

/** Modules of a capability that any other may import besides index.ts. */
const PUBLIC_LEAVES = new Set(["index", "policy"]);
/** Who acts, and the role helpers: read by every capability. */
const SHARED_MODULES = new Set(["auth/actor"]);

function resolveSpecifier(file, specifier) {
  if (specifier.startsWith("~/")) return path.join(root, "app", specifier.slice(2));
  if (specifier.startsWith(".")) return path.resolve(path.dirname(file), specifier);
  return null;
}

/** "courses/authoring" for app/.server/courses/authoring.ts, null outside app/.server. */
function serverModule(absolute) {
  const relative = path.relative(serverDir, absolute);
  if (relative.startsWith("..") || path.isAbsolute(relative)) return null;
  return relative.replace(/\\/g, "/").replace(/\.(ts|tsx)$/, "");
}

export const capabilityBoundaries = {
  meta: {
    type: "problem",
    docs: { description: "A capability imports another capability only through its index.ts or policy.ts." },
    messages: {
      inner:
        "{{from}} imports {{target}}: a capability reaches another only through its index.ts (or policy.ts). Export what you need from app/.server/{{capability}}/index.ts.",
    },
    schema: [],
  },
  create(context) {
    const file = context.filename;
    const from = serverModule(file);
    if (!from || !from.includes("/")) return {};
    const [fromCapability] = from.split("/");
    if (PLATFORM.has(fromCapability)) return {};
    function check(node) {
      const specifier = node.source?.value;
      if (typeof specifier !== "string") return;
      const target = resolveSpecifier(file, specifier);
      const module = target && serverModule(target);
      if (!module || !module.includes("/")) return;
      const [capability, ...rest] = module.split("/");
      if (capability === fromCapability || PLATFORM.has(capability) || capability === "db") return;
      const inner = rest.join("/");
      if (PUBLIC_LEAVES.has(inner) || SHARED_MODULES.has(module)) return;
      context.report({ node: node.source, messageId: "inner", data: { from, target: module, capability } });
    }
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check, ImportExpression: check };
  },
};
