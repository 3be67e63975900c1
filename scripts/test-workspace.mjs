// The workspace the integration tests open (both launchers): fresh temporary copies of
// test/fixtures/ folders, so tests may write. One folder opens as itself; several open as a
// multi-root .code-workspace in the given order (the first is the tests' workspaceFolders[0]).
import { cpSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";

/** Fixture folders: AUTODEV_IT_FIXTURES (comma-separated names under test/fixtures/) or the default. */
export function fixtureFolders(root, env = process.env) {
  return (env.AUTODEV_IT_FIXTURES ?? "python-small,python-unicode,agloop-clean,agloop-broken,python-full/workspace")
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean)
    .map((name) => resolve(root, "test", "fixtures", name));
}

/** Copies `fixtures` under `work`; returns the folder, or a .code-workspace over several. */
export function makeTestWorkspace(work, fixtures) {
  for (const fixture of fixtures) {
    const markers = [join(".autodev", "plan-ledger.jsonl"), ".agloop"];
    if (!markers.some((m) => existsSync(join(fixture, m)))) {
      throw new Error(`fixture ${fixture} has no state folder (${markers.join(", ")})`);
    }
  }
  const dir = join(work, "workspace");
  mkdirSync(dir, { recursive: true });
  const copies = fixtures.map((fixture) => {
    const copy = join(dir, basename(fixture));
    cpSync(fixture, copy, { recursive: true });
    return copy;
  });
  if (copies.length === 1) return copies[0];
  const file = join(dir, "integration.code-workspace");
  writeFileSync(file, JSON.stringify({ folders: copies.map((path) => ({ path })) }, null, 2));
  return file;
}
