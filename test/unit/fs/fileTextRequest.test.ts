/**
 * The state worker's `fileText` request, which reads a workspace file as one side of a diff (the
 * host does no file I/O): the text of a regular file inside the folder; null when it is missing;
 * a clear refusal for a path or a link that leads out, a FIFO (never a hang), and a file over the cap.
 */
import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { handleRequest } from "../../../src/core/worker/stateWorker";
import { skipUnless } from "../../helpers/environmentNeeds";

/** The worker's answer to `fileText` for `file` in `cwd`. */
function fileText(cwd: string, file: string, maxBytes = 1024): Promise<unknown> {
  return handleRequest({ id: 1, type: "fileText", cwd, file, maxBytes }, () => undefined);
}

describe("state worker: fileText (a diff side read by the worker)", () => {
  let root = "";
  let outside = "";

  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), "file-text-"));
    outside = fs.mkdtempSync(path.join(os.tmpdir(), "file-text-outside-"));
    fs.mkdirSync(path.join(root, "src"));
    fs.writeFileSync(path.join(root, "src", "a.py"), "print('a')\n");
    fs.writeFileSync(path.join(outside, "secret.txt"), "outside\n");
  });

  afterEach(() => {
    fs.rmSync(root, { recursive: true, force: true });
    fs.rmSync(outside, { recursive: true, force: true });
  });

  it("reads a regular file inside the folder, and answers null for a missing one", async () => {
    assert.equal(await fileText(root, "src/a.py"), "print('a')\n");
    assert.equal(await fileText(root, "src/gone.py"), null);
  });

  it("refuses a path that leaves the folder before looking at it", async () => {
    await assert.rejects(fileText(root, `../${path.basename(outside)}/secret.txt`), /outside the workspace folder/);
    await assert.rejects(fileText(root, path.join(outside, "secret.txt")), /outside the workspace folder/);
  });

  it("refuses a link that resolves outside, and says what to do", async () => {
    fs.symlinkSync(path.join(outside, "secret.txt"), path.join(root, "src", "b.py"));
    await assert.rejects(fileText(root, "src/b.py"), (e: Error) => {
      assert.match(e.message, /^src\/b\.py .*outside the workspace/);
      assert.match(e.message, /remove the link or replace it with the file/);
      return true;
    });
  });

  it("refuses a FIFO at once instead of blocking on it", async function () {
    skipUnless(this, process.platform !== "win32", "mkfifo (POSIX)");
    execFileSync("mkfifo", [path.join(root, "src", "pipe.py")]);
    await assert.rejects(fileText(root, "src/pipe.py"), /expected a regular file, found a FIFO/);
  });

  it("refuses a file over the cap, naming the size and the limit", async () => {
    fs.writeFileSync(path.join(root, "src", "big.py"), "x".repeat(2048));
    await assert.rejects(fileText(root, "src/big.py", 1024), /src\/big\.py.*2048 bytes, over the 1024-byte limit/);
  });
});
