/**
 * No import cycle among the project's modules (docs/architecture.md, "Des couches sans cycle"):
 * a module never reaches itself again through its imports, type-only imports included (a type
 * shared by two modules lives in a third, below both). Imports are read with TypeScript's parser
 * (import, export ... from, import()) and resolved like the bundler does (relative or "~/", .ts/.tsx, index files);
 * packages and generated route types are not followed. Reported on the import that starts the
 * cycle, with the whole path.
 */
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";

const root = path.resolve(import.meta.dirname, "..");
const appDir = path.join(root, "app");
const EXTENSIONS = [".ts", ".tsx", "/index.ts", "/index.tsx"];

/** file → { mtimeMs, imports: [{ specifier, target }] }, read once per file version. */
const graph = new Map();

function resolveImport(from, specifier) {
  let base;
  if (specifier.startsWith("~/")) base = path.join(appDir, specifier.slice(2));
  else if (specifier.startsWith(".")) base = path.resolve(path.dirname(from), specifier);
  else return null;
  if (/\.tsx?$/.test(base) && fs.existsSync(base)) return base;
  for (const extension of EXTENSIONS) {
    const candidate = base + extension;
    if (fs.existsSync(candidate)) return candidate;
  }
  return null;
}

function specifiersOf(file, source) {
  const sourceFile = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, false);
  const specifiers = [];
  function visit(node) {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      specifiers.push(node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [argument] = node.arguments;
      if (argument && ts.isStringLiteralLike(argument)) specifiers.push(argument.text);
    }
    ts.forEachChild(node, visit);
  }
  visit(sourceFile);
  return specifiers;
}

function importsOf(file, text) {
  let stat;
  try {
    stat = fs.statSync(file);
  } catch {
    return [];
  }
  const known = graph.get(file);
  if (known && known.mtimeMs === stat.mtimeMs && text === undefined) return known.imports;
  const source = text ?? fs.readFileSync(file, "utf8");
  const imports = specifiersOf(file, source).flatMap((specifier) => {
    const target = resolveImport(file, specifier);
    return target ? [{ specifier, target }] : [];
  });
  if (text === undefined) graph.set(file, { mtimeMs: stat.mtimeMs, imports });
  return imports;
}

/** The shortest path of modules from `start` back to `file`, or null. */
function pathBack(start, file) {
  const parent = new Map([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const current = queue.shift();
    for (const { target } of importsOf(current)) {
      if (target === file) {
        const chain = [];
        for (let node = current; node; node = parent.get(node)) chain.unshift(node);
        return chain;
      }
      if (!parent.has(target)) {
        parent.set(target, current);
        queue.push(target);
      }
    }
  }
  return null;
}

export const noCycles = {
  meta: {
    type: "problem",
    docs: { description: "A module never imports itself again through other modules." },
    messages: {
      cycle: "Import cycle: {{chain}}. Move what both sides need into a module below them.",
    },
    schema: [],
  },
  create(context) {
    const file = path.resolve(context.filename);
    if (!/\.tsx?$/.test(file)) return {};
    const reported = new Set();
    // The text being linted (possibly unsaved) gives this module's own imports; the others are read from disk.
    const ownImports = importsOf(file, context.sourceCode.text);
    function check(node) {
      const specifier = node.source?.value;
      if (typeof specifier !== "string" || reported.has(specifier)) return;
      const own = ownImports.find((entry) => entry.specifier === specifier);
      if (!own) return;
      const chain = own.target === file ? [] : pathBack(own.target, file);
      if (!chain) return;
      reported.add(specifier);
      const names = [file, ...chain, file].map((module) => path.relative(root, module));
      context.report({ node: node.source, messageId: "cycle", data: { chain: names.join(" → ") } });
    }
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check, ImportExpression: check };
  },
};
