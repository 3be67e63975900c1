// Crash-safe replacement (src/core/fs/atomicFile.ts) as its callers rely on it: the new content
// lands whole, with the mode asked for, and no temp file is left behind; a temp-name collision is
// retried and the write still lands; a failure at any step (collision after collision, a full
// disk on write, a failed rename, a failed fsync) is thrown, the old file is left as it was and
// the temp file is removed. Faults are injected by replacing `fs.promises.open` / `rename` for the
// duration of one call (the same seam test/unit/autodev/evidenceStore.test.ts uses).
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { atomicAppendCopy, atomicWriteFile, fsyncDir } from "../../../src/core/fs/atomicFile";
import { skipUnless } from "../../helpers/environmentNeeds";

type Open = typeof fs.promises.open;

/** An errno-style error with `code`, as fs throws it. */
function errno(code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: injected`), { code });
}

/** Runs `body` with `fs.promises.open` replaced by `fake` (which may call the real one). */
async function withOpen<T>(fake: (real: Open, ...args: Parameters<Open>) => ReturnType<Open>, body: () => Promise<T>) {
  const real = fs.promises.open;
  fs.promises.open = ((...args: Parameters<Open>) => fake(real, ...args)) as Open;
  try {
    return await body();
  } finally {
    fs.promises.open = real;
  }
}

/** Opens of a new temp file (O_EXCL): the first `n` fail with EEXIST, as when the random name is taken. */
function collide(n: number): {
  fake: (real: Open, ...args: Parameters<Open>) => ReturnType<Open>;
  tries: () => number;
} {
  let tries = 0;
  return {
    tries: () => tries,
    fake: (real, file, flags, mode) => {
      if (typeof flags === "number" && (flags & fs.constants.O_EXCL) !== 0) {
        tries++;
        if (tries <= n) return Promise.reject(errno("EEXIST"));
      }
      return real(file, flags, mode);
    },
  };
}

/** A folder's `fsync` (open of `dir` then sync) fails with `code`; every other open is the real one. */
function dirSyncFails(dir: string, code: string, at: "open" | "sync") {
  return async (real: Open, ...[file, flags, mode]: Parameters<Open>) => {
    if (String(file) !== dir) return real(file, flags, mode);
    if (at === "open") throw errno(code);
    const fh = await real(file, flags, mode);
    fh.sync = () => Promise.reject(errno(code));
    return fh;
  };
}

describe("atomicFile: crash-safe replacement", () => {
  let dir: string;
  let target: string;
  beforeEach(() => {
    dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "atomicfile-")));
    target = path.join(dir, "plan.json");
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** The folder's entries other than the target (a temp file left behind shows up here). */
  const leftovers = () => fs.readdirSync(dir).filter((f) => f !== "plan.json");
  const modeOf = (file: string) => fs.statSync(file).mode & 0o777;

  it("writes a string, a Buffer and a list of pieces whole, 0600, leaving no temp file", async () => {
    await atomicWriteFile(target, "héllo\n", ".plan.");
    assert.equal(fs.readFileSync(target, "utf8"), "héllo\n");
    assert.equal(modeOf(target), 0o600);
    await atomicWriteFile(target, Buffer.from([0, 1, 2, 255]), ".plan.");
    assert.deepEqual([...fs.readFileSync(target)], [0, 1, 2, 255]);
    await atomicWriteFile(target, ["one\n", "twö\n", "three\n"], ".plan.");
    assert.equal(fs.readFileSync(target, "utf8"), "one\ntwö\nthree\n");
    assert.deepEqual(leftovers(), []);
  });

  it("gives the new file the mode asked for, or keeps the mode of the file it replaces", async () => {
    const umask = process.umask();
    await atomicWriteFile(target, "a", ".plan.", { mode: 0o644 });
    assert.equal(modeOf(target), 0o644 & ~umask);
    fs.chmodSync(target, 0o640);
    await atomicWriteFile(target, "b", ".plan.", { keepMode: true });
    assert.equal(modeOf(target), 0o640, "keepMode keeps the replaced file's mode");
    await atomicWriteFile(target, "c", ".plan.");
    assert.equal(modeOf(target), 0o600, "without keepMode the default mode, whatever was there");
    const fresh = path.join(dir, "new.json");
    await atomicWriteFile(fresh, "n", ".new.", { mode: 0o644, keepMode: true });
    assert.equal(modeOf(fresh), 0o644 & ~umask, "keepMode with nothing to keep: the mode asked for");
    fs.rmSync(fresh);
    assert.equal(fs.readFileSync(target, "utf8"), "c");
  });

  it("retries a temp name that is taken (21 collisions in a row) and still lands the write", async () => {
    fs.writeFileSync(target, "old");
    const one = collide(1);
    await withOpen(one.fake, () => atomicWriteFile(target, "after one collision", ".plan."));
    assert.equal(fs.readFileSync(target, "utf8"), "after one collision");
    assert.equal(one.tries(), 2);
    const many = collide(21);
    await withOpen(many.fake, () => atomicAppendCopy(target, "+tail", ".plan."));
    assert.equal(fs.readFileSync(target, "utf8"), "after one collision+tail");
    assert.equal(many.tries(), 22);
    assert.deepEqual(leftovers(), []);
  });

  it("gives up when every temp name is taken: EEXIST is thrown, no endless loop, the old file kept", async () => {
    fs.writeFileSync(target, "old");
    const always = collide(Infinity);
    await assert.rejects(
      withOpen(always.fake, () => atomicWriteFile(target, "new", ".plan.")),
      (e: NodeJS.ErrnoException) => e.code === "EEXIST",
    );
    assert.ok(always.tries() > 1 && always.tries() < 100, `${always.tries()} tries`);
    assert.equal(fs.readFileSync(target, "utf8"), "old");
  });

  it("throws an error other than a collision at once (a full disk is not retried into success)", async () => {
    fs.writeFileSync(target, "old");
    let failed = 0;
    const fake = (real: Open, ...[file, flags, mode]: Parameters<Open>) =>
      failed++ === 0 ? Promise.reject(errno("ENOSPC")) : real(file, flags, mode);
    await assert.rejects(
      withOpen(fake, () => atomicWriteFile(target, "new", ".plan.")),
      (e: NodeJS.ErrnoException) => e.code === "ENOSPC",
    );
    assert.equal(fs.readFileSync(target, "utf8"), "old");
    assert.deepEqual(leftovers(), []);
  });

  it("a write that fails half-way leaves the old file and removes the temp file", async () => {
    fs.writeFileSync(target, "old");
    function* pieces() {
      yield "first half, ";
      throw errno("ENOSPC");
    }
    await assert.rejects(atomicWriteFile(target, pieces(), ".plan."), /ENOSPC/);
    assert.equal(fs.readFileSync(target, "utf8"), "old");
    assert.deepEqual(leftovers(), []);
  });

  it("a failed rename leaves the old file and removes the temp file (write and append)", async () => {
    fs.writeFileSync(target, "old");
    const real = fs.promises.rename;
    fs.promises.rename = () => Promise.reject(errno("EIO"));
    try {
      await assert.rejects(atomicWriteFile(target, "new", ".plan."), /EIO/);
      await assert.rejects(atomicAppendCopy(target, "+tail", ".plan."), /EIO/);
    } finally {
      fs.promises.rename = real;
    }
    assert.equal(fs.readFileSync(target, "utf8"), "old");
    assert.deepEqual(leftovers(), []);
  });

  it("append: the old content plus the tail, 0600, also when the file is new", async () => {
    fs.writeFileSync(target, "line 1\n", { mode: 0o644 });
    fs.chmodSync(target, 0o644);
    await atomicAppendCopy(target, "line 2\n", ".plan.");
    await atomicAppendCopy(target, Buffer.from("line 3\n"), ".plan.");
    assert.equal(fs.readFileSync(target, "utf8"), "line 1\nline 2\nline 3\n");
    assert.equal(modeOf(target), 0o600);
    const fresh = path.join(dir, "new.jsonl");
    await atomicAppendCopy(fresh, "first\n", ".new.");
    assert.equal(fs.readFileSync(fresh, "utf8"), "first\n");
    assert.equal(modeOf(fresh), 0o600);
    fs.rmSync(fresh);
    assert.deepEqual(leftovers(), []);
  });

  it("append: a copy that fails is thrown; the file is never replaced by the tail alone", async () => {
    fs.writeFileSync(target, "line 1\n");
    const real = fs.promises.copyFile;
    fs.promises.copyFile = () => Promise.reject(errno("EIO"));
    try {
      await assert.rejects(atomicAppendCopy(target, "line 2\n", ".plan."), /EIO/);
    } finally {
      fs.promises.copyFile = real;
    }
    assert.equal(fs.readFileSync(target, "utf8"), "line 1\n");
    assert.deepEqual(leftovers(), []);
  });

  for (const code of ["EISDIR", "EINVAL", "EPERM", "EBADF"]) {
    for (const at of ["open", "sync"] as const) {
      it(`a folder that cannot be fsynced (${code} on ${at}) is tolerated: the write lands`, async () => {
        fs.writeFileSync(target, "old");
        await withOpen(dirSyncFails(dir, code, at), () => atomicWriteFile(target, "new", ".plan."));
        assert.equal(fs.readFileSync(target, "utf8"), "new");
        await withOpen(dirSyncFails(dir, code, at), () => fsyncDir(dir));
      });
    }
  }

  it("any other fsync failure of the folder (EIO) is thrown, not swallowed", async () => {
    for (const at of ["open", "sync"] as const) {
      await assert.rejects(
        withOpen(dirSyncFails(dir, "EIO", at), () => atomicWriteFile(target, "new", ".plan.")),
        (e: NodeJS.ErrnoException) => e.code === "EIO",
        `EIO on ${at}`,
      );
      await assert.rejects(
        withOpen(dirSyncFails(dir, "EIO", at), () => fsyncDir(dir)),
        /EIO/,
      );
    }
  });

  it("closes every handle it opens, also when the folder's fsync fails", async function () {
    skipUnless(this, fs.existsSync("/proc/self/fd"), "/proc/self/fd, to count open descriptors");
    const open = () => fs.readdirSync("/proc/self/fd").length;
    const before = open();
    for (let i = 0; i < 20; i++) {
      await atomicWriteFile(target, `v${i}`, ".plan.");
      await atomicAppendCopy(target, "+", ".plan.");
      await withOpen(dirSyncFails(dir, "EINVAL", "sync"), () => fsyncDir(dir));
      await withOpen(dirSyncFails(dir, "EIO", "sync"), () => fsyncDir(dir)).catch(() => undefined);
    }
    assert.equal(open(), before);
    assert.equal(fs.readFileSync(target, "utf8"), "v19+");
  });
});
