import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Conventions of decision 0017 that a linter rule would be heavy for, checked over the sources:
 * roles are compared only in policy modules (through auth/actor.ts), and errors are AppError.
 */
const serverDir = path.resolve(import.meta.dirname, "../app/.server");

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith(".test.ts") ? [full] : [];
  });
}

function offences(pattern: RegExp, allowed: (file: string) => boolean): string[] {
  return sources(serverDir).flatMap((file) =>
    allowed(file)
      ? []
      : fs
          .readFileSync(file, "utf8")
          .split("\n")
          .flatMap((line, index) => (pattern.test(line) ? [`${path.relative(serverDir, file)}:${index + 1}: ${line.trim()}`] : [])),
  );
}

describe("server conventions", () => {
  it("compares roles only in policy modules", () => {
    expect(offences(/role [!=]== "/, (file) => file.endsWith("policy.ts"))).toEqual([]);
  });

  it("asks whether someone is an admin only in policy modules", () => {
    expect(offences(/\bisAdmin\(/, (file) => file.endsWith("policy.ts") || file.endsWith(path.join("auth", "actor.ts")))).toEqual([]);
  });

  it("says which enrolments follow a course in one place, learning/policy.ts (FOLLOWING, isFollowing, followingEnrolment)", () => {
    expect(offences(/\[\s*"active",\s*"completed"\s*\]/, (file) => file.endsWith(path.join("learning", "policy.ts")))).toEqual([]);
  });

  it("has one error type for refusals (AppError), no capability-specific error class", () => {
    // Platform errors that never reach a route (configuration, the data-dir lock, the body limit) are not refusals.
    const platform = ["errors.ts", "env.ts", "auth/config.ts", "db/lock.ts", "http/edge.ts", "http/route-errors.ts"];
    expect(offences(/class \w+ extends Error\b/, (file) => platform.some((name) => file.endsWith(name)))).toEqual([]);
  });
});
