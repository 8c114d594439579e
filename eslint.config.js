import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";
import { capabilityBoundaries } from "./eslint/boundaries.js";
import { noCycles } from "./eslint/no-cycles.js";

const serverOnly = {
  group: ["~/.server", "~/.server/*", "**/.server/*", "**/*.server", "**/*.server.*"],
  message: "Components and lib/ run in the browser too: they never import server code (.server). Pass the data from a loader.",
};

export default tseslint.config(
  {
    ignores: [
      "node_modules/",
      "build/",
      "build-*/",
      "data/",
      ".react-router/",
      "test-results/",
      "playwright-report/",
      "bench/results/",
      "drizzle/",
      "public/",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks, campus: { rules: { "capability-boundaries": capabilityBoundaries, "no-cycles": noCycles } } },
    rules: {
      // The classic rules of hooks; the React Compiler's stricter ones are not adopted (no compiler here).
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "warn",
      "campus/capability-boundaries": "error",
      "campus/no-cycles": "error",
      // French typography puts a no-break space inside « » and before ? ! : ; in texts (and in the tests' patterns that match them).
      "no-irregular-whitespace": [
        "error",
        { skipStrings: true, skipTemplates: true, skipJSXText: true, skipComments: true, skipRegExps: true },
      ],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", ignoreRestSiblings: true }],
    },
  },
  {
    files: ["app/components/**", "app/lib/**"],
    rules: { "no-restricted-imports": ["error", { patterns: [serverOnly] }] },
  },
);
