/**
 * Tests that need what only some machines give (root on Linux for mknod, a tmpfs mount, running
 * a program as another user) skip elsewhere through `skipUnless`, which prints why. Mocha then
 * reports them as pending, never as passed, and the totals (`npm run test:unit`, `.ci/run`) count
 * pending tests apart. No test skips any other way (test/unit/rules/suiteRules.test.ts checks it).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

/** Root on Linux: mknod, mount and setpriv work, and file permissions do not stop this process. */
export const ROOT_ON_LINUX = process.platform === "linux" && process.getuid?.() === 0;

/** Skips the running test, printing `skipped (needs NEED): TITLE`, unless `available`. */
export function skipUnless(ctx: Mocha.Context, available: boolean, need: string): void {
  if (available) return;
  console.log(`      skipped (needs ${need}): ${ctx.test?.title ?? ""}`);
  ctx.skip();
}

/** Whether every user may pass through `dir` and each folder above it (the others' x bit). */
export function reachableByEveryone(dir: string): boolean {
  for (let p = path.resolve(dir); ; p = path.dirname(p)) {
    try {
      if ((fs.statSync(p).mode & 0o001) === 0) return false;
    } catch {
      return false;
    }
    if (path.dirname(p) === p) return true;
  }
}

/**
 * A new empty folder (mode 0755) that every user can reach: under the temp folder when that is
 * reachable, else under /tmp or /var/tmp. A checkout may sit where others cannot enter (under
 * /root, in a 0700 folder); a test that runs a program as another user stages what it needs here.
 * Null when there is no such place.
 */
export function folderEveryoneReaches(prefix: string): string | null {
  for (const base of [os.tmpdir(), "/tmp", "/var/tmp"]) {
    if (!reachableByEveryone(base)) continue;
    const dir = fs.mkdtempSync(path.join(base, prefix));
    fs.chmodSync(dir, 0o755);
    return dir;
  }
  return null;
}
