// The check-before-open of src/core/fs/fileGuard.ts at its edges: the size cap is exact (one byte
// over is refused with the size and the cap, exactly at the cap is read) in both link modes; with
// links refused, a link or a file in the middle of the path is named by its workspace-relative
// component; a folder is never refused for its size; an unexpected errno (a name too long) is a
// refusal, never taken for a missing file; a socket or a block device is named for what it is.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { execFileSync } from "node:child_process";
import { guardPath, type FileGuardOptions, type GuardedPath } from "../../../src/core/fs/fileGuard";
import { checkRegularFile, readRegularFile } from "../../../src/core/fs/safeRead";
import { ROOT_ON_LINUX, skipUnless } from "../../helpers/environmentNeeds";

/** The refusal of `checked`, failing the test when it was not refused. */
function refusalOf(checked: GuardedPath) {
  assert.equal(checked.kind, "refused", JSON.stringify(checked));
  return (checked as Extract<GuardedPath, { kind: "refused" }>).refusal;
}

describe("fileGuard: the edges of the checks", () => {
  let ws: string;
  const at = (...parts: string[]) => path.join(ws, ...parts);
  before(() => {
    ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "fileguard-")));
    fs.writeFileSync(at("ten.txt"), "0123456789");
    fs.mkdirSync(at("sub", "deep"), { recursive: true });
    fs.writeFileSync(at("sub", "deep", "f.txt"), "x");
    fs.symlinkSync("deep", at("sub", "link"));
    fs.symlinkSync("ten.txt", at("alias.txt"));
  });
  after(() => fs.rmSync(ws, { recursive: true, force: true }));

  for (const links of ["inside", "refuse"] as const) {
    const opts = (maxBytes?: number): FileGuardOptions => ({ root: ws, links, maxBytes });

    it(`links ${links}: a file exactly at the cap passes, one byte over is refused with both sizes`, async () => {
      assert.equal((await guardPath(at("ten.txt"), opts(10))).kind, "ok");
      assert.equal((await guardPath(at("ten.txt"), opts())).kind, "ok", "no cap: any size");
      assert.deepEqual(refusalOf(await guardPath(at("ten.txt"), opts(9))), {
        why: "too large",
        size: 10,
        maxBytes: 9,
      });
    });

    it(`links ${links}: a folder is never refused for its size; a missing file with a cap is missing`, async () => {
      const checked = await guardPath(at("sub"), opts(1), "folder");
      assert.equal(checked.kind, "ok", JSON.stringify(checked));
      assert.deepEqual(await guardPath(at("sub", "none.txt"), opts(1)), { kind: "missing" });
    });

    it(`links ${links}: a name too long is refused as unreadable, not taken for missing`, async () => {
      const long = "n".repeat(300);
      const refusal = refusalOf(await guardPath(at("sub", long), opts()));
      const where = links === "refuse" ? { at: `sub/${long}` } : {};
      assert.deepEqual(refusal, { why: "unreadable", step: "check", code: "ENAMETOOLONG", ...where });
      const stillRefused = refusalOf(await guardPath(at("sub", long), { ...opts(), notDirIsMissing: true }));
      assert.equal(stillRefused.why, "unreadable", "only ENOTDIR counts as missing when asked");
    });

    it(`links ${links}: a file where a folder belongs is refused, or missing when the caller says so`, async () => {
      const file = at("ten.txt", "below.txt");
      const refusal = refusalOf(await guardPath(file, opts()));
      if (links === "refuse") {
        assert.deepEqual(refusal, { why: "wrong kind", found: "regular file", expected: "folder", at: "ten.txt" });
      } else {
        assert.deepEqual(refusal, { why: "unreadable", step: "check", code: "ENOTDIR" });
        assert.deepEqual(await guardPath(file, { ...opts(), notDirIsMissing: true }), { kind: "missing" });
      }
    });
  }

  it("the messages a user reads: over the cap names size and limit; at the cap reads the file", async () => {
    await assert.rejects(
      checkRegularFile(at("ten.txt"), { root: ws, maxBytes: 9, what: "plan.json" }),
      (e: Error) => e.message === "plan.json (ten.txt): is 10 bytes, over the 9-byte limit; not read",
    );
    assert.equal((await readRegularFile(at("ten.txt"), { root: ws, maxBytes: 10 }))?.toString(), "0123456789");
  });

  it("links refused: a link in the middle of the path is named by its place in the workspace", async () => {
    const refusal = refusalOf(await guardPath(at("sub", "link", "f.txt"), { root: ws, links: "refuse" }));
    assert.deepEqual(refusal, { why: "wrong kind", found: "symbolic link", expected: "folder", at: "sub/link" });
    const last = refusalOf(await guardPath(at("alias.txt"), { root: ws, links: "refuse" }));
    assert.deepEqual(last, { why: "wrong kind", found: "symbolic link", expected: "file" });
    assert.equal((await guardPath(at("sub", "deep", "f.txt"), { root: ws, links: "refuse" })).kind, "ok");
  });

  it("links refused: the workspace itself or a path outside it is refused as leaving it", async () => {
    assert.deepEqual(refusalOf(await guardPath(ws, { root: ws, links: "refuse" }, "folder")), { why: "escapes" });
    const outside = path.join(path.dirname(ws), "elsewhere.txt");
    assert.deepEqual(refusalOf(await guardPath(outside, { root: ws, links: "refuse" })), { why: "escapes" });
  });

  it("links inside (the default): a link to a file inside passes as its target; without a root, links refused is a plain check", async () => {
    const checked = await guardPath(at("alias.txt"), { root: ws });
    assert.equal(checked.kind === "ok" && checked.real, at("ten.txt"));
    const anywhere = await guardPath(at("alias.txt"), { root: null, links: "refuse" });
    assert.equal(anywhere.kind === "ok" && anywhere.real, at("ten.txt"));
  });

  it("a workspace folder that cannot be resolved is named as such", async () => {
    const gone = at("no-such-root");
    assert.deepEqual(refusalOf(await guardPath(at("ten.txt"), { root: gone })), {
      why: "root unresolved",
      code: "ENOENT",
    });
    await assert.rejects(
      checkRegularFile(at("ten.txt"), { root: gone }),
      /the workspace folder .*no-such-root cannot be resolved/,
    );
  });

  it("a file where a folder is wanted is refused as not a folder", async () => {
    assert.deepEqual(refusalOf(await guardPath(at("ten.txt"), { root: ws }, "folder")), {
      why: "wrong kind",
      found: "regular file",
      expected: "folder",
    });
  });

  it("a socket is refused and named a socket", async () => {
    const sock = at("agent.sock");
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(sock, resolve));
    try {
      for (const links of ["inside", "refuse"] as const) {
        assert.deepEqual(refusalOf(await guardPath(sock, { root: ws, links })), {
          why: "wrong kind",
          found: "socket",
          expected: "file",
        });
      }
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("a block device is refused and named a block device (mknod)", async function () {
    skipUnless(this, ROOT_ON_LINUX, "root on Linux, for mknod");
    const dev = at("loop-dev");
    execFileSync("mknod", [dev, "b", "7", "200"]);
    try {
      assert.deepEqual(refusalOf(await guardPath(dev, { root: ws })), {
        why: "wrong kind",
        found: "block device",
        expected: "file",
      });
    } finally {
      fs.rmSync(dev);
    }
  });
});
