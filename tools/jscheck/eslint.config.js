/* ESLint for the pages (pi_app/web/static: ES modules in the browser) and their node tests
   (tests/js), run from the repository's root by `make jscheck` (part of `make check` and
   `make test`). Beside the recommended rules: no shadowed name (a page's local `t` or
   `territory` hid the imported one), strict equality, and no page file over 400 lines
   (issue 32.7's aim). */
import js from "@eslint/js";
import globals from "globals";

export default [
  js.configs.recommended,
  {
    files: ["pi_app/web/static/**/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: { ...globals.browser } },
    rules: {
      "no-unused-vars": ["error", { args: "none", caughtErrors: "none" }],
      "no-empty": ["error", { allowEmptyCatch: true }],
      eqeqeq: ["error", "always", { null: "ignore" }],
      "no-var": "error",
      "prefer-const": "error",
      "no-implicit-globals": "error",
      "no-shadow": "error",
      "max-lines": ["error", { max: 400 }],
    },
  },
  {
    files: ["tests/js/**/*.mjs", "tools/jscheck/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: { ...globals.node } },
    rules: { "no-unused-vars": ["error", { args: "none", caughtErrors: "none" }], eqeqeq: "error" },
  },
];
