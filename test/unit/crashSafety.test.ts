/**
 * Nothing lost: writer processes SIGKILLed at random moments (mid-copy of a
 * multi-MB ledger too) leave a ledger that verifies in our verifier and in a
 * python3 stdlib verifier, a plan.json that is whole, and a lock the next
 * writer gets at once; several of our writers and a Python writer appending
 * together lose nothing; injected I/O faults leave the old ledger intact.
 */
import { strict as assert } from "node:assert";
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { LedgerSession } from "../../src/core/sources/autodev/ledger/ledgerSession";
import { buildEntry, readLastEntryHead } from "../../src/core/sources/autodev/ledger/ledgerWriter";
import { PlanManager } from "../../src/core/sources/autodev/ledger/planManager";
import { parsePyJson } from "../../src/core/pyjson/pyJsonParse";
import { validatePlan } from "../../src/core/sources/autodev/plan/schemas";
import { verifyLedger } from "../../src/core/sources/autodev/ledger/ledgerReader";
import { ledgerPath, planPath } from "../../src/core/sources/autodev/autodevPaths";
import { PyObject, PyValue } from "../../src/core/pyjson/pyValue";
import { REPO_ROOT, copyFixture } from "./fixtures";
import { Rng } from "./ledgerMutations";

const CHILD = path.join(__dirname, "helpers/writerChild.js");
const PY_VERIFY = path.join(REPO_ROOT, "test/python/verify_ledger.py");
const KILLS = Number(process.env.AUTODEV_CRASH_KILLS ?? 200);

function pythonVerify(dir: string): string {
  const r = spawnSync("python3", [PY_VERIFY, ledgerPath(dir)], { encoding: "utf8" });
  return r.stdout.trim();
}

async function growLedger(dir: string, bytes: number): Promise<void> {
  let head = await readLastEntryHead(dir);
  const parts: string[] = [];
  let size = fs.statSync(ledgerPath(dir)).size;
  while (size < bytes) {
    const { entry, line } = buildEntry(
      head,
      "impl_tournament_complete",
      new Map<string, PyValue>([["pad", "p".repeat(200_000)]]) as PyObject,
      "grow",
    );
    head = { seq: entry.seq, selfHash: entry.self_hash, missingFinalNewline: false };
    parts.push(line);
    size += line.length;
  }
  fs.appendFileSync(ledgerPath(dir), parts.join(""));
}

describe("crash safety and concurrent writers", function () {
  this.timeout(600_000);

  it(`survives ${KILLS} SIGKILLs of writers at random moments @slow`, async () => {
    const dir = copyFixture("python-small");
    await growLedger(dir, 3_000_000);
    const rng = new Rng(4242);
    const session = new LedgerSession(dir);
    await session.refresh();
    let wrote = 0;
    let killedMidWrite = 0;
    const waits: number[] = [];
    for (let k = 0; k < KILLS; k++) {
      const child = spawn(process.execPath, [CHILD, dir, "crash", "1000", String(k)], {
        stdio: ["ignore", "pipe", "pipe"],
      });
      let firstWriteAt = 0;
      const started = Date.now();
      let err = "";
      let onFirst: () => void = () => undefined;
      const first = new Promise<void>((r) => (onFirst = r));
      child.stderr.on("data", (d) => (err += d));
      child.stdout.on("data", (d: Buffer) => {
        const n = String(d)
          .split("\n")
          .filter((l) => l.startsWith("WROTE")).length;
        if (n && !firstWriteAt) {
          firstWriteAt = Date.now();
          onFirst();
        }
        wrote += n;
      });
      // Let it commit once (so the kill lands inside the write loop), then kill at a random moment.
      await Promise.race([first, new Promise((r) => setTimeout(r, 15_000))]);
      await new Promise((r) => setTimeout(r, rng.int(300)));
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGKILL");
      await exited;
      if (firstWriteAt) waits.push(firstWriteAt - started);
      assert.equal(err, "", `writer ${k} failed before the kill: ${err}`);
      const tmp = fs.readdirSync(path.join(dir, ".autodev")).filter((f) => f.endsWith(".tmp"));
      if (tmp.length) killedMidWrite++;
      const bytes = fs.readFileSync(ledgerPath(dir));
      assert.equal(bytes[bytes.length - 1], 0x0a, `kill ${k}: the ledger ends with a whole line`);
      const upd = await session.refresh();
      assert.ok(session.report.ok, `kill ${k}: ${JSON.stringify(session.report.errors[0])} (${upd.mode})`);
      assert.match(pythonVerify(dir), /^OK /, `kill ${k}: python verifier`);
      const plan = validatePlan(parsePyJson(fs.readFileSync(planPath(dir), "utf8")));
      assert.ok(plan.ok, `kill ${k}: plan.json is whole`);
    }
    // The next write succeeds at once and sweeps the temp files the kills left.
    const t0 = Date.now();
    await new PlanManager(dir, { sessionId: "after", lockTimeoutS: 5 }).markTaskRetry("1.3");
    const nextWriteMs = Date.now() - t0;
    assert.deepEqual(
      fs.readdirSync(path.join(dir, ".autodev")).filter((f) => f.endsWith(".tmp")),
      [],
    );
    const full = await verifyLedger(dir);
    assert.ok(full.report.ok);
    waits.sort((a, b) => a - b);
    console.log(
      `      ${KILLS} kills, ${wrote} commits completed, ${killedMidWrite} kills left a temp file (mid-write), ledger ${(fs.statSync(ledgerPath(dir)).size / 1e6).toFixed(1)} MB, ${full.report.entries} entries; first commit after spawn median ${waits[waits.length >> 1]} ms; next write after the last kill ${nextWriteMs} ms`,
    );
    assert.ok(killedMidWrite > 0, "some kills must land mid-write, or the test proves little");
  });

  it("three of our writers and one Python writer appending together lose nothing", async () => {
    const dir = copyFixture("python-small");
    const per = 40;
    const run = (cmd: string, args: string[]) =>
      new Promise<void>((resolve, reject) => {
        const c = spawn(cmd, args, { stdio: ["ignore", "ignore", "pipe"] });
        let err = "";
        c.stderr.on("data", (d) => (err += d));
        c.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`${cmd} exited ${code}: ${err}`))));
      });
    await Promise.all([
      run(process.execPath, [CHILD, dir, "concurrent", String(per), "A"]),
      run(process.execPath, [CHILD, dir, "concurrent", String(per), "B"]),
      run(process.execPath, [CHILD, dir, "concurrent", String(per), "C"]),
      run(process.env.AUTODEV_PYTHON ?? "python3", [
        path.join(REPO_ROOT, "test/python/concurrent_writer.py"),
        dir,
        String(per),
        "P",
      ]),
    ]);
    const seen = new Map<string, number>();
    const { report } = await verifyLedger(dir, {
      onEntry: (_s, e) => {
        const w = e?.payload.get("writer");
        if (typeof w === "string") {
          seen.set(`${w}:${e!.payload.get("n")}`, (seen.get(`${w}:${e!.payload.get("n")}`) ?? 0) + 1);
        }
      },
    });
    assert.ok(report.ok, JSON.stringify(report.errors[0]));
    assert.equal(report.entries, 21 + 4 * per);
    assert.equal(seen.size, 4 * per);
    assert.ok(
      [...seen.values()].every((n) => n === 1),
      "every entry exactly once",
    );
    assert.match(pythonVerify(dir), new RegExp(`^OK ${21 + 4 * per} `));
    console.log(`      ${4 * per} entries from 4 concurrent writers (3 Node, 1 Python), each exactly once`);
  });

  it("a failing write (disk full, permission denied, folder gone) leaves the old ledger intact", async () => {
    const dir = copyFixture("python-small");
    const before = fs.readFileSync(ledgerPath(dir));
    const pm = new PlanManager(dir, { sessionId: "fault" });
    const fsp = fs.promises as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
    const faults: [string, string, string][] = [
      ["copyFile", "ENOSPC", "no space left on device"],
      ["rename", "EACCES", "permission denied"],
      ["open", "ENOENT", "no such file or directory"],
    ];
    for (const [fn, code, text] of faults) {
      const original = fsp[fn];
      fsp[fn] = async (...args: unknown[]) => {
        if (String(args[0]).includes(".ledger.") || String(args[1] ?? "").includes(".ledger.")) {
          throw Object.assign(new Error(`${code}: ${text}, ${fn} '${String(args[0])}'`), { code, syscall: fn });
        }
        return original.apply(fs.promises, args);
      };
      try {
        await assert.rejects(
          pm.ledgerAppend("impl_tournament_complete", new Map([["fault", code]])),
          (e: NodeJS.ErrnoException) => e.code === code,
        );
      } finally {
        fsp[fn] = original;
      }
      assert.ok(fs.readFileSync(ledgerPath(dir)).equals(before), `${code}: ledger unchanged`);
      assert.deepEqual(
        fs.readdirSync(path.join(dir, ".autodev")).filter((f) => f.startsWith(".ledger.")),
        [],
        `${code}: temp file removed`,
      );
    }
    const r = spawnSync(
      process.execPath,
      [path.join(REPO_ROOT, "dist/cli.js"), "retry", path.join(dir, "missing-folder"), "1.1"],
      { encoding: "utf8" },
    );
    assert.equal(r.status, 2);
    assert.match(r.stderr, /is not a folder/);
  });
});
