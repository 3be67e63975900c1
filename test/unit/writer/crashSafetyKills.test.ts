/**
 * Nothing lost, under SIGKILL: writer processes killed at random moments, also in the middle of
 * copying a multi-MB ledger, each leave a ledger that ends with a whole line, verifies in our
 * verifier and in a python3 stdlib verifier, still holds every commit the writer reported done,
 * a plan.json that is whole, and a lock the next writer gets at once.
 *
 * The kills run in parallel lanes, each on its own workspace, so the machine's cores are busy
 * while a lane waits for its writer; a lane moves to a fresh 3 MB workspace when its ledger passes
 * 8 MB, so a commit (which verifies the whole ledger first) stays as costly as in the first kills.
 * Every kill's ledger is kept as a hard link (a write replaces the ledger by rename, so the linked
 * inode is the state the kill left; its size and mtime are checked again), and one python3 process
 * verifies them all at the end, lane by lane (`verify_ledger.py --series`: a state that starts with
 * the bytes of the state before it is read from where that one's chain ended, which gives the whole
 * file's verdict), instead of one process reading the whole ledger per kill.
 * AUTODEV_CRASH_KILLS (default 200) and AUTODEV_CRASH_LANES (default 4) change the numbers.
 */
import { strict as assert } from "node:assert";
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { LedgerSession } from "../../../src/core/sources/autodev/ledger/ledgerSession";
import { buildEntry, readLastEntryHead } from "../../../src/core/sources/autodev/ledger/ledgerWriter";
import { PlanManager } from "../../../src/core/sources/autodev/ledger/planManager";
import { parsePyJson } from "../../../src/core/pyjson/pyJsonParse";
import { validatePlan } from "../../../src/core/sources/autodev/plan/schemas";
import { ledgerPath, planPath } from "../../../src/core/sources/autodev/autodevPaths";
import { PyObject, PyValue } from "../../../src/core/pyjson/pyValue";
import { REPO_ROOT, copyFixture } from "../fixtures";
import { SeededRandom } from "../../../src/core/seededRandom";

const CHILD = path.join(__dirname, "../helpers/writerChild.bundle.js"); // esbuild.mjs --tests
const PY_VERIFY = path.join(REPO_ROOT, "test/python/tools/verify_ledger.py");
const KILLS = Number(process.env.AUTODEV_CRASH_KILLS ?? 200);
const LANES = Math.max(1, Math.min(KILLS, Number(process.env.AUTODEV_CRASH_LANES ?? 4)));
const START_BYTES = 3_000_000;
const ROTATE_BYTES = 8_000_000;

/** What one kill left, kept for the Python verifier at the end. */
interface KillRecord {
  readonly kill: string;
  readonly lane: number;
  readonly k: number;
  /** A hard link to the ledger as the kill left it. */
  readonly link: string;
  readonly size: number;
  readonly mtimeMs: number;
  /** The highest seq the writer reported committed: the ledger must reach it. */
  readonly committedSeq: number;
}

/** Totals of one lane. */
interface LaneResult {
  commits: number;
  midWrite: number;
  beforeFirstCommit: number;
  workspaces: string[];
  firstCommitMs: number[];
}

/** Appends big audit entries (200 KB each) until the ledger holds `bytes`. */
async function growLedger(dir: string, bytes: number): Promise<void> {
  let head = await readLastEntryHead(dir);
  const parts: string[] = [];
  let size = fs.statSync(ledgerPath(dir)).size;
  while (size < bytes) {
    const pad = new Map<string, PyValue>([["pad", "p".repeat(200_000)]]) as PyObject;
    const { entry, line } = buildEntry(head, "impl_tournament_complete", pad, "grow");
    head = { seq: entry.seq, selfHash: entry.self_hash, missingFinalNewline: false };
    parts.push(line);
    size += line.length;
  }
  fs.appendFileSync(ledgerPath(dir), parts.join(""));
}

/** A fresh workspace with a multi-MB ledger, and a session that has read it. */
async function freshWorkspace(result: LaneResult): Promise<{ dir: string; session: LedgerSession }> {
  const dir = copyFixture("python-small");
  result.workspaces.push(dir);
  await growLedger(dir, START_BYTES);
  const session = new LedgerSession(dir);
  await session.refresh();
  return { dir, session };
}

/** The file's last byte (the ledger's whole bytes are Python's and the session's to read). */
function lastByte(file: string): number {
  const fd = fs.openSync(file, "r");
  try {
    const byte = Buffer.alloc(1);
    fs.readSync(fd, byte, 0, 1, fs.fstatSync(fd).size - 1);
    return byte[0];
  } finally {
    fs.closeSync(fd);
  }
}

const tempFiles = (dir: string) => fs.readdirSync(path.join(dir, ".autodev")).filter((f) => f.endsWith(".tmp"));

/** Starts a writer, lets it commit once, kills it at a random moment; returns the seq it reported last. */
async function killOneWriter(dir: string, tag: string, rng: SeededRandom, result: LaneResult): Promise<number> {
  const child = spawn(process.execPath, [CHILD, dir, "crash", "1000", tag], { stdio: ["ignore", "pipe", "pipe"] });
  // Listened for from the start: a writer that dies on its own must fail the test, not hang it.
  let killed = false;
  let diedBeforeKill = false;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  void exited.then(() => (diedBeforeKill = !killed));
  const started = Date.now();
  let committedSeq = 0;
  let err = "";
  let onFirst: () => void = () => undefined;
  const first = new Promise<void>((resolve) => (onFirst = resolve));
  child.stderr.on("data", (d) => (err += d));
  let pending = "";
  child.stdout.on("data", (d: Buffer) => {
    const lines = (pending + String(d)).split("\n");
    pending = lines.pop() ?? "";
    for (const line of lines) {
      const m = /^WROTE \d+ (\d+)$/.exec(line);
      if (!m) continue;
      if (committedSeq === 0) {
        result.firstCommitMs.push(Date.now() - started);
        onFirst();
      }
      committedSeq = Math.max(committedSeq, Number(m[1]));
      result.commits++;
    }
  });
  // Let it commit once (so the kill lands inside the write loop), then kill at a random moment.
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([first, exited, new Promise((resolve) => (timer = setTimeout(resolve, 15_000)))]);
  clearTimeout(timer);
  await new Promise((resolve) => setTimeout(resolve, rng.below(300)));
  assert.ok(!diedBeforeKill, `writer ${tag} exited before the kill: ${err}`);
  killed = true;
  child.kill("SIGKILL");
  await exited;
  assert.equal(err, "", `writer ${tag} failed before the kill: ${err}`);
  if (committedSeq === 0) result.beforeFirstCommit++;
  return committedSeq;
}

/** One lane: `kills` kills in a row, each checked at once; the ledgers kept in `keep` for Python. */
async function runLane(lane: number, kills: number, keep: string, records: KillRecord[]): Promise<LaneResult> {
  const result: LaneResult = { commits: 0, midWrite: 0, beforeFirstCommit: 0, workspaces: [], firstCommitMs: [] };
  const rng = new SeededRandom(4242 + lane);
  let { dir, session } = await freshWorkspace(result);
  for (let k = 0; k < kills; k++) {
    if (fs.statSync(ledgerPath(dir)).size > ROTATE_BYTES) ({ dir, session } = await freshWorkspace(result));
    const kill = `lane ${lane} kill ${k}`;
    const committedSeq = await killOneWriter(dir, `${lane}-${k}`, rng, result);
    if (tempFiles(dir).length) result.midWrite++;
    assert.equal(lastByte(ledgerPath(dir)), 0x0a, `${kill}: the ledger ends with a whole line`);
    const update = await session.refresh();
    assert.ok(session.report.ok, `${kill}: ${JSON.stringify(session.report.errors[0])} (${update.mode})`);
    assert.ok(session.report.entries >= committedSeq, `${kill}: a commit the writer reported is gone`);
    const plan = validatePlan(parsePyJson(fs.readFileSync(planPath(dir), "utf8")));
    assert.ok(plan.ok, `${kill}: plan.json is whole`);
    const link = path.join(keep, `${lane}-${k}.jsonl`);
    fs.linkSync(ledgerPath(dir), link);
    const st = fs.statSync(link);
    records.push({ kill, lane, k, link, size: st.size, mtimeMs: st.mtimeMs, committedSeq });
  }
  // The next write succeeds at once and sweeps the temp files the kills left.
  await new PlanManager(dir, { sessionId: `after-${lane}`, lockTimeoutS: 5 }).markTaskRetry("1.3");
  assert.deepEqual(tempFiles(dir), [], `lane ${lane}: the next write sweeps the temp files`);
  return result;
}

describe("crash safety: SIGKILLed writers", function () {
  this.timeout(900_000);
  let keep: string;
  const results: LaneResult[] = [];
  beforeEach(() => (keep = fs.mkdtempSync(path.join(os.tmpdir(), "crash-kills-"))));
  afterEach(() => {
    fs.rmSync(keep, { recursive: true, force: true });
    for (const dir of results.flatMap((r) => r.workspaces)) fs.rmSync(dir, { recursive: true, force: true });
  });

  it(`survives ${KILLS} SIGKILLs of writers at random moments, in ${LANES} parallel workspaces @slow`, async () => {
    const records: KillRecord[] = [];
    const perLane = Array.from({ length: LANES }, (_, i) => Math.floor(KILLS / LANES) + (i < KILLS % LANES ? 1 : 0));
    results.push(...(await Promise.all(perLane.map((kills, lane) => runLane(lane, kills, keep, records)))));
    assert.equal(records.length, KILLS);
    records.sort((a, b) => a.lane - b.lane || a.k - b.k); // each lane's states in the order the kills left them

    // Python's verdict on every ledger a kill left, in one process.
    for (const r of records) {
      const st = fs.statSync(r.link);
      assert.ok(st.size === r.size && st.mtimeMs === r.mtimeMs, `${r.kill}: the kept ledger changed after the kill`);
    }
    const py = spawnSync("python3", [PY_VERIFY, "--series", ...records.map((r) => r.link)], {
      encoding: "utf8",
      maxBuffer: 16 * 1024 * 1024,
    });
    const verdicts = py.stdout.trim().split("\n");
    assert.equal(verdicts.length, records.length, `python verifier: ${py.stderr}`);
    records.forEach((r, i) => {
      const m = /^OK (\d+) /.exec(verdicts[i]);
      assert.ok(m, `${r.kill}: python verifier says ${verdicts[i]}`);
      assert.ok(
        Number(m[1]) >= r.committedSeq,
        `${r.kill}: python reads ${m[1]} entries, ${r.committedSeq} were committed`,
      );
    });

    const sum = (pick: (r: LaneResult) => number) => results.reduce((n, r) => n + pick(r), 0);
    const waits = results.flatMap((r) => r.firstCommitMs).sort((a, b) => a - b);
    console.log(
      `      ${KILLS} kills in ${LANES} lanes (${sum((r) => r.workspaces.length)} workspaces of 3–8 MB): ` +
        `${sum((r) => r.commits)} commits completed, ${sum((r) => r.midWrite)} kills left a temp file (mid-write), ` +
        `${sum((r) => r.beforeFirstCommit)} came before a first commit; first commit after spawn median ${waits[waits.length >> 1]} ms`,
    );
    assert.ok(sum((r) => r.midWrite) > 0, "some kills must land mid-write, or the test proves little");
  });
});
