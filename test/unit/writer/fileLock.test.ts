/**
 * The `.autodev/.lock` write lock against real processes: Python's
 * fcntl.flock (test/python/tools/hold_lock.py, which takes the lock exactly like
 * filelock), other Node processes, and each available helper kind.
 * Assertions are about exclusion and ordering, never speed.
 */
import * as assert from "node:assert/strict";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { PlanLockTimeoutError } from "../../../src/core/errors";
import {
  acquireFileLock,
  FileLockLostError,
  LockHelperUnavailableError,
  resetFileLockHelperFailures,
  shutdownFileLockHelpers,
  withFileLock,
  type LockHelper,
} from "../../../src/core/sources/autodev/lock/fileLock";

/** test/python/tools/hold_lock.py: next to the compiled tree (out/test/unit → repo) or under the working directory. */
const HOLD_LOCK_PY =
  [path.resolve(__dirname, "../../../.."), process.cwd()]
    .map((root) => path.join(root, "test", "python", "tools", "hold_lock.py"))
    .find((p) => fs.existsSync(p)) ?? "test/python/tools/hold_lock.py";
/** The compiled module, for Node child processes. */
const FILE_LOCK_JS = path.resolve(__dirname, "../../../src/core/sources/autodev/lock/fileLock.js");
const POSIX = process.platform !== "win32";
/** python3's real interpreter: version-manager shims (pyenv, asdf) cost ~100 ms per start. */
const PYTHON = (() => {
  const r = spawnSync("python3", ["-c", "import sys; print(sys.executable)"], { encoding: "utf8", timeout: 20_000 });
  return r.status === 0 && r.stdout.trim() ? r.stdout.trim() : "python3";
})();

function runs(command: string, args: string[], expect?: RegExp): boolean {
  const r = spawnSync(command, args, { encoding: "utf8", timeout: 20_000 });
  return r.status === 0 && (!expect || expect.test(r.stdout));
}

/** Helper kinds usable on this machine; each gets the cross-process tests. */
const HELPERS: { name: string; helper: LockHelper }[] = [];
if (POSIX) {
  if (runs("perl", ["-e", "1"])) HELPERS.push({ name: "perl", helper: { kind: "perl", command: "perl" } });
  if (runs(PYTHON, ["-c", "import fcntl"])) {
    HELPERS.push({ name: "python3", helper: { kind: "python", command: "python3" } });
  }
  if (runs("flock", ["--version"], /util-linux/)) {
    HELPERS.push({ name: "flock(1)", helper: { kind: "flock", command: "flock" } });
  }
}

/** A child process read line by line. */
class Proc {
  readonly child: ChildProcess;
  private readonly lines: string[] = [];
  private readonly waiters: ((line: string | null) => void)[] = [];
  private partial = "";
  private closed = false;
  stderr = "";
  readonly exited: Promise<number | null>;

  constructor(command: string, args: string[]) {
    this.child = spawn(command, args, { stdio: ["pipe", "pipe", "pipe"] });
    this.child.stdout!.setEncoding("utf8");
    this.child.stdout!.on("data", (chunk: string) => {
      this.partial += chunk;
      let nl: number;
      while ((nl = this.partial.indexOf("\n")) >= 0) {
        const line = this.partial.slice(0, nl).replace(/\r$/, "");
        this.partial = this.partial.slice(nl + 1);
        const w = this.waiters.shift();
        if (w) w(line);
        else this.lines.push(line);
      }
    });
    this.child.stderr!.setEncoding("utf8");
    this.child.stderr!.on("data", (chunk: string) => (this.stderr += chunk));
    this.child.stdin!.on("error", () => {});
    this.exited = new Promise((resolve) =>
      this.child.on("close", (code) => {
        this.closed = true;
        for (const w of this.waiters.splice(0)) w(null);
        resolve(code);
      }),
    );
  }

  static python(...args: string[]): Proc {
    return new Proc(PYTHON, [HOLD_LOCK_PY, ...args]);
  }

  static node(script: string, ...args: string[]): Proc {
    return new Proc(process.execPath, [script, ...args]);
  }

  next(): Promise<string | null> {
    const line = this.lines.shift();
    if (line !== undefined) return Promise.resolve(line);
    if (this.closed) return Promise.resolve(null);
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** The next line, which must start with `word`. */
  async expect(word: string): Promise<string> {
    const line = await this.next();
    assert.ok(line?.startsWith(word), `expected ${word}, got ${JSON.stringify(line)}; stderr: ${this.stderr}`);
    return line ?? "";
  }

  /** Closes stdin (hold_lock.py releases on EOF) and waits for the exit code. */
  async finish(): Promise<number | null> {
    this.child.stdin!.end();
    return this.exited;
  }

  kill(): void {
    if (!this.closed) this.child.kill("SIGKILL");
  }
}

/** One non-blocking flock attempt by Python: "ACQUIRED ..." or "BLOCKED <ExceptionClass>". */
async function pythonTry(lockFile: string): Promise<string> {
  const p = Proc.python("try", lockFile);
  const line = await p.next();
  await p.exited;
  assert.ok(line, `hold_lock.py try printed nothing; stderr: ${p.stderr}`);
  return line;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Node child programs using the compiled module. */
const HOLDER_JS = `
const { acquireFileLock } = require(${JSON.stringify(FILE_LOCK_JS)});
const [lockFile, helpersJson] = process.argv.slice(2);
acquireFileLock(lockFile, { timeoutMs: 20000, helpers: JSON.parse(helpersJson) || undefined }).then(
  (lock) => { console.log("LOCKED " + lock.helper); setInterval(() => {}, 1000); },
  (e) => { console.log("ERROR " + e.message); process.exit(1); });
`;
const INCREMENT_JS = `
const fs = require("fs");
const { acquireFileLock } = require(${JSON.stringify(FILE_LOCK_JS)});
const [lockFile, counter, times, helpersJson] = process.argv.slice(2);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
(async () => {
  for (let i = 0; i < Number(times); i++) {
    const lock = await acquireFileLock(lockFile, { timeoutMs: 60000, helpers: JSON.parse(helpersJson) || undefined });
    let value = 0;
    try { value = parseInt(fs.readFileSync(counter, "utf8"), 10) || 0; } catch {}
    await sleep(2);
    fs.writeFileSync(counter, String(value + 1));
    await lock.release();
    await sleep(Math.random() * 3);
  }
  console.log("DONE " + times);
})().catch((e) => { console.log("ERROR " + e.message); process.exit(1); });
`;
const ACQUIRE_AND_EXIT_JS = `
const { acquireFileLock, shutdownFileLockHelpers } = require(${JSON.stringify(FILE_LOCK_JS)});
const [lockFile, mode] = process.argv.slice(2);
acquireFileLock(lockFile, { timeoutMs: 10000, idleMs: 600000 })
  .then((lock) => lock.release())
  .then(() => console.log("RELEASED"))
  .then(() => mode === "shutdown" && shutdownFileLockHelpers().then(() => console.log("SHUT DOWN")))
  .catch((e) => { console.log("ERROR " + e.message); process.exit(1); });
`;

describe("fileLock: .autodev/.lock shared with Python filelock @slow", function () {
  this.timeout(60_000);
  let dir: string;
  let lockFile: string;
  let scripts: string;
  const procs: Proc[] = [];
  const track = (p: Proc) => (procs.push(p), p);

  before(function () {
    assert.ok(fs.existsSync(FILE_LOCK_JS), `${FILE_LOCK_JS} missing: build with node esbuild.mjs --tests`);
    if (POSIX) {
      assert.ok(runs(PYTHON, ["-c", "import fcntl"]), `${PYTHON} with fcntl is needed on PATH for these tests`);
      assert.ok(HELPERS.length > 0, "no lock helper (perl, python3, flock) on PATH");
    }
    scripts = fs.mkdtempSync(path.join(os.tmpdir(), "autodev-lock-scripts-"));
    fs.writeFileSync(path.join(scripts, "holder.js"), HOLDER_JS);
    fs.writeFileSync(path.join(scripts, "increment.js"), INCREMENT_JS);
    fs.writeFileSync(path.join(scripts, "acquire-and-exit.js"), ACQUIRE_AND_EXIT_JS);
  });

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "autodev-lock-"));
    lockFile = path.join(dir, ".autodev", ".lock");
    fs.mkdirSync(path.dirname(lockFile));
  });

  afterEach(async () => {
    for (const p of procs.splice(0)) p.kill();
    await shutdownFileLockHelpers();
    resetFileLockHelperFailures();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  after(() => fs.rmSync(scripts, { recursive: true, force: true }));

  for (const { name, helper } of HELPERS) {
    describe(`with the ${name} helper`, () => {
      const helpers = [helper];

      it("1. times out with PlanLockTimeoutError while Python holds the lock, and succeeds once it releases", async () => {
        const py = track(Proc.python("hold", lockFile));
        await py.expect("ACQUIRED");

        await assert.rejects(acquireFileLock(lockFile, { timeoutMs: 1000, helpers }), (e: unknown) => {
          assert.ok(e instanceof PlanLockTimeoutError, String(e));
          assert.equal(e.timeoutSeconds, 1);
          assert.match(e.message, /\.autodev\/\.lock within 1s/);
          return true;
        });

        let acquired = false;
        const pending = acquireFileLock(lockFile, { timeoutMs: 30_000, helpers });
        void pending.then(() => (acquired = true)).catch(() => {});
        await sleep(300);
        assert.equal(acquired, false, "acquired while Python still held the lock");

        assert.equal(await py.finish(), 0); // stdin EOF: Python releases and exits
        await py.expect("RELEASED");
        const lock = await pending;
        assert.ok(lock.held);
        assert.match(await pythonTry(lockFile), /^BLOCKED BlockingIOError/);
        await lock.release();
      });

      it("2. while we hold it Python's flock(LOCK_EX|LOCK_NB) raises BlockingIOError; after release() it succeeds", async () => {
        const lock = await acquireFileLock(lockFile, { timeoutMs: 5000, helpers });
        assert.match(await pythonTry(lockFile), /^BLOCKED BlockingIOError/);
        assert.match(await pythonTry(lockFile), /^BLOCKED BlockingIOError/);
        await lock.release();
        assert.equal(lock.held, false);
        assert.match(await pythonTry(lockFile), /^ACQUIRED/);
        await lock.release(); // idempotent
      });

      it("3. a Node process killed with SIGKILL while holding the lock leaves it free", async () => {
        const holder = track(Proc.node(path.join(scripts, "holder.js"), lockFile, JSON.stringify(helpers)));
        await holder.expect("LOCKED");
        assert.match(await pythonTry(lockFile), /^BLOCKED BlockingIOError/);

        holder.kill();
        await holder.exited;
        const py = track(Proc.python("wait", lockFile, "--timeout", "10"));
        await py.expect("ACQUIRED");
        assert.equal(await py.exited, 0);
      });
    });
  }

  if (POSIX) {
    it("4. two Node processes and one Python process incrementing a counter 50 times each end at exactly 150", async () => {
      const counter = path.join(dir, "counter.txt");
      const perl = HELPERS.find((h) => h.helper.kind === "perl")?.helper;
      const py = HELPERS.find((h) => h.helper.kind === "python")?.helper;
      const script = path.join(scripts, "increment.js");
      const workers = [
        track(Proc.node(script, lockFile, counter, "50", JSON.stringify(perl ? [perl] : null))),
        track(Proc.node(script, lockFile, counter, "50", JSON.stringify(py ? [py] : null))),
        track(Proc.python("increment", lockFile, "--counter", counter, "--times", "50", "--timeout", "60")),
      ];
      const lines = await Promise.all(workers.map((w) => w.next()));
      for (const [i, w] of workers.entries()) {
        assert.match(lines[i] ?? "", /^DONE 50$/, `worker ${i}: ${lines[i]} ${w.stderr}`);
        assert.equal(await w.exited, 0);
      }
      assert.equal(fs.readFileSync(counter, "utf8"), "150");
    });
  }

  it("5. creates a missing .autodev/ and lock file, and leaves the lock file in place after release", async () => {
    fs.rmSync(path.dirname(lockFile), { recursive: true });
    const lock = await acquireFileLock(lockFile, { timeoutMs: 5000 });
    assert.ok(fs.statSync(path.dirname(lockFile)).isDirectory());
    assert.ok(fs.statSync(lockFile).isFile());
    await lock.release();
    assert.ok(fs.statSync(lockFile).isFile(), "lock file removed on release");

    fs.rmSync(lockFile); // folder present, file missing
    await withFileLock(lockFile, { timeoutMs: 5000 }, () => assert.ok(fs.existsSync(lockFile)));
    assert.ok(fs.existsSync(lockFile));
  });

  it("6. fails clearly when no helper can run", async () => {
    await assert.rejects(acquireFileLock(lockFile, { timeoutMs: 1000, helpers: [] }), (e: unknown) => {
      assert.ok(e instanceof LockHelperUnavailableError, String(e));
      assert.match(e.message, /no lock helper could run/);
      assert.match(e.message, POSIX ? /`perl` or `python3` on PATH/ : /`python`/);
      assert.match(e.message, /read-only/);
      return true;
    });
    const broken: LockHelper[] = [
      { kind: "python", command: path.join(dir, "no-such-python3") },
      { kind: "python", command: process.execPath }, // runs, but is not python: never says READY
    ];
    await assert.rejects(acquireFileLock(lockFile, { timeoutMs: 1000, helpers: broken }), (e: unknown) => {
      assert.ok(e instanceof LockHelperUnavailableError, String(e));
      assert.equal(e.attempts.length, 2);
      assert.match(e.message, /no-such-python3 \(not found \(ENOENT\)\)/);
      assert.match(e.message, /exited with code/);
      return true;
    });
  });

  describe("within one process", () => {
    it("serialises writers FIFO through one helper and excludes Python meanwhile", async () => {
      const first = await acquireFileLock(lockFile, { timeoutMs: 5000 });
      const order: string[] = [];
      const second = acquireFileLock(lockFile, { timeoutMs: 20_000 }).then((l) => (order.push("second"), l));
      const third = acquireFileLock(lockFile, { timeoutMs: 20_000 }).then((l) => (order.push("third"), l));
      await sleep(200);
      assert.deepEqual(order, []);
      if (POSIX) assert.match(await pythonTry(lockFile), /^BLOCKED/);
      await first.release();
      const l2 = await second;
      assert.deepEqual(order, ["second"]);
      assert.equal(l2.helper, first.helper, "second writer spawned another helper");
      await l2.release();
      const l3 = await third;
      assert.deepEqual(order, ["second", "third"]);
      await l3.release();
      if (POSIX) assert.match(await pythonTry(lockFile), /^ACQUIRED/);
    });

    it("times out behind a writer in this process with PlanLockTimeoutError", async () => {
      const first = await acquireFileLock(lockFile, { timeoutMs: 5000 });
      await assert.rejects(acquireFileLock(lockFile, { timeoutMs: 200 }), (e: unknown) => {
        assert.ok(e instanceof PlanLockTimeoutError);
        assert.match(e.message, /in this process/);
        return true;
      });
      await first.release();
      await (await acquireFileLock(lockFile, { timeoutMs: 1000 })).release();
    });

    it("abort while queued behind a writer in this process rejects and leaves the queue intact", async () => {
      const first = await acquireFileLock(lockFile, { timeoutMs: 5000 });
      const controller = new AbortController();
      const aborted = acquireFileLock(lockFile, { timeoutMs: 20_000, signal: controller.signal });
      const next = acquireFileLock(lockFile, { timeoutMs: 20_000 });
      controller.abort();
      await assert.rejects(aborted, { name: "AbortError" });
      await first.release();
      const l = await next;
      assert.equal(l.helper, first.helper);
      await l.release();
      await assert.rejects(acquireFileLock(lockFile, { signal: AbortSignal.abort() }), { name: "AbortError" });
    });

    it("withFileLock releases when the body throws", async () => {
      await assert.rejects(
        withFileLock(lockFile, { timeoutMs: 5000 }, () => {
          throw new Error("boom");
        }),
        /boom/,
      );
      if (POSIX) assert.match(await pythonTry(lockFile), /^ACQUIRED/);
    });
  });

  if (POSIX) {
    it("abort while waiting on Python rejects with the signal's reason and leaves the lock usable", async () => {
      const py = track(Proc.python("hold", lockFile));
      await py.expect("ACQUIRED");
      const controller = new AbortController();
      const pending = acquireFileLock(lockFile, { timeoutMs: 30_000, signal: controller.signal });
      await sleep(200);
      controller.abort();
      await assert.rejects(pending, { name: "AbortError" });
      await py.finish();
      const lock = await acquireFileLock(lockFile, { timeoutMs: 5000 });
      assert.match(await pythonTry(lockFile), /^BLOCKED/);
      await lock.release();
    });

    it("reports a lost lock when its helper dies, and recovers with a new helper", async () => {
      const script = HELPERS.find((h) => h.helper.kind !== "flock");
      assert.ok(script, "needs perl or python3");
      const helpers = [script.helper];
      const lock = await acquireFileLock(lockFile, { timeoutMs: 5000, helpers });
      const pid = Number(/pid (\d+)/.exec(lock.helper)?.[1]);
      assert.ok(pid > 0, lock.helper);
      lock.assertHeld();
      process.kill(pid, "SIGKILL");
      const py = track(Proc.python("wait", lockFile, "--timeout", "10"));
      await py.expect("ACQUIRED");
      for (let i = 0; i < 100 && !lock.lost; i++) await sleep(20);
      assert.equal(lock.lost, true);
      assert.throws(() => lock.assertHeld(), FileLockLostError);
      await lock.release();
      const again = await acquireFileLock(lockFile, { timeoutMs: 5000, helpers });
      assert.notEqual(again.helper, lock.helper);
      assert.match(await pythonTry(lockFile), /^BLOCKED/);
      await again.release();
    });

    it("an idle helper does not keep a Node process (the CLI) alive", async () => {
      const child = track(Proc.node(path.join(scripts, "acquire-and-exit.js"), lockFile));
      assert.equal(await child.next(), "RELEASED", child.stderr);
      // idleMs is 10 minutes in the child: only unref'd helpers let it exit before the mocha timeout
      assert.equal(await child.exited, 0);
    });

    it("shutdownFileLockHelpers() completes in a bare Node process (no timers of its own)", async () => {
      const child = track(Proc.node(path.join(scripts, "acquire-and-exit.js"), lockFile, "shutdown"));
      assert.equal(await child.next(), "RELEASED", child.stderr);
      assert.equal(await child.next(), "SHUT DOWN", child.stderr);
      assert.equal(await child.exited, 0);
    });
  }
});
