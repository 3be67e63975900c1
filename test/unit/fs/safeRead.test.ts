// The shared check-before-open primitives (src/core/fs/safeRead.ts) on real file types: a FIFO,
// a character device, links out of the workspace, dangling links, link loops, a directory and an
// over-size sparse file each become an UnsafeFileError naming the path and what was found; a
// FIFO is never opened (the test would hang if it were).
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { execFileSync } from "node:child_process";
import { UnsafeFileError, checkFolder, readRegularFile } from "../../../src/core/fs/safeRead";
import { readRegularFileSync } from "../../../src/core/fs/safeReadSync";
import { ROOT_ON_LINUX, skipUnless } from "../../helpers/environmentNeeds";

describe("safeRead: check before open", () => {
  let tmp: string;
  let ws: string;
  before(() => {
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "saferead-")));
    ws = path.join(tmp, "ws");
    fs.mkdirSync(ws);
    fs.writeFileSync(path.join(tmp, "secret"), "SECRET");
    fs.writeFileSync(path.join(ws, "ok.txt"), "hello");
    execFileSync("mkfifo", [path.join(ws, "fifo")]);
    fs.symlinkSync("/dev/zero", path.join(ws, "zero"));
    fs.symlinkSync("../secret", path.join(ws, "out"));
    fs.symlinkSync("ok.txt", path.join(ws, "in"));
    fs.symlinkSync("nowhere", path.join(ws, "dangling"));
    fs.symlinkSync("loop2", path.join(ws, "loop1"));
    fs.symlinkSync("loop1", path.join(ws, "loop2"));
    fs.mkdirSync(path.join(ws, "dir"));
    fs.writeFileSync(path.join(ws, "big"), "");
    fs.truncateSync(path.join(ws, "big"), 10 * 1024 * 1024);
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  const cases: [string, RegExp][] = [
    ["fifo", /found a FIFO \(named pipe\)/],
    ["zero", /resolves to \/dev\/zero, outside the workspace/],
    ["out", /outside the workspace/],
    ["dangling", /symbolic link to a missing target/],
    ["loop1", /loop of symbolic links \(ELOOP\)/],
    ["dir", /found a directory/],
    ["big", /10485760 bytes, over the 1024-byte limit/],
  ];
  for (const [name, why] of cases) {
    it(`refuses ${name} with a message naming it (async and sync)`, async () => {
      const file = path.join(ws, name);
      await assert.rejects(readRegularFile(file, { root: ws, maxBytes: 1024 }), (e: unknown) => {
        assert.ok(e instanceof UnsafeFileError, String(e));
        assert.match(e.message, why);
        assert.match(e.message, new RegExp(`\\(${name}\\)`));
        return true;
      });
      assert.throws(() => readRegularFileSync(file, { root: ws, maxBytes: 1024 }), why);
    });
  }

  it("refuses a character device inside the workspace (mknod)", async function () {
    skipUnless(this, ROOT_ON_LINUX, "root on Linux, for mknod");
    const dev = path.join(ws, "null-dev");
    execFileSync("mknod", [dev, "c", "1", "3"]);
    await assert.rejects(readRegularFile(dev, { root: ws }), /found a character device/);
  });

  it("reads a regular file and a link to one inside the workspace; a missing file is null", async () => {
    assert.equal(String(await readRegularFile(path.join(ws, "ok.txt"), { root: ws })), "hello");
    assert.equal(String(await readRegularFile(path.join(ws, "in"), { root: ws })), "hello");
    assert.equal(await readRegularFile(path.join(ws, "missing"), { root: ws }), null);
    assert.equal(readRegularFileSync(path.join(ws, "missing"), { root: ws }), null);
  });

  it("checks folders: a link out and a file are refused, a missing one is null", async () => {
    fs.symlinkSync(tmp, path.join(ws, "dirout"));
    await assert.rejects(checkFolder(path.join(ws, "dirout"), { root: ws }), /outside the workspace/);
    await assert.rejects(checkFolder(path.join(ws, "ok.txt"), { root: ws }), /expected a folder, found a regular file/);
    assert.equal(await checkFolder(path.join(ws, "nope"), { root: ws }), null);
    assert.equal(await checkFolder(path.join(ws, "dir"), { root: ws }), path.join(ws, "dir"));
  });
});
