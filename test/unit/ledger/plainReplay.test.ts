/**
 * The scanner's plain replay (scannerFastReplay.ts): status changes and
 * evidence entries replayed from the facts the canonical-line proof read,
 * without the payload dict. Every payload variant below — the plain ones, and
 * each one that must fall back (another replayed member, a member that is not
 * a string, an unknown task, no plan yet, an escaped spelling) — is scanned
 * with the fast path and with `fastPath: false`, with the plan read mid-scan
 * or not, and everything observable must be the same.
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { LastHead, buildEntry } from "../../../src/core/sources/autodev/ledger/ledgerWriter";
import { LedgerScanner, ScanOptions } from "../../../src/core/sources/autodev/ledger/ledgerScanner";
import { RawLine } from "../../../src/core/sources/autodev/ledger/read/ledgerLineReader";
import { fastCanonicalLine } from "../../../src/core/sources/autodev/canonical/fastCanonical";
import { parsePyJson } from "../../../src/core/pyjson/pyJsonParse";
import { PyObject, PyValue, pyInt } from "../../../src/core/pyjson/pyValue";
import { SeededRandom } from "../../../src/core/seededRandom";
import { REPO_ROOT } from "../fixtures";

const FIXTURE = path.join(REPO_ROOT, "test/fixtures/python-small/.autodev/plan-ledger.jsonl");
const STATUSES = ["pending", "in_progress", "coded", "complete", "blocked", "skipped", "weird"];
const IDS = ["1.1", "1.2", "2.1", "9.9", ""];

/** The init_plan payload Python wrote into the fixture. */
function initPayload(): PyObject {
  const first = fs.readFileSync(FIXTURE, "utf8").split("\n")[0];
  return (parsePyJson(first) as PyObject).get("payload") as PyObject;
}

/** One payload of a status change or an evidence entry, plain or not. */
function payloadOf(r: SeededRandom): PyObject {
  const p: PyObject = new Map();
  const pick = <T>(xs: readonly T[]): T => xs[r.below(xs.length)];
  const odd = (): PyValue => pick<PyValue>([null, 3, true, pyInt(7n), new Map(), ["x"], "s"]);
  if (r.chance(0.9)) p.set("task_id", r.chance(0.9) ? pick(IDS) : odd());
  if (r.chance(0.8)) p.set("status", r.chance(0.9) ? pick(STATUSES) : odd());
  if (r.chance(0.5)) p.set("path", r.chance(0.8) ? `.autodev/evidence/${r.below(9)}.json` : odd());
  if (r.chance(0.15)) p.set(pick(["blocked_reason", "retry_count", "escalated", "evidence_bundle", "reason"]), odd());
  if (r.chance(0.1)) p.set(pick(["retry_count"]), r.below(4));
  if (r.chance(0.2)) p.set(pick(["note", "attempt", "zz", "a"]), odd());
  if (r.chance(0.05)) p.set("plan", null);
  return p;
}

/** A ledger of `n` entries: maybe an init_plan first, then status changes, evidence and other ops. */
function ledger(seed: number, n: number): Buffer[] {
  const r = new SeededRandom(seed);
  let head: LastHead = { seq: 0, selfHash: "", missingFinalNewline: false };
  const lines: Buffer[] = [];
  const add = (op: string, payload: PyObject) => {
    const { entry, line } = buildEntry(head, op, payload, "sess", "2026-01-01T00:00:00+00:00");
    head = { seq: entry.seq, selfHash: entry.self_hash, missingFinalNewline: false };
    lines.push(Buffer.from(line.trimEnd(), "latin1"));
  };
  if (r.chance(0.9)) add("init_plan", initPayload());
  for (let i = 0; i < n; i++) {
    const op = r.chance(0.45)
      ? "update_task_status"
      : r.chance(0.7)
        ? "append_evidence"
        : r.chance(0.5)
          ? "mark_complete"
          : "snapshot";
    add(op, op === "snapshot" ? initPayload() : payloadOf(r));
  }
  return lines;
}

/** Everything a scan shows, with the plan read after the lines in `probes`. */
function scan(lines: Buffer[], options: ScanOptions, probes: ReadonlySet<number>): string {
  const log: string[] = [];
  const s = new LedgerScanner({ ...options, onEntry: (e) => log.push(JSON.stringify(e)) });
  let start = 0;
  lines.forEach((bytes, k) => {
    const raw: RawLine = { bytes, lineNo: k + 1, start, end: start + bytes.length, terminated: true };
    start = raw.end + 1;
    s.feed(raw);
    if (probes.has(k + 1)) log.push(`plan ${JSON.stringify(s.plan)}`);
  });
  log.push(`errors ${JSON.stringify(s.errors())}`, `warnings ${JSON.stringify(s.warnings())}`);
  log.push(`plan ${JSON.stringify(s.plan)} ok ${s.ok} head ${JSON.stringify(s.head, (_k, v: unknown) => v)}`);
  return log.join("\n");
}

describe("plain replay of status changes and evidence (fast path against the full path) @slow", () => {
  it("replays every payload variant as the full path does, plan read mid-scan or not", () => {
    let plain = 0;
    for (let seed = 1; seed <= 120; seed++) {
      const lines = ledger(seed, 40);
      for (const l of lines) {
        const f = fastCanonicalLine(l, true);
        assert.ok(f !== null, `seed ${seed}: the writer's line should be canonical: ${l.toString("latin1")}`);
        if (f.payloadPlain && f.payloadTaskId !== null && (f.payloadStatus ?? f.payloadPath) !== null) plain++;
      }
      const r = new SeededRandom(seed * 7);
      const probes = new Set<number>(seed % 2 === 0 ? [] : [1 + r.below(lines.length), 1 + r.below(lines.length)]);
      assert.equal(scan(lines, {}, probes), scan(lines, { fastPath: false }, probes), `seed ${seed}`);
    }
    assert.ok(plain > 1000, `only ${plain} plain entries: the corpus does not exercise the plain path`);
  });

  it("reads status, path and the plain flag as the payload holds them", () => {
    const facts = (payload: PyObject) => {
      const { line } = buildEntry(
        { seq: 0, selfHash: "", missingFinalNewline: false },
        "update_task_status",
        payload,
        "s",
      );
      const f = fastCanonicalLine(Buffer.from(line.trimEnd(), "latin1"))!;
      return [f.payloadTaskId, f.payloadStatus, f.payloadPath, f.payloadPlain];
    };
    const m = (o: Record<string, PyValue>) => new Map(Object.entries(o));
    assert.deepEqual(facts(m({ status: "coded", task_id: "1.1" })), ["1.1", "coded", null, true]);
    assert.deepEqual(facts(m({ path: "p\u00e9", task_id: "1.1" })), ["1.1", null, "p\u00e9", true]);
    assert.deepEqual(facts(m({ status: 3, task_id: null })), [null, null, null, true]);
    assert.deepEqual(facts(m({ note: "x", status: "coded", task_id: "1" })), ["1", "coded", null, true]);
    for (const k of ["blocked_reason", "retry_count", "escalated", "evidence_bundle", "reason"]) {
      assert.deepEqual(facts(m({ [k]: null, status: "coded", task_id: "1" })), ["1", "coded", null, false], k);
    }
  });
});
