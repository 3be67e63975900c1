/**
 * Test fixtures: writable copies of the Python-written sample workspaces.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

/** The repository root (tests run from out/test/unit). */
export const REPO_ROOT = path.join(__dirname, "../../..");

/** A writable temp copy of test/fixtures/NAME. */
export function copyFixture(name: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `${path.basename(name)}-`));
  fs.cpSync(path.join(REPO_ROOT, "test/fixtures", name), dir, { recursive: true });
  const chmod = (p: string) => {
    fs.chmodSync(p, fs.statSync(p).isDirectory() ? 0o755 : 0o600);
    if (fs.statSync(p).isDirectory()) for (const f of fs.readdirSync(p)) chmod(path.join(p, f));
  };
  chmod(dir);
  return dir;
}
