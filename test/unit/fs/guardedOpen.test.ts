// What happens to a state file between the check and the open, and between the open and the
// read (src/core/fs/guardedOpen.ts), made to happen at that moment by wrapping `fs.promises.open`
// (the seam test/unit/hostile/hostileSwaps.test.ts uses) and the opened handle's `stat`: a file
// that grew past the cap is refused with its size, one that grows while read is refused as grown,
// one swapped for a folder is refused as changed, one removed is missing, an open that keeps
// meeting a new link gives up, an open error is named, a folder above swapped for a link to an
// outside folder is named as swapped and the outside file never handed out; no refusal leaks a
// descriptor.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { openGuarded, readGuarded } from "../../../src/core/fs/guardedOpen";
import type { FileGuardOptions, GuardedBytes } from "../../../src/core/fs/fileGuard";
import { setProcFdAvailableForTest } from "../../../src/core/fs/openedPath";
import { skipUnless } from "../../helpers/environmentNeeds";

type Open = typeof fs.promises.open;
type Hook = (file: string, open: () => Promise<fs.promises.FileHandle>) => Promise<fs.promises.FileHandle>;

const errno = (code: string): NodeJS.ErrnoException => Object.assign(new Error(`${code}: injected`), { code });

/** Runs `body` with every open of `target` going through `hook` (which may call the real open). */
async function withOpenOf<T>(target: string, hook: Hook, body: () => Promise<T>): Promise<T> {
  const real = fs.promises.open;
  fs.promises.open = ((...args: Parameters<Open>) =>
    String(args[0]) === target ? hook(target, () => real(...args)) : real(...args)) as Open;
  try {
    return await body();
  } finally {
    fs.promises.open = real;
  }
}

/** The refusal of a read, failing the test when it was not refused. */
function refusalOf(r: GuardedBytes | Awaited<ReturnType<typeof openGuarded>>) {
  assert.equal(r.kind, "refused", JSON.stringify(r));
  return (r as Extract<GuardedBytes, { kind: "refused" }>).refusal;
}

describe("guardedOpen: between the check, the open and the read", () => {
  let ws: string;
  let file: string;
  let opts: FileGuardOptions;
  beforeEach(() => {
    ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "guardedopen-")));
    file = path.join(ws, "state.json");
    fs.writeFileSync(file, "0123456789");
    opts = { root: ws, maxBytes: 10 };
  });
  afterEach(() => fs.rmSync(ws, { recursive: true, force: true }));

  it("a file that grew past the cap after the check is refused as too large, with its size", async () => {
    const r = await withOpenOf(
      file,
      async (f, open) => {
        fs.appendFileSync(f, "ABCDE");
        return open();
      },
      () => readGuarded(file, opts),
    );
    assert.deepEqual(refusalOf(r), { why: "too large", size: 15, maxBytes: 10 });
  });

  it("a file that grows past the cap while it is read is refused as grown; at the cap it is read", async () => {
    const growAfterStat: Hook = async (f, open) => {
      const fh = await open();
      const stat = fh.stat.bind(fh);
      fh.stat = (async (...a: Parameters<typeof fh.stat>) => {
        const st = await stat(...a);
        fs.appendFileSync(f, "more");
        return st;
      }) as typeof fh.stat;
      return fh;
    };
    assert.deepEqual(refusalOf(await withOpenOf(file, growAfterStat, () => readGuarded(file, opts))), {
      why: "grew",
      maxBytes: 10,
    });
    fs.writeFileSync(file, "0123456789");
    const read = await readGuarded(file, opts);
    assert.equal(read.kind === "read" && read.bytes.toString(), "0123456789");
    const uncapped = await withOpenOf(file, growAfterStat, () => readGuarded(file, { root: ws }));
    assert.equal(uncapped.kind === "read" && uncapped.bytes.toString(), "0123456789", "cut where fstat said");
  });

  it("a file swapped for a folder after the check is refused as changed into a directory", async () => {
    const r = await withOpenOf(
      file,
      async (f, open) => {
        fs.rmSync(f);
        fs.mkdirSync(f);
        return open();
      },
      () => readGuarded(file, opts),
    );
    assert.deepEqual(refusalOf(r), { why: "changed", found: "directory" });
  });

  it("a file removed after the check is looked at again and found missing", async () => {
    const r = await withOpenOf(
      file,
      async (f, open) => {
        fs.rmSync(f, { force: true });
        return open();
      },
      () => readGuarded(file, opts),
    );
    assert.deepEqual(r, { kind: "missing" });
  });

  it("a link that appears at the open (ELOOP) is tried again: once is read, every time is refused", async () => {
    let loops = 0;
    const once: Hook = (_f, open) => (loops++ === 0 ? Promise.reject(errno("ELOOP")) : open());
    const read = await withOpenOf(file, once, () => readGuarded(file, opts));
    assert.equal(read.kind === "read" && read.bytes.toString(), "0123456789");
    const always: Hook = () => Promise.reject(errno("ELOOP"));
    const r = await withOpenOf(file, always, () => readGuarded(file, opts));
    assert.deepEqual(refusalOf(r), { why: "changed", found: "symbolic link" });
  });

  it("an open that fails otherwise (EACCES) or an fstat that fails (EIO) is refused and named", async () => {
    const denied = await withOpenOf(
      file,
      () => Promise.reject(errno("EACCES")),
      () => readGuarded(file, opts),
    );
    assert.deepEqual(refusalOf(denied), { why: "unreadable", step: "open", code: "EACCES" });
    const statFails: Hook = async (_f, open) => {
      const fh = await open();
      fh.stat = (() => Promise.reject(errno("EIO"))) as typeof fh.stat;
      return fh;
    };
    const r = await withOpenOf(file, statFails, () => openGuarded(file, opts));
    assert.deepEqual(refusalOf(r), { why: "unreadable", step: "read", code: "EIO" });
  });

  it("a file that vanishes at every open though the check finds it is refused as kept being replaced", async () => {
    const r = await withOpenOf(
      file,
      () => Promise.reject(errno("ENOENT")),
      () => readGuarded(file, opts),
    );
    assert.deepEqual(refusalOf(r), { why: "changed", found: null });
  });

  it("a read that fails (EIO) is refused as unreadable", async () => {
    const readFails: Hook = async (_f, open) => {
      const fh = await open();
      fh.read = (() => Promise.reject(errno("EIO"))) as typeof fh.read;
      return fh;
    };
    const r = await withOpenOf(file, readFails, () => readGuarded(file, opts));
    assert.deepEqual(refusalOf(r), { why: "unreadable", step: "read", code: "EIO" });
  });

  it("without /proc (a fresh walk): a file is read, one replaced at the open is read anew, one always replaced is refused", async () => {
    setProcFdAvailableForTest(false);
    try {
      const plain = await readGuarded(file, opts);
      assert.equal(plain.kind === "read" && plain.bytes.toString(), "0123456789");
      let replaced = 0;
      const replaceOnce: Hook = async (f, open) => {
        const fh = await open();
        if (replaced++ === 0) {
          fs.writeFileSync(`${f}.tmp`, "new");
          fs.renameSync(`${f}.tmp`, f);
        }
        return fh;
      };
      const r = await withOpenOf(file, replaceOnce, () => readGuarded(file, opts));
      assert.equal(r.kind === "read" && r.bytes.toString(), "new");
      const replaceAlways: Hook = async (f, open) => {
        const fh = await open();
        fs.writeFileSync(`${f}.tmp`, "newer");
        fs.renameSync(`${f}.tmp`, f);
        return fh;
      };
      const busy = await withOpenOf(file, replaceAlways, () => readGuarded(file, opts));
      assert.deepEqual(refusalOf(busy), { why: "changed", found: null }, "kept being replaced: try again later");
    } finally {
      setProcFdAvailableForTest(undefined);
    }
  });

  it("with links refused, a folder above swapped for a link inside the workspace is refused too", async function () {
    skipUnless(this, fs.existsSync("/proc/self/fd"), "/proc/self/fd, where the kernel names the opened file");
    const dir = path.join(ws, ".agloop");
    fs.mkdirSync(dir);
    fs.mkdirSync(path.join(ws, "elsewhere"));
    const inner = path.join(dir, "state.json");
    fs.writeFileSync(inner, "inside");
    fs.writeFileSync(path.join(ws, "elsewhere", "state.json"), "elsewhere");
    const swapIn: Hook = async (_f, open) => {
      fs.renameSync(dir, `${dir}.moved`);
      fs.symlinkSync("elsewhere", dir);
      try {
        return await open();
      } finally {
        fs.rmSync(dir);
        fs.renameSync(`${dir}.moved`, dir);
      }
    };
    const refused = await withOpenOf(inner, swapIn, () => readGuarded(inner, { root: ws, links: "refuse" }));
    assert.deepEqual(refusalOf(refused), {
      why: "swapped",
      real: path.join(ws, "elsewhere", "state.json"),
      inside: true,
    });
    const followed = await withOpenOf(inner, swapIn, () => readGuarded(inner, { root: ws, links: "inside" }));
    assert.equal(followed.kind === "read" && followed.bytes.toString(), "elsewhere", "links inside may be followed");
  });

  it("a folder above swapped for a link to an outside folder at every open: refused as swapped, never read", async function () {
    skipUnless(this, fs.existsSync("/proc/self/fd"), "/proc/self/fd, where the kernel names the opened file");
    const outside = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "guardedopen-out-")));
    try {
      fs.mkdirSync(path.join(ws, ".agloop"));
      const inner = path.join(ws, ".agloop", "state.json");
      fs.writeFileSync(inner, "inside");
      fs.writeFileSync(path.join(outside, "state.json"), "SECRET");
      const dir = path.join(ws, ".agloop");
      const swapIn: Hook = async (_f, open) => {
        fs.renameSync(dir, `${dir}.moved`);
        fs.symlinkSync(outside, dir);
        try {
          return await open();
        } finally {
          fs.rmSync(dir);
          fs.renameSync(`${dir}.moved`, dir);
        }
      };
      for (const links of ["inside", "refuse"] as const) {
        const r = await withOpenOf(inner, swapIn, () => readGuarded(inner, { root: ws, links }));
        assert.deepEqual(refusalOf(r), { why: "swapped", real: path.join(outside, "state.json"), inside: false });
      }
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });

  it("no refusal after the open leaves a descriptor open", async function () {
    skipUnless(this, fs.existsSync("/proc/self/fd"), "/proc/self/fd, to count open descriptors");
    const count = () => fs.readdirSync("/proc/self/fd").length;
    const grow: Hook = async (f, open) => {
      fs.appendFileSync(f, "ABCDE");
      return open();
    };
    const toFolder: Hook = async (f, open) => {
      fs.rmSync(f);
      fs.mkdirSync(f);
      return open();
    };
    const growAfterRead: Hook = async (f, open) => {
      const fh = await open();
      const stat = fh.stat.bind(fh);
      fh.stat = (async (...a: Parameters<typeof fh.stat>) => {
        const st = await stat(...a);
        fs.appendFileSync(f, "more");
        return st;
      }) as typeof fh.stat;
      return fh;
    };
    const before = count();
    for (let i = 0; i < 10; i++) {
      fs.rmSync(file, { recursive: true, force: true });
      fs.writeFileSync(file, "0123456789");
      assert.equal(refusalOf(await withOpenOf(file, grow, () => openGuarded(file, opts))).why, "too large");
      fs.writeFileSync(file, "0123456789");
      assert.equal(refusalOf(await withOpenOf(file, toFolder, () => openGuarded(file, opts))).why, "changed");
      fs.rmSync(file, { recursive: true, force: true });
      fs.writeFileSync(file, "0123456789");
      assert.equal((await readGuarded(file, opts)).kind, "read");
      assert.equal(refusalOf(await withOpenOf(file, growAfterRead, () => readGuarded(file, opts))).why, "grew");
    }
    assert.equal(count(), before);
  });
});
