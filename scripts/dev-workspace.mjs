// The workspaces the F5 launch configurations open (.vscode/launch.json), made fresh each time under
// .vscode-test/workspaces/ (gitignored), so whatever a debugging session writes never touches the repository.
//
//   node scripts/dev-workspace.mjs demo       the demo workspace (dist/makeDemo.js; run after a build)
//   node scripts/dev-workspace.mjs fixtures   copies of the integration tests' fixtures as one multi-root
//                                             workspace (AUTODEV_IT_FIXTURES picks others)
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { fixtureFolders, makeTestWorkspace } from "./test-workspace.mjs";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const BASE = join(ROOT, ".vscode-test", "workspaces");
const kind = process.argv[2];

if (kind === "demo") {
  const folder = join(BASE, "demo");
  rmSync(folder, { recursive: true, force: true });
  const made = spawnSync(process.execPath, [join(ROOT, "dist", "makeDemo.js"), folder], { stdio: "inherit" });
  if (made.status !== 0) process.exit(made.status ?? 1);
  console.log(folder);
} else if (kind === "fixtures") {
  const work = join(BASE, "fixtures");
  rmSync(work, { recursive: true, force: true });
  console.log(makeTestWorkspace(work, fixtureFolders(ROOT)));
} else {
  console.error("usage: node scripts/dev-workspace.mjs demo|fixtures");
  process.exit(2);
}
