// ESLint flat config: the `yo code` setup (typescript-eslint recommended, naming convention for
// imports, curly, eqeqeq, no-throw-literal, semi) plus the architecture rules: src/core stays plain
// Node (no `vscode`) and never imports the webview protocol, the sample/demo code or the extension.
// The build and test scripts (`*.mjs`: esbuild.mjs, this file, scripts/) are linted as Node ES
// modules; the functions they hand to Playwright's page.evaluate run in the browser, hence its globals.
import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";

const CORE_FORBIDDEN = [
  { group: ["vscode", "vscode/*"], message: "src/core is plain Node: no vscode (it runs in the CLI and the worker)." },
  {
    group: ["**/protocol", "**/protocol.ts"],
    message: "src/core must not import src/protocol.ts; the protocol imports core types.",
  },
  { group: ["**/sample/*", "**/sample"], message: "src/core must not import src/sample/." },
  { group: ["**/extension/*", "**/extension"], message: "src/core must not import src/extension/." },
];

export default tseslint.config(
  {
    ignores: [
      "out/**",
      "dist/**",
      "node_modules/**",
      ".cache/**",
      "test-artifacts/**",
      "test/fixtures/**",
      "bench/data/**",
      ".vscode-test/**",
      "**/*.js",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.mjs"],
    languageOptions: {
      ecmaVersion: 2024,
      sourceType: "module",
      globals: { ...globals.node, ...globals.browser },
    },
    rules: {
      curly: ["warn", "multi-line"],
      eqeqeq: "warn",
      "no-throw-literal": "warn",
      "@typescript-eslint/no-unused-vars": [
        "warn",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_" },
      ],
    },
  },
  {
    files: ["**/*.ts"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module" },
    rules: {
      "@typescript-eslint/naming-convention": ["warn", { selector: "import", format: ["camelCase", "PascalCase"] }],
      // Braces for multi-line bodies; a one-line `if (x) return;` stays as the code base writes it.
      curly: ["warn", "multi-line"],
      eqeqeq: "warn",
      "no-throw-literal": "warn",
      semi: "warn",
      "@typescript-eslint/no-unused-vars": [
        "warn",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_" },
      ],
      "no-undef": "off", // TypeScript checks names
    },
  },
  {
    files: ["src/core/**/*.ts"],
    rules: { "no-restricted-imports": ["error", { patterns: CORE_FORBIDDEN }] },
  },
);
