import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The patched packages (patches/README.md): each pinned to the exact version its patch was written
 * for, installed at that version, and the install stopping when a patch does not apply. A `^`
 * range would let an update install code the patch was never applied to.
 */
const root = path.resolve(import.meta.dirname, "../..");
const manifest = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as {
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
};
const patches = fs
  .readdirSync(path.join(root, "patches"))
  .filter((file) => file.endsWith(".patch"))
  .map((file) => {
    const [, name, version] = /^(.+)\+(\d+\.\d+\.\d+)\.patch$/.exec(file)!;
    return { file, name: name!.replace("+", "/"), version: version! };
  });

describe("patched packages", () => {
  it("stop the install when a patch does not apply", () => {
    expect(manifest.scripts.postinstall).toBe("patch-package --error-on-fail");
  });

  it.each(patches)("$name is pinned to $version, installed at that version, and described", ({ file, name, version }) => {
    expect(manifest.dependencies[name]).toBe(version);
    const installed = JSON.parse(fs.readFileSync(path.join(root, "node_modules", name, "package.json"), "utf8")) as { version: string };
    expect(installed.version).toBe(version);
    expect(fs.readFileSync(path.join(root, "patches/README.md"), "utf8")).toContain(`\`${file}\``);
  });

  it("keeps React at React DOM's exact version (its peer)", () => {
    expect(manifest.dependencies.react).toBe(manifest.dependencies["react-dom"]);
  });
});
