// esbuild plugins shared by esbuild.mjs and the unit test that measures the host bundle
// (test/unit/package/hostBundle.test.ts), so both build it alike. CommonJS: the test's out/ is CommonJS.
/* global require, module */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { dirname, join, sep } = require("node:path");

/**
 * zod's classic API exports every locale (`z.locales`, 260 KB of each minified bundle); nothing of
 * ours reads another locale than the English default (`z.config(en())`, which zod sets itself), so
 * each bundle gets the English one alone.
 */
const zodEnglishOnly = {
  name: "zod-english-only",
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (a) =>
      a.importer.includes(`${sep}node_modules${sep}zod${sep}`)
        ? { path: join(dirname(a.importer), "..", "locales", "en.js"), namespace: "zod-english-only" }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: "zod-english-only" }, (a) => ({
      contents: `export { default as en } from ${JSON.stringify(a.path)};`,
      loader: "js",
      resolveDir: dirname(a.path),
    }));
  },
};

module.exports = { zodEnglishOnly };
