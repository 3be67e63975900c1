/**
 * The long-lived lock probe (issue 22 item 15): it sees an exclusive flock held without the file
 * being written (flock(1), which Python's open-and-truncate is not), answers FREE once it is
 * dropped, serves every request from one process, takes any path (a newline in a name cannot break
 * its protocol), never creates the file, takes a folder relative to the working directory, and with
 * no helper says it cannot tell.
 */
import { strict as assert } from "node:assert";
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { LockProber } from "../../../src/core/sources/autodev/run/lockProber";
import { probeAutodevRunning } from "../../../src/core/sources/autodev/run/runningProbe";
import { defaultLockHelpers } from "../../../src/core/sources/autodev/lock/fileLockSettings";
import { skipUnless } from "../../helpers/environmentNeeds";

const hasFlock = spawnSync("flock", ["--version"]).status === 0;

/** Holds an exclusive flock on `file` with flock(1) until the returned function ends it. */
async function holdWithFlock(file: string): Promise<() => Promise<void>> {
  const child = spawn("flock", ["--exclusive", file, "sh", "-c", "echo held; sleep 60"], {
    stdio: ["ignore", "pipe", "ignore"],
    detached: true,
  });
  const exited = new Promise((r) => child.on("exit", r));
  await new Promise<void>((resolve) => child.stdout.once("data", () => resolve()));
  return async () => {
    process.kill(-child.pid!, "SIGKILL");
    await exited;
  };
}

describe("the long-lived lock probe", function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), "prober-"))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  for (const helper of defaultLockHelpers().filter((h) => h.kind !== "flock")) {
    it(`${helper.command}: sees flock(1)'s exclusive hold, then FREE; one process; any name`, async function () {
      skipUnless(this, hasFlock, "util-linux flock(1)");
      skipUnless(this, !spawnSync(helper.command, ["-e", "1"]).error, `${helper.command} on PATH`);
      const prober = new LockProber([helper]);
      try {
        const lock = path.join(dir, "odd\nname .lock");
        fs.writeFileSync(lock, "");
        const mtime = fs.statSync(lock).mtimeMs;
        assert.equal(await prober.probe(lock), "FREE");
        const pid = (prober as unknown as { proc: { child: { pid: number } } }).proc.child.pid;
        const release = await holdWithFlock(lock);
        try {
          assert.equal(await prober.probe(lock), "HELD");
          assert.equal(fs.statSync(lock).mtimeMs, mtime, "flock(1) did not write the file");
        } finally {
          await release();
        }
        // The killed group's last process (the sleep holding the descriptor) may take a moment to go.
        for (let i = 0; i < 100 && (await prober.probe(lock)) !== "FREE"; i++) {
          await new Promise((r) => setTimeout(r, 20));
        }
        const answers = await Promise.all(Array.from({ length: 20 }, () => prober.probe(lock)));
        assert.deepEqual(new Set(answers), new Set(["FREE"]));
        assert.equal((prober as unknown as { proc: { child: { pid: number } } }).proc.child.pid, pid, "one process");
        const missing = path.join(dir, "missing.lock");
        assert.match((await prober.probe(missing)) ?? "", /^ERROR open/);
        assert.equal(fs.existsSync(missing), false, "the probe never creates the file");
      } finally {
        prober.close();
      }
    });
  }

  it("probeAutodevRunning says running while flock(1) holds .autodev/.lock, and cannot tell without a helper", async function () {
    skipUnless(this, hasFlock, "util-linux flock(1)");
    fs.mkdirSync(path.join(dir, ".autodev"));
    const lock = path.join(dir, ".autodev", ".lock");
    fs.writeFileSync(lock, "");
    const release = await holdWithFlock(lock);
    try {
      assert.equal((await probeAutodevRunning(dir)).running, true);
      assert.equal((await probeAutodevRunning(dir, [])).running, null);
    } finally {
      await release();
    }
    let after = await probeAutodevRunning(dir);
    for (let i = 0; i < 100 && after.running !== false; i++) {
      await new Promise((r) => setTimeout(r, 20));
      after = await probeAutodevRunning(dir);
    }
    assert.equal(after.running, false);
  });

  it("probes a folder named relative to the working directory (`status .`), not relative to the helper's", async function () {
    skipUnless(this, hasFlock, "util-linux flock(1)");
    fs.mkdirSync(path.join(dir, ".autodev"));
    const lock = path.join(dir, ".autodev", ".lock");
    fs.writeFileSync(lock, "");
    const was = process.cwd();
    process.chdir(dir);
    try {
      assert.deepEqual(await probeAutodevRunning("."), { running: false, detail: ".autodev/.lock is free" });
      const release = await holdWithFlock(lock);
      try {
        assert.equal((await probeAutodevRunning(".")).running, true);
      } finally {
        await release();
      }
    } finally {
      process.chdir(was);
    }
  });
});
