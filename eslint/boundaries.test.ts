import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..");
const eslint = new ESLint({ cwd: root });

/** The rules the project's own config reports for `code` as if it were the file `file`. */
async function rulesFor(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return (result?.messages ?? []).map((message) => message.ruleId ?? "parse error");
}

describe("import boundaries (eslint.config.js)", () => {
  it("lets a capability reach another through its index.ts or policy.ts only", async () => {
    const file = "app/.server/quizzes/example.ts";
    expect(await rulesFor(file, 'import { createCourse } from "../courses";\nexport { createCourse };\n')).toEqual([]);
    expect(await rulesFor(file, 'import { canManageCourse } from "../courses/policy";\nexport { canManageCourse };\n')).toEqual([]);
    expect(await rulesFor(file, 'import { slugify } from "../courses/authoring";\nexport { slugify };\n')).toEqual([
      "campus/capability-boundaries",
    ]);
    // The alias does not go around it.
    expect(await rulesFor(file, 'import { slugify } from "~/.server/courses/authoring";\nexport { slugify };\n')).toEqual([
      "campus/capability-boundaries",
    ]);
  });

  it("leaves a capability's own modules, the platform services and the app's composition alone", async () => {
    expect(
      await rulesFor("app/.server/quizzes/example.ts", 'import { getManagedQuiz } from "./authoring";\nexport { getManagedQuiz };\n'),
    ).toEqual([]);
    expect(await rulesFor("app/.server/quizzes/example.ts", 'import { users } from "../db/schema";\nexport { users };\n')).toEqual([]);
    expect(await rulesFor("app/.server/http/example.ts", 'import { sessionOf } from "../auth/express";\nexport { sessionOf };\n')).toEqual(
      [],
    );
  });

  it("keeps server code out of components and lib", async () => {
    for (const file of ["app/components/example.tsx", "app/lib/example.ts"]) {
      expect(await rulesFor(file, 'import { dbContext } from "~/.server/context";\nexport { dbContext };\n')).toEqual([
        "no-restricted-imports",
      ]);
      expect(await rulesFor(file, 'import { x } from "../routes/shell/shell-data.server";\nexport { x };\n')).toEqual([
        "no-restricted-imports",
      ]);
    }
    expect(await rulesFor("app/routes/example.tsx", 'import { dbContext } from "~/.server/context";\nexport { dbContext };\n')).toEqual([]);
  });

  it("refuses an import cycle, type-only imports included, through the alias too", async () => {
    // mail/message.ts is below mail/index.ts: importing the index back from it closes a cycle.
    expect(await rulesFor("app/.server/mail/message.ts", 'import type { MailEnv } from "./index";\nexport type { MailEnv };\n')).toEqual([
      "campus/no-cycles",
    ]);
    expect(await rulesFor("app/.server/mail/message.ts", 'import { sendMail } from "~/.server/mail";\nexport { sendMail };\n')).toEqual([
      "campus/no-cycles",
    ]);
    // A module importing one that does not import it back is fine.
    expect(
      await rulesFor("app/.server/mail/index.ts", 'import type { MailMessage } from "./message";\nexport type { MailMessage };\n'),
    ).toEqual([]);
  });
});
