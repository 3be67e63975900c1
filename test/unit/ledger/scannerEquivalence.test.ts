/**
 * Differential test of the ledger scanner's fast paths (canonical-bytes
 * hashing, light replay with a lazily built plan, entry-free summaries):
 * every ledger of a seeded corpus is scanned three ways —
 *
 * - `legacy`: a verbatim copy of the scanner as it was before the fast paths
 *   (full parse, validate, dump and hash per line; eager zod replay);
 * - `full`: the current scanner with `fastPath: false`;
 * - `fast`: the current scanner with its defaults;
 *
 * and everything observable must be identical: errors (kind, line, seq,
 * message, in order), warnings, entry count, head, bytes, every summary and
 * entry handed to `onEntry`, the replayed plan (also when read mid-scan), and
 * any exception.
 *
 * The corpus: ledgers written with the core's writer (as Python writes them)
 * with hostile payloads (every escape, astral and lone surrogates, odd keys,
 * big ints, floats), exact and coercible and invalid plans, replay errors;
 * then thousands of mutations of their lines — flipped/inserted/deleted bytes,
 * whitespace, alternative escapes and number forms, reordered, duplicated,
 * missing and extra keys, wrong types, NaN/Infinity — some re-chained (prev
 * and self hash recomputed) so the line passes the chain checks and reaches
 * replay. The fixtures written by Python are scanned too.
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { LineSplitter, RawLine, readLines } from "../../../src/core/sources/autodev/ledger/read/ledgerLineReader";
import { decodeUtf8Strict } from "../../../src/core/text/utf8";
import { pyStrip } from "../../../src/core/pyjson/pyBuiltins";
import { LedgerScanner, ScanOptions } from "../../../src/core/sources/autodev/ledger/ledgerScanner";
import {
  exactPlanFromCanonical,
  exactPlanModel,
  fastCanonicalLine,
} from "../../../src/core/sources/autodev/canonical/fastCanonical";
import { LastHead, buildEntry } from "../../../src/core/sources/autodev/ledger/ledgerWriter";
import { PyJsonError, parsePyJson } from "../../../src/core/pyjson/pyJsonParse";
import {
  LedgerEntry,
  Plan,
  TASK_STATUSES,
  ledgerEntryHashInput,
  ledgerEntryToPy,
  validateLedgerEntry,
  validatePlan,
} from "../../../src/core/sources/autodev/plan/schemas";
import { dumpsSorted } from "../../../src/core/pyjson/pyJsonDump";
import { computeEntryHash, computeHash } from "../../../src/core/sources/autodev/ledger/ledgerHash";
import { ReplayError, applyStrict, TaskChange } from "../../../src/core/sources/autodev/ledger/replay";
import { canTransition } from "../../../src/core/sources/autodev/plan/taskFsm";
import { DamageClassifier } from "../../../src/core/sources/autodev/ledger/damageClassifier";
import {
  EntrySummary,
  LedgerHead,
  VerifyErrorKind,
  VerifyFinding,
  VerifyWarning,
} from "../../../src/core/sources/autodev/ledger/verifyTypes";
import { PyFloat, PyObject, PyValue } from "../../../src/core/pyjson/pyValue";
import { SeededRandom as Rng } from "../../../src/core/seededRandom";
import { displayMessage } from "../../../src/core/text/displayText";
import { scanLedgerFile } from "../../../src/core/sources/autodev/ledger/read/parallelScan";

// ---------------------------------------------------------------- the scanner before the fast paths (oracle)

/**
 * The LedgerScanner of commit 3fa9087 without its (then empty) fast path,
 * verbatim except for the later fix that makes an uncomputable hash input
 * (pydantic's dump raising on a lone surrogate in a nested key) a self_hash
 * mismatch instead of a crash (`computeEntryHash`).
 */
class LegacyScanner {
  private prevSeq: number | bigint = 0;
  private prevHash = "";
  private linkKnown = true;
  private chainError: VerifyFinding | null = null;
  private replayError: VerifyFinding | null = null;
  private readonly findings: VerifyFinding[] = [];
  private readonly warningList: VerifyWarning[] = [];
  private suppressed = 0;
  private count = 0;
  private headInfo: LedgerHead | null = null;
  private planState: Plan | null = null;
  private replayBroken = false;
  private readonly damage = new DamageClassifier((f) => this.record(f));
  private bytesSeen = 0;

  constructor(private readonly options: ScanOptions = {}) {}

  feed(raw: RawLine): void {
    this.bytesSeen = Math.max(this.bytesSeen, raw.end);
    const text = decodeUtf8Strict(raw.bytes);
    if (text === null) {
      return this.unparsed(
        raw,
        "invalid_json",
        `ledger line ${raw.lineNo} is not valid UTF-8 text. Inspect and repair (or restore from snapshot).`,
      );
    }
    const line = pyStrip(text);
    if (line.length === 0) return;
    let obj;
    try {
      obj = parsePyJson(line);
    } catch (e) {
      const why =
        line.charCodeAt(0) === 0xfeff
          ? "Unexpected UTF-8 BOM (decode using utf-8-sig): line 1 column 1 (char 0)"
          : e instanceof PyJsonError
            ? e.message
            : String(e);
      return this.unparsed(
        raw,
        "invalid_json",
        `ledger line ${raw.lineNo} is not valid JSON: ${why}. Inspect and repair (or restore from snapshot).`,
      );
    }
    const res = validateLedgerEntry(obj);
    if (!res.ok) {
      return this.unparsed(raw, "schema", `ledger line ${raw.lineNo} failed schema validation: ${res.error}`);
    }
    this.accept(raw, res.value);
  }

  private unparsed(raw: RawLine, kind: VerifyErrorKind, message: string): void {
    const finding: VerifyFinding = { line: raw.lineNo, seq: null, kind, message, atLine: raw.lineNo };
    this.chainFinding(finding);
    this.damage.unparsed(raw.lineNo, !raw.terminated);
    this.linkKnown = false;
  }

  private accept(raw: RawLine, entry: LedgerEntry): void {
    const seq = entry.seq;
    const prevHash = entry.prev_hash;
    const selfHash = entry.self_hash;
    const computed = computeEntryHash(entry);
    const L = raw.lineNo;
    let problem: VerifyFinding | null = null;
    const expected =
      typeof this.prevSeq === "bigint" || typeof seq === "bigint" ? BigInt(this.prevSeq) + 1n : this.prevSeq + 1;
    // eslint-disable-next-line eqeqeq -- seq may be a bigint: == compares it with a number by value
    if (this.linkKnown && seq != expected) {
      problem = {
        line: L,
        seq,
        kind: "seq_jump",
        message: `ledger line ${L}: seq jumped from ${this.prevSeq} to ${seq}`,
        atLine: L,
      };
    } else if (this.linkKnown && prevHash !== this.prevHash) {
      problem = {
        line: L,
        seq,
        kind: "prev_hash_mismatch",
        message: `ledger line ${L}: prev_hash mismatch (expected '${this.prevHash}', saw '${prevHash}')`,
        atLine: L,
      };
    } else if (computed !== selfHash) {
      problem = {
        line: L,
        seq,
        kind: "self_hash_mismatch",
        message: `ledger line ${L}: self_hash mismatch (computed ${computed}, stored ${selfHash})`,
        atLine: L,
      };
    }
    if (problem) this.chainFinding(problem);
    this.damage.entry({
      line: L,
      seq,
      prevHash,
      selfHash,
      hashOk: computed === selfHash,
      expectedPrev: this.prevHash,
      expectedSeq: expected,
      linkKnown: this.linkKnown,
    });
    this.prevSeq = seq;
    this.prevHash = selfHash;
    this.linkKnown = true;
    this.count++;
    if (!problem && this.chainError === null) this.headInfo = { seq, selfHash, line: L, endOffset: raw.end };

    const full = this.options.replay !== false || this.options.onEntry ? entry : null;
    let change: TaskChange | null = null;
    if (this.options.replay !== false && full) change = this.replayOne(full, L);
    if (this.options.onEntry && full) {
      const taskId = full.payload.get("task_id");
      this.options.onEntry(
        {
          seq: Number(seq),
          line: L,
          start: raw.start,
          end: raw.end,
          op: full.op,
          timestamp: full.timestamp,
          sessionId: full.session_id,
          selfHash,
          taskId: change?.taskId ?? (typeof taskId === "string" ? taskId : null),
          fromStatus: change?.from ?? null,
          toStatus: change?.to ?? null,
          retryCount: change?.retry ?? null,
          escalated: change?.escalated ?? false,
          chain: problem ? problem.kind : "ok",
        },
        full,
      );
    }
  }

  private replayOne(entry: LedgerEntry, line: number): TaskChange | null {
    if (this.replayBroken && entry.op !== "init_plan" && entry.op !== "update_plan" && entry.op !== "snapshot") {
      return null;
    }
    try {
      const applied = applyStrict(this.planState, entry);
      this.planState = applied.plan;
      this.replayBroken = false;
      const c = applied.change;
      if (c && c.from !== null && c.from !== c.to && !canTransition(c.from, c.to)) {
        this.warningList.push({
          atLine: line,
          seq: entry.seq,
          kind: "fsm_violation",
          message: `entry seq=${entry.seq} moved task ${c.taskId} from '${c.from}' to '${c.to}', which the task state machine does not allow`,
        });
      }
      return c;
    } catch (e) {
      if (!(e instanceof ReplayError)) throw e;
      const finding: VerifyFinding = { line: null, seq: e.seq, kind: e.kind, message: e.message, atLine: line };
      if (this.replayError === null) this.replayError = finding;
      else this.record(finding);
      this.replayBroken = true;
      return null;
    }
  }

  private chainFinding(f: VerifyFinding): void {
    if (this.chainError === null) this.chainError = f;
    else this.record(f);
  }

  private record(f: VerifyFinding): void {
    const max = this.options.maxFindings ?? 1000;
    if (this.findings.length < max) this.findings.push(f);
    else this.suppressed++;
  }

  get plan(): Plan | null {
    return this.planState;
  }

  get entries(): number {
    return this.count;
  }

  get head(): LedgerHead | null {
    return this.headInfo;
  }

  get ok(): boolean {
    return this.chainError === null && this.replayError === null;
  }

  get bytes(): number {
    return this.bytesSeen;
  }

  errors(): VerifyFinding[] {
    this.damage.flush();
    const first = this.chainError ?? this.replayError;
    const out: VerifyFinding[] = first ? [first] : [];
    if (this.chainError && this.replayError) out.push(this.replayError);
    out.push(...this.findings);
    if (this.suppressed > 0) {
      out.push({
        line: null,
        seq: null,
        kind: "more_errors",
        message: `${this.suppressed} more findings not listed`,
        atLine: 0,
      });
    }
    return out;
  }

  warnings(): VerifyWarning[] {
    return [...this.warningList];
  }
}

// ---------------------------------------------------------------- helpers

/** A faithful text form of any scanner output (Maps in order, bigint, PyFloat, -0, undefined). */
function ser(v: unknown): string {
  if (v === undefined) return "U";
  if (v === null) return "N";
  switch (typeof v) {
    case "boolean":
      return v ? "T" : "F";
    case "number":
      return Object.is(v, -0) ? "n-0" : `n${v}`;
    case "bigint":
      return `b${v}`;
    case "string":
      return JSON.stringify(v);
  }
  if (v instanceof PyFloat) return `f${Object.is(v.value, -0) ? "-0" : v.value}`;
  if (v instanceof Map) return `M{${[...v].map(([k, x]) => `${JSON.stringify(k)}:${ser(x)}`).join(",")}}`;
  if (Array.isArray(v)) return `[${v.map(ser).join(",")}]`;
  return `{${Object.entries(v as object)
    .map(([k, x]) => `${JSON.stringify(k)}:${ser(x)}`)
    .join(",")}}`;
}

const obj = (pairs: [string, PyValue][]): PyObject => new Map(pairs);

// ---------------------------------------------------------------- corpus: ledgers as Python writes them

const STRINGS = [
  "plain",
  "",
  'with "quotes"',
  "back\\slash",
  "new\nline",
  "tab\there",
  "\b\f\r",
  "\u0000",
  "\u001f",
  "\u007f",
  "caf\u00e9",
  "\u65e5\u672c",
  "\u2028",
  "\u{1f600}",
  "\ud800",
  "x\udc00y",
  "/",
  "</script>",
  "\ue000",
  "\uffff",
  "a b",
  "100%",
];
const KEYS = [
  "a",
  "b",
  "A",
  "_",
  "a b",
  "\u00e9",
  "\ue000",
  "\u{1f600}",
  "10",
  "9",
  "",
  "task_id",
  "plan",
  "z",
  "\u007f",
  "\ud800",
  "status",
];
const FLOATS = [0.1, -0, 0, 1e16, 1e-5, 1.5, 2, 5e-324, 1.7976931348623157e308, -2.5e-7, 123456789.125, 1e22];
const INTS: (number | bigint)[] = [0, -1, 5, 42, 2 ** 53 - 1, 2n ** 63n, -(10n ** 30n), 10n ** 20n];

function randomValue(r: Rng, depth: number): PyValue {
  const k = r.below(depth > 2 ? 6 : 9);
  switch (k) {
    case 0:
      return r.pick(STRINGS);
    case 1:
      return r.pick(INTS);
    case 2:
      return new PyFloat(r.pick(FLOATS));
    case 3:
      return r.pick([true, false, null]);
    case 4:
    case 5:
      return r.pick(STRINGS) + r.pick(STRINGS);
    case 6:
    case 7: {
      const m: PyObject = new Map();
      for (let i = r.below(4); i > 0; i--) m.set(r.pick(KEYS), randomValue(r, depth + 1));
      return m;
    }
    default:
      return Array.from({ length: r.below(4) }, () => randomValue(r, depth + 1));
  }
}

interface TaskModel {
  id: string;
  phase: string;
  status: string;
  retry: number | bigint;
  escalated: boolean;
  evidence: string | null;
  blocked: PyValue;
  metadata: PyObject;
}

function taskPy(t: TaskModel, r: Rng): PyObject {
  return obj([
    ["id", t.id],
    ["phase_id", t.phase],
    ["title", `Task ${t.id} ${r.chance(0.2) ? r.pick(STRINGS) : ""}`],
    ["description", "Do the thing."],
    ["status", t.status],
    ["files", ["src/a.py"]],
    [
      "acceptance",
      [
        obj([
          ["id", `${t.id}-a`],
          ["description", "works"],
          ["met", t.status === "complete"],
        ]),
      ],
    ],
    ["depends_on", []],
    ["retry_count", t.retry],
    ["escalated", t.escalated],
    ["assigned_agent", null],
    ["evidence_bundle", t.evidence],
    ["blocked_reason", typeof t.blocked === "string" || t.blocked === null ? t.blocked : null],
    ["metadata", t.metadata],
  ]);
}

/** The plan payload: exact, or (sometimes) coercible or invalid in one place. */
function planPy(tasks: TaskModel[], r: Rng, stamp: string, variant: number): PyObject {
  const meta = r.chance(0.3) ? randomValue(r, 2) : null;
  const metadata = meta instanceof Map ? meta : obj([]);
  const phases: PyObject[] = [];
  for (const id of [...new Set(tasks.map((t) => t.phase))]) {
    phases.push(
      obj([
        ["id", id],
        ["title", `Phase ${id}`],
        ["description", ""],
        ["tasks", tasks.filter((t) => t.phase === id).map((t) => taskPy(t, r))],
      ]),
    );
  }
  const plan = obj([
    ["plan_id", "plan-eq"],
    ["spec_hash", "abc"],
    ["phases", phases],
    ["metadata", metadata],
    ["created_at", "2026-01-01T00:00:00+00:00"],
    ["updated_at", stamp],
    ["content_hash", ""],
  ]);
  const someTask = (phases[r.below(phases.length)].get("tasks") as PyObject[])[0];
  switch (variant) {
    case 1:
      someTask.set("retry_count", "2");
      break; // coercible
    case 2:
      someTask.set("escalated", 1);
      break; // coercible
    case 3:
      plan.delete("content_hash");
      break; // default
    case 4:
      someTask.delete("metadata");
      break; // default
    case 5:
      someTask.set("status", "bogus");
      break; // invalid
    case 6:
      someTask.set("extra", true);
      break; // invalid
    case 7:
      plan.set("phases", "nope");
      break; // invalid
    case 8:
      someTask.set("retry_count", new PyFloat(2));
      break; // coercible
    case 9:
      someTask.set("assigned_agent", 7);
      break; // invalid
    case 10:
      someTask.set("id", "\u{1f600}-" + String(someTask.get("id")));
      break; // exact, escaped id
  }
  return plan;
}

/** One ledger of canonical lines (as Python writes them), with realistic and hostile content. */
function baseLedger(r: Rng): string[] {
  const tasks: TaskModel[] = [];
  const phaseCount = 1 + r.below(3);
  for (let p = 1; p <= phaseCount; p++) {
    for (let t = 1; t <= 1 + r.below(4); t++) {
      tasks.push({
        id: `${p}.${t}`,
        phase: String(p),
        status: "pending",
        retry: 0,
        escalated: false,
        evidence: null,
        blocked: null,
        metadata: obj([["priority", "low"]]),
      });
    }
  }
  if (r.chance(0.1)) tasks.push({ ...tasks[0], metadata: obj([]) }); // a duplicate id: replay finds the first
  let head: LastHead = { seq: 0, selfHash: "", missingFinalNewline: false };
  const lines: string[] = [];
  let clock = Date.UTC(2026, 0, 1);
  const add = (op: string, payload: PyObject, session = "sess-eq") => {
    clock += 1000 + r.below(5000);
    const micro = r.below(1_000_000);
    const ts =
      new Date(clock).toISOString().slice(0, 19) + (micro ? `.${String(micro).padStart(6, "0")}` : "") + "+00:00";
    let built: ReturnType<typeof buildEntry>;
    try {
      built = buildEntry(head, op, payload, r.chance(0.05) ? r.pick(STRINGS) : session, ts);
    } catch {
      return; // the writer refuses it (e.g. a lone surrogate in a nested key), as Python would fail to dump it
    }
    const { entry, line } = built;
    head = { seq: entry.seq, selfHash: entry.self_hash, missingFinalNewline: false };
    lines.push(line.slice(0, -1));
  };
  const stamp = () => new Date(clock).toISOString();
  if (r.chance(0.3)) {
    add(
      "plan_tournament_complete",
      obj([
        ["converged", true],
        ["passes", 2],
        ["winner", "B"],
      ]),
    );
  }
  if (r.chance(0.05)) {
    add(
      "update_task_status",
      obj([
        ["status", "coded"],
        ["task_id", "1.1"],
      ]),
    );
  } // before_init
  if (r.chance(0.05)) add("snapshot", r.chance(0.5) ? obj([]) : obj([["plan", null]])); // missing_plan_payload
  add("init_plan", obj([["plan", planPy(tasks, r, stamp(), r.chance(0.1) ? 1 + r.below(10) : 0)]]));
  add("snapshot", obj([["plan", planPy(tasks, r, stamp(), 0)]]));
  const steps = 4 + r.below(14);
  for (let s = 0; s < steps; s++) {
    const t = r.pick(tasks);
    const k = r.below(20);
    if (k < 8) {
      const next = r.chance(0.85)
        ? (r.pick([
            "in_progress",
            "coded",
            "auto_gated",
            "reviewed",
            "tested",
            "tournamented",
            "complete",
            "blocked",
          ]) as string)
        : r.pick(["bogus", "skipped", "pending"]);
      const payload = obj([
        ["task_id", r.chance(0.05) ? "9.9" : t.id],
        ["status", next],
      ]);
      if (r.chance(0.2)) {
        payload.set(
          "retry_count",
          r.pick<PyValue>([1, 2n ** 70n, "3", " 4 ", "x", new PyFloat(2.7), true, null, new PyFloat(NaN)]),
        );
      }
      if (r.chance(0.15)) payload.set("escalated", r.pick<PyValue>([true, false, 0, "", "no", null]));
      if (r.chance(0.15)) payload.set("blocked_reason", r.pick<PyValue>(["why", null, 3, obj([["a", 1]])]));
      if (r.chance(0.15)) payload.set("evidence_bundle", r.pick<PyValue>([".autodev/evidence/x.json", null]));
      if (r.chance(0.1)) payload.set(r.pick(KEYS), randomValue(r, 1));
      if (r.chance(0.03)) payload.delete("status");
      add("update_task_status", payload);
      if (
        typeof payload.get("status") === "string" &&
        TASK_STATUSES.includes(payload.get("status") as never) &&
        payload.get("task_id") === t.id
      ) {
        t.status = payload.get("status") as string;
        const rc = payload.get("retry_count");
        if (typeof rc === "number" || typeof rc === "bigint") t.retry = rc;
      }
      if (r.chance(0.8)) {
        add("snapshot", obj([["plan", planPy(tasks, r, stamp(), r.chance(0.1) ? 1 + r.below(10) : 0)]]));
      }
    } else if (k < 10) {
      add(
        "append_evidence",
        obj([
          ["path", r.chance(0.8) ? `.autodev/evidence/${t.id}.json` : 5],
          ["task_id", t.id],
        ]),
      );
    } else if (k < 12) {
      const v = randomValue(r, 0);
      add("impl_tournament_complete", v instanceof Map ? v : obj([[r.pick(KEYS), v]]));
    } else if (k < 13) {
      add(
        r.pick(["mark_blocked", "mark_complete"]),
        obj([
          ["reason", "stuck"],
          ["task_id", r.chance(0.8) ? t.id : 7],
        ]),
      );
    } else if (k < 14) {
      add("update_plan", obj([["plan", planPy(tasks, r, stamp(), r.below(11))]]));
    } else if (k < 15) {
      const m = obj([]);
      for (let i = 1 + r.below(5); i > 0; i--) m.set(r.pick(KEYS), randomValue(r, 0));
      add("plan_tournament_complete", m);
    } else {
      add("snapshot", obj([["plan", planPy(tasks, r, stamp(), 0)]]));
    }
  }
  return lines;
}

// ---------------------------------------------------------------- corpus: mutations

const SELF_RE = /"self_hash": "[0-9a-f]{16}"/;
const PREV_RE = /"prev_hash": "(?:[0-9a-f]{16})?"/;

/** Positions of `"key": ` members in a line (rough, for mutations). */
function memberStarts(line: string): number[] {
  const out: number[] = [];
  const re = /(?<=[{ ])"(?:[^"\\]|\\.)*": /g;
  for (let m = re.exec(line); m; m = re.exec(line)) out.push(m.index);
  return out;
}

function mutateLine(r: Rng, line: string): string {
  const n = line.length;
  const at = r.below(n);
  switch (r.below(24)) {
    case 0: // flip a byte to anything
      return line.slice(0, at) + String.fromCharCode(r.below(256)) + line.slice(at + 1);
    case 1: // flip a byte to something JSON-ish
      return (
        line.slice(0, at) +
        r.pick(['"', "\\", " ", "0", "1", "{", "}", "[", "]", ",", ":", "e", ".", "-", "a", "\u00e9", "\t"]) +
        line.slice(at + 1)
      );
    case 2:
      return line.slice(0, at) + line.slice(at + 1);
    case 3: // whitespace
      return line.replace(r.pick([", ", ": "]), r.pick([",", ":", ",  ", ":  ", " , ", "\t,", ", \t"]));
    case 4:
      return (
        r.pick([" ", "\t", "\u000b", "\u000c", "\u001c", "\u00a0", "\u2028"]) +
        line +
        r.pick(["", " ", "\t", "\u3000", "\u0085"])
      );
    case 5: {
      // a printable char as an escape
      const m = /[A-Za-z0-9_ .:-](?=[^"]*"[,}\]])/g;
      const hits = [...line.matchAll(m)];
      if (!hits.length) return line;
      const h = r.pick(hits);
      const hex = h[0].charCodeAt(0).toString(16).padStart(4, "0");
      return line.slice(0, h.index) + "\\u" + (r.chance(0.5) ? hex : hex.toUpperCase()) + line.slice(h.index! + 1);
    }
    case 6: // alternative escapes
      return line.replace(
        r.pick(["\\n", "\\t", "\\u00e9", "\\u007f", "\\ud83d", "\\\\", '\\"', "/", "\\b", "\\u0000"]),
        (s) =>
          r.pick(
            {
              "\\n": ["\\u000a", "\\u000A"],
              "\\t": ["\\u0009"],
              "\\u00e9": ["\\u00E9", "\u00e9", "\u00c3\u00a9"],
              "\\u007f": ["\u007f", "\\u007F"],
              "\\ud83d": ["\\uD83D", "\\ud83d\\ud83d"],
              "\\\\": ["\\u005c"],
              '\\"': ["\\u0022"],
              "/": ["\\/"],
              "\\b": ["\\u0008"],
              "\\u0000": ["\\u0000\\u0000", "\u0000"],
            }[s] ?? [s],
          ),
      );
    case 7: {
      // number forms
      const nums = [...line.matchAll(/(?<=[:[,] )-?\d+(?:\.\d+)?(?:e[+-]?\d+)?(?=[,}\]])/g)];
      if (!nums.length) return line;
      const h = r.pick(nums);
      const t = h[0];
      const alt = r.pick([
        `${t}.0`,
        `0${t}`,
        `${t}e0`,
        `${t}E+00`,
        t.replace(/^-?/, "-"),
        "-0",
        "-0.0",
        `${t}0`,
        "1.50",
        "1e5",
        "1E+16",
        "1e+16",
        "100000.0",
        "NaN",
        "Infinity",
        "-Infinity",
        "1" + "0".repeat(4300),
        "1e400",
        "0.1000000000000000055511151231257827",
      ]);
      return line.slice(0, h.index) + alt + line.slice(h.index! + t.length);
    }
    case 8: {
      // swap two adjacent top-level-ish members
      const starts = memberStarts(line);
      if (starts.length < 2) return line;
      const i = r.below(starts.length - 1);
      const a = starts[i];
      const b = starts[i + 1];
      const aText = line.slice(a, b - 2);
      const restEnd = line.indexOf(", ", b);
      if (
        restEnd < 0 ||
        !line.slice(b, restEnd).match(/^"[^"]*": (?:"[^"]*"|-?\d+|true|false|null)$/) ||
        !aText.match(/^"[^"]*": (?:"[^"]*"|-?\d+|true|false|null)$/)
      ) {
        return line;
      }
      return line.slice(0, a) + line.slice(b, restEnd) + ", " + aText + line.slice(restEnd);
    }
    case 9: {
      // duplicate a simple member
      const m = [...line.matchAll(/"[a-z_]+": (?:"[^"\\]*"|-?\d+|true|false|null)(?=[,}])/g)];
      if (!m.length) return line;
      const h = r.pick(m);
      return line.slice(0, h.index! + h[0].length) + ", " + h[0] + line.slice(h.index! + h[0].length);
    }
    case 10: // drop a top-level field
      return line.replace(
        r.pick([/"payload": \{\}, /, /, "session_id": "[^"]*"/, /"seq": \d+, /, /"prev_hash": "[^"]*", /]),
        "",
      );
    case 11: // extra field
      return line.replace(r.pick(['{"op"', '"seq"', '{"plan"', '{"acceptance"']), (s) =>
        s.startsWith("{") ? `{"${r.pick(["aaa", "zzz", "extra"])}": 1, ${s.slice(1)}` : `"rz": 0, ${s}`,
      );
    case 12: // wrong types at top level
      return line.replace(
        /"seq": (\d+)/,
        (_s, d) => `"seq": ${r.pick([`"${d}"`, `${d}.0`, "true", "null", `[${d}]`, `${d}e0`, `"${d} "`])}`,
      );
    case 13:
      return line.replace(
        /"(prev_hash|session_id|timestamp|op)": ("[^"]*")/,
        (_s, k, v) => `"${k}": ${r.pick(["null", "1", "[]", "{}", v.toUpperCase(), '"snapshot"', '"bogus"'])}`,
      );
    case 14: // plan content types
      return line.replace(
        r.pick([
          /"retry_count": \d+/,
          /"met": (?:true|false)/,
          /"escalated": (?:true|false)/,
          /"status": "[a-z_]+"/,
          /"assigned_agent": (?:null|"[^"]*")/,
        ]),
        (s) => {
          const key = s.slice(0, s.indexOf(":"));
          return `${key}: ${r.pick(['"1"', "1", "1.0", "true", "null", '"pending"', '"Pending"', '"in_progress"', "[]", '"yes"', "2.5", '"\\u0070ending"'])}`;
        },
      );
    case 15: // NaN / Infinity in the payload
      return line.replace(
        /"payload": \{/,
        `"payload": {"${r.pick(["0", "aaa", "zz"])}": ${r.pick(["NaN", "Infinity", "-Infinity", "[NaN]", '{"x": Infinity}'])}, `,
      );
    case 16: // lone surrogates
      return line.replace(
        /"payload": \{/,
        `"payload": {${r.pick(['"\\ud800": 1, ', '"a": "\\udc00", ', '"b": {"\\udbff": 2}, ', '"c": ["\\ud83d"], ', '"\\ud83d\\ude00": 0, '])}`,
      );
    case 17: // payload shape
      return line.replace(/"payload": \{/, `"payload": ${r.pick(['[], "x": {', 'null, "y": {', '{"a": {'])}`);
    case 18: // a task removed or duplicated in a plan
      return line.replace(/\{"acceptance": [^{}]*(?:\{[^{}]*\}[^{}]*)*\}, /, (s) => (r.chance(0.5) ? "" : s + s));
    case 19: // truncate
      return line.slice(0, r.below(n));
    case 20: // deep nesting
      return line.replace(/"payload": \{/, `"payload": {"deep": ${"[".repeat(600)}${"]".repeat(600)}, `);
    case 21: // key order inside the payload
      return line.replace(/"payload": \{"([a-z_]+)"/, `"payload": {"~$1"`);
    case 22: // uppercase/lowercase in hex hashes
      return line.replace(/"self_hash": "([0-9a-f]+)"/, (_s, h) => `"self_hash": "${h.toUpperCase()}"`);
    default: // astral vs BMP ordering of keys
      return line.replace(
        /"payload": \{/,
        `"payload": {${r.pick(['"\\ud83d\\ude00": 1, "\\ue000": 2, ', '"\\ue000": 2, "\\ud83d\\ude00": 1, ', '"\\u00e9": 1, "\\u00e8": 2, ', '"a": 1, "a": 2, '])}`,
      );
  }
}

/** Sets prev_hash to `prev` and self_hash to the hash Python would compute, when the line validates. */
function rechain(line: string, prev: string): { line: string; self: string | null } {
  let text = PREV_RE.test(line) ? line.replace(PREV_RE, `"prev_hash": "${prev}"`) : line;
  let entry: LedgerEntry;
  try {
    const res = validateLedgerEntry(parsePyJson(pyStrip(text)));
    if (!res.ok) return { line: text, self: null };
    entry = res.value;
  } catch {
    return { line: text, self: null };
  }
  let hash: string;
  try {
    hash = computeHash(ledgerEntryHashInput(entry));
  } catch {
    return { line: text, self: null };
  }
  if (SELF_RE.test(text)) text = text.replace(SELF_RE, `"self_hash": "${hash}"`);
  return { line: text, self: hash };
}

/** Re-chains a whole ledger in place. */
function rechainAll(lines: string[]): void {
  let prev = "";
  for (let i = 0; i < lines.length; i++) {
    const { line, self } = rechain(lines[i], prev);
    lines[i] = line;
    if (self !== null) prev = self;
  }
}

/** The file: lines joined with assorted terminators, maybe a BOM, blank lines, a torn tail. */
function assemble(r: Rng, lines: string[]): Buffer {
  const parts: string[] = [];
  if (r.chance(0.02)) parts.push("\ufeff");
  lines.forEach((l, i) => {
    parts.push(l);
    const last = i === lines.length - 1;
    if (last && r.chance(0.1)) return;
    parts.push(r.chance(0.9) ? "\n" : r.pick(["\r\n", "\r", "\n\n", "\n \n"]));
  });
  return Buffer.from(parts.join(""), "utf8");
}

// ---------------------------------------------------------------- running the three scanners

interface Outcome {
  readonly text: string;
  readonly fastLines: number;
}

interface AnyScanner {
  feed(l: RawLine): void;
  readonly plan: Plan | null;
  readonly entries: number;
  readonly head: LedgerHead | null;
  readonly ok: boolean;
  readonly bytes: number;
  errors(): VerifyFinding[];
  warnings(): VerifyWarning[];
}

/**
 * Feeds `file` in random chunks through a reused buffer (as `readLines` does,
 * so a scanner that keeps a view of a line past `feed` is caught) and records
 * everything observable. `probes`: line numbers after which `plan` is read.
 */
function run(
  make: (opts: ScanOptions) => AnyScanner,
  file: Buffer,
  options: ScanOptions,
  chunkSeed: number,
  probes: Set<number>,
  entryArg: boolean,
): Outcome {
  const log: string[] = [];
  const opts: ScanOptions = {
    ...options,
    onEntry: entryArg
      ? (s: EntrySummary, e: LedgerEntry | null) => log.push(`E ${ser(s)} ${ser(e)}`)
      : (s: EntrySummary) => log.push(`E ${ser(s)}`),
  };
  const scanner = make(opts);
  const r = new Rng(chunkSeed);
  const splitter = new LineSplitter();
  const work = Buffer.alloc(file.length + 16);
  let fastLines = 0;
  const onLine = (l: RawLine) => {
    if (fastCanonicalLine(Buffer.from(l.bytes))) fastLines++;
    scanner.feed(l);
    if (probes.has(l.lineNo)) log.push(`P${l.lineNo} ${ser(scanner.plan)} ${scanner.ok}`);
  };
  try {
    for (let pos = 0; pos < file.length;) {
      const len = Math.min(file.length - pos, 1 + r.below(r.chance(0.5) ? 64 : 4096));
      file.copy(work, 0, pos, pos + len);
      splitter.push(work.subarray(0, len), onLine);
      work.fill(0x7e, 0, len); // whatever a scanner kept a view of is garbage now
      pos += len;
    }
    splitter.finish(onLine);
  } catch (e) {
    log.push(`THREW ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`);
  }
  // Since issue 11 the scanner shows messages with controls escaped and capped (displayMessage, 2,000
  // characters); the verbatim legacy copy predates that, so its messages get the same treatment here.
  const shown = <T extends { message: string }>(f: T): T =>
    make === legacy ? { ...f, message: displayMessage(f.message, 2000) } : f;
  log.push(`errors ${ser(scanner.errors().map(shown))}`);
  log.push(`warnings ${ser(scanner.warnings().map(shown))}`);
  log.push(`entries ${scanner.entries} head ${ser(scanner.head)} ok ${scanner.ok} bytes ${scanner.bytes}`);
  log.push(`plan ${ser(scanner.plan)}`);
  return { text: log.join("\n"), fastLines };
}

const legacy = (o: ScanOptions) => new LegacyScanner(o);
const current = (o: ScanOptions) => new LedgerScanner(o);

/** Compares legacy, full and fast scans of one file under several option sets. */
function checkFile(file: Buffer, seed: number, label: string): { lines: number; fast: number } {
  const r = new Rng(seed);
  const lineCount = file.toString("latin1").split(/\r\n|\r|\n/).length;
  const probes = new Set<number>();
  for (let i = r.below(4); i > 0; i--) probes.add(1 + r.below(lineCount));
  let stats = { lines: 0, fast: 0 };
  const variants: [ScanOptions, boolean][] = [
    [{}, true],
    [r.chance(0.5) ? { maxFindings: 2 } : {}, false],
    [{ replay: false }, true],
  ];
  for (const [options, entryArg] of variants) {
    const chunkSeed = r.next();
    // The legacy scanner always passes the entry; a one-parameter callback just does not log it.
    const want = run(legacy, file, options, chunkSeed, probes, entryArg);
    const full = run(current, file, { ...options, fastPath: false }, chunkSeed, probes, entryArg);
    const fast = run(current, file, options, chunkSeed, probes, entryArg);
    // EQ_DUMP=path keeps the first differing ledger file, to debug a failure.
    if (process.env.EQ_DUMP && (full.text !== want.text || fast.text !== want.text)) {
      fs.writeFileSync(process.env.EQ_DUMP, file);
    }
    assert.equal(
      full.text,
      want.text,
      `${label} ${JSON.stringify(options)}: full path differs from the legacy scanner`,
    );
    assert.equal(
      fast.text,
      want.text,
      `${label} ${JSON.stringify(options)}: fast path differs from the legacy scanner`,
    );
    stats = { lines: lineCount, fast: fast.fastLines };
  }
  return stats;
}

let exactModels = 0;

/** When `exactPlanModel` builds a plan (from any parsed value, trusted or not), it is `validatePlan`'s model. */
function checkExactPlanModel(line: string): void {
  let plan: PyValue | undefined;
  try {
    const v = parsePyJson(pyStrip(line));
    plan = v instanceof Map && v.get("payload") instanceof Map ? (v.get("payload") as PyObject).get("plan") : undefined;
  } catch {
    return;
  }
  if (plan === undefined) return;
  const model = exactPlanModel(plan);
  if (model === null) return;
  exactModels++;
  const v = validatePlan(plan);
  assert.ok(v.ok, `exactPlanModel built a plan the validator rejects: ${line.slice(0, 300)}`);
  assert.equal(ser(model), ser(v.value));
}

// ---------------------------------------------------------------- tests

describe("ledger scanner fast paths (differential) @slow", function () {
  this.timeout(120_000);

  it("gives the legacy scanner's verdicts on the Python-written fixtures", () => {
    for (const name of ["python-small", "python-evidence"]) {
      const file = fs.readFileSync(
        path.join(__dirname, "../../../../test/fixtures", name, ".autodev/plan-ledger.jsonl"),
      );
      const stats = checkFile(file, 7, name);
      assert.equal(stats.fast, stats.lines - 1, `${name}: every Python-written line should take the fast path`);
    }
  });

  it("gives the legacy scanner's verdicts on clean ledgers written as Python writes them", () => {
    const r = new Rng(0xc1ea);
    let lines = 0;
    let fast = 0;
    for (let k = 0; k < 25; k++) {
      const ledger = baseLedger(r);
      const file = Buffer.from(ledger.join("\n") + "\n");
      const stats = checkFile(file, r.next(), `clean #${k}`);
      lines += ledger.length;
      fast += stats.fast;
    }
    // Writer output is canonical except where a lone surrogate is involved.
    assert.ok(fast > lines * 0.85, `only ${fast} of ${lines} clean lines took the fast path`);
  });

  it("gives the legacy scanner's verdicts on ledgers with mutated lines", () => {
    const r = new Rng(0xbadc0de);
    let mutations = 0;
    let fastMutants = 0;
    for (let files = 0; files < 100; files++) {
      const lines = baseLedger(r);
      const mutated = new Set<number>();
      for (let m = 2 + r.below(5); m > 0; m--) {
        const i = r.below(lines.length);
        lines[i] = mutateLine(r, lines[i]);
        if (r.chance(0.3)) lines[i] = mutateLine(r, lines[i]);
        mutated.add(i);
        mutations++;
      }
      if (r.chance(0.6)) rechainAll(lines);
      for (const i of mutated) if (fastCanonicalLine(Buffer.from(lines[i], "latin1"))) fastMutants++;
      if (r.chance(0.1)) lines.splice(r.below(lines.length), 0, lines[r.below(lines.length)]); // duplicate / insert
      if (r.chance(0.05)) lines.splice(r.below(lines.length), 1); // drop
      checkFile(assemble(r, lines), r.next(), `mutant file #${files}`);
    }
    assert.ok(mutations > 350);
    // Some mutants must still be canonical (re-chained value changes, valid swaps…), or the fast path is barely exercised.
    assert.ok(fastMutants > 30, `only ${fastMutants} mutated lines took the fast path`);
  });

  it("accepts a mutated line only when the full path agrees on every fact (12,000 mutants)", () => {
    const r = new Rng(0x5eed8);
    let accepted = 0;
    let planSkeletons = 0;
    let total = 0;
    while (total < 12_000) {
      const lines = baseLedger(r);
      if (r.chance(0.5)) rechainAll(lines);
      for (let k = 0; k < 100; k++) {
        const i = r.below(lines.length);
        let line = mutateLine(r, lines[i]);
        if (r.chance(0.3)) line = mutateLine(r, line);
        if (r.chance(0.5)) line = rechain(line, "").line;
        total++;
        const bytes = Buffer.from(line, "utf8");
        checkExactPlanModel(line);
        const fast = fastCanonicalLine(bytes, true);
        if (!fast) continue;
        accepted++;
        const res = validateLedgerEntry(parsePyJson(line));
        assert.ok(res.ok, `fast path accepted a line the schema rejects: ${line.slice(0, 300)}`);
        const entry = res.value;
        const facts = {
          seq: entry.seq,
          prev: entry.prev_hash,
          self: entry.self_hash,
          hash: computeEntryHash(entry),
          op: entry.op,
          ts: entry.timestamp,
          session: entry.session_id,
          taskId: typeof entry.payload.get("task_id") === "string" ? entry.payload.get("task_id") : null,
        };
        const got = {
          seq: fast.seq,
          prev: fast.prevHash,
          self: fast.selfHash,
          hash: fast.computedHash,
          op: fast.op,
          ts: fast.timestamp,
          session: fast.sessionId,
          taskId: fast.payloadTaskId,
        };
        assert.equal(ser(got), ser(facts), `fast facts differ for ${line.slice(0, 300)}`);
        assert.equal(ser(fast.entryLazy()), ser(entry));
        assert.equal(dumpsSorted(ledgerEntryToPy(entry)), line, "an accepted line must be exactly its canonical dump");
        const plan = entry.payload.get("plan");
        if (fast.skeleton) {
          planSkeletons++;
          const v = validatePlan(plan ?? null);
          assert.ok(v.ok, `fast path proved an invalid plan valid: ${line.slice(0, 300)}`);
          const tasks = v.value.phases.flatMap((p) => p.tasks);
          const k = fast.skeleton;
          assert.equal(
            k.ids.map((id, n) => `${id}=${TASK_STATUSES[k.statuses[n]]}`).join(","),
            tasks.map((t) => `${t.id}=${t.status}`).join(","),
          );
          for (const [id, at] of k.positions) {
            assert.equal(
              at,
              tasks.findIndex((t) => t.id === id),
            );
          }
          assert.equal(k.positions.size, new Set(tasks.map((t) => t.id)).size);
          const built = exactPlanFromCanonical(line.slice(fast.planStart, fast.planEnd), k);
          if (built) {
            assert.equal(ser(built), ser(v.value), "the plan built from canonical bytes is not the validator's");
          }
          assert.equal(fast.planIsNull, false);
          assert.equal(line.slice(fast.planStart, fast.planEnd), dumpsSorted(plan as PyValue));
        }
      }
    }
    assert.ok(accepted > 1000, `only ${accepted} of ${total} mutants took the fast path`);
    assert.ok(exactModels > 1000, `only ${exactModels} plans were built without the validator`);
    assert.ok(planSkeletons > 100, `only ${planSkeletons} mutated plans were proven`);
  });
});

// ---------------------------------------------------------------- the parallel path

let parallelScans = 0;

/**
 * What a scan records, as {@link run} does without probes: through
 * `scanLedgerFile` cut into chunks at `splitAt` (moved to line starts; [] =
 * one thread), the chunks claimed as the threads' speeds fall or, with
 * `split.mainChunks`, exactly that many by this thread and the rest by the
 * workers; or with `reference` through the original reader (`readLines` + `feed`).
 */
async function runParallel(
  file: Buffer,
  options: ScanOptions,
  splitAt: number[],
  reference = false,
  split: { threads?: number; mainChunks?: number } = {},
): Promise<string> {
  const tmp = path.join(os.tmpdir(), `autodev-eq-parallel-${process.pid}.jsonl`);
  fs.writeFileSync(tmp, file);
  const log: string[] = [];
  const scanner = new LedgerScanner({ ...options, onEntry: (s: EntrySummary) => log.push(`E ${ser(s)}`) });
  let cursor = "";
  try {
    const c = reference
      ? await readLines(tmp, (l) => scanner.feed(l))
      : await scanLedgerFile(tmp, scanner, {
          threads: split.threads ?? 2,
          minBytes: 0,
          splitAt,
          mainChunks: split.mainChunks,
          onSegments: () => parallelScans++,
        });
    cursor = ser(c);
  } catch (e) {
    log.push(`THREW ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`);
  } finally {
    fs.rmSync(tmp, { force: true });
  }
  log.push(`errors ${ser(scanner.errors())}`);
  log.push(`warnings ${ser(scanner.warnings())}`);
  log.push(`entries ${scanner.entries} head ${ser(scanner.head)} ok ${scanner.ok} bytes ${scanner.bytes}`);
  log.push(`plan ${ser(scanner.plan)}`);
  return `${log.join("\n")}\ncursor ${cursor}`;
}

/** Split targets: random offsets, and offsets right at, before and after line terminators near `near`. */
function splitTargets(r: Rng, file: Buffer, count: number): number[] {
  const out: number[] = [];
  const terminators: number[] = [];
  for (let i = 0; i < file.length; i++) if (file[i] === 0x0a || file[i] === 0x0d) terminators.push(i);
  for (let k = 0; k < count; k++) {
    if (terminators.length > 0 && r.chance(0.6)) {
      out.push(Math.max(0, Math.min(file.length, r.pick(terminators) + r.below(3) - 1)));
    } else out.push(r.below(file.length + 1));
  }
  return out;
}

async function checkParallel(file: Buffer, r: Rng, label: string): Promise<void> {
  const options: ScanOptions = r.pick<ScanOptions>([{}, {}, { maxFindings: 2 }, { replay: false }]);
  const want = await runParallel(file, options, [], true);
  const single = await runParallel(file, options, []);
  const splitAt = splitTargets(r, file, 1 + r.below(4));
  const got = await runParallel(file, options, splitAt, false, { threads: 2 + r.below(2) });
  // Every way of sharing the chunks: this thread takes the first m, the workers the rest (m = 0: the workers take all).
  const mainChunks = r.below(splitAt.length + 2);
  const forced = await runParallel(file, options, splitAt, false, { threads: 2 + r.below(2), mainChunks });
  if (process.env.EQ_DUMP && (got !== want || single !== want || forced !== want)) {
    fs.writeFileSync(process.env.EQ_DUMP, file);
  }
  assert.equal(single, want, `${label} ${JSON.stringify(options)}: the one-thread scan differs from readLines + feed`);
  assert.equal(
    got,
    want,
    `${label} ${JSON.stringify(options)} chunks near ${splitAt.join(",")}: parallel scan differs from the sequential one`,
  );
  assert.equal(
    forced,
    want,
    `${label} ${JSON.stringify(options)} chunks near ${splitAt.join(",")}, ${mainChunks} in this thread: parallel scan differs from the sequential one`,
  );
}

describe("ledger scanner, parallel path (differential) @slow", function () {
  this.timeout(300_000);

  it("gives the sequential verdicts on the Python-written fixtures, split anywhere", async () => {
    const r = new Rng(0x9a7a);
    for (const name of ["python-small", "python-evidence"]) {
      const file = fs.readFileSync(
        path.join(__dirname, "../../../../test/fixtures", name, ".autodev/plan-ledger.jsonl"),
      );
      for (let k = 0; k < 3; k++) await checkParallel(file, r, name);
    }
    assert.ok(parallelScans >= 10, `only ${parallelScans} of 12 scans ran in parallel`);
  });

  it("gives the sequential verdicts on clean and mutated ledgers, CRLF/CR newlines and torn tails, split at and near line ends", async () => {
    const r = new Rng(0x5911);
    const before = parallelScans;
    for (let files = 0; files < 30; files++) {
      const lines = baseLedger(r);
      if (files % 4 !== 0) {
        for (let m = 1 + r.below(5); m > 0; m--) {
          const i = r.below(lines.length);
          lines[i] = mutateLine(r, lines[i]);
        }
        if (r.chance(0.6)) rechainAll(lines);
      }
      const file =
        files % 5 === 1
          ? Buffer.from(lines.join("\r\n"))
          : files % 5 === 2
            ? Buffer.from(lines.join("\r") + "\r")
            : assemble(r, lines);
      await checkParallel(file, r, `file #${files}`);
    }
    assert.ok(parallelScans - before >= 50, `only ${parallelScans - before} of 60 scans ran in parallel`);
  });

  it("gives the sequential verdicts on tiny and degenerate files", async () => {
    const r = new Rng(0x717e);
    const line = baseLedger(new Rng(3))[0];
    const files = [
      "",
      "\n",
      "\r",
      "\r\n",
      "\n\n\n",
      line,
      `${line}\n`,
      `${line}\r`,
      `${line}\r\n${line.slice(0, 40)}`,
      `\ufeff${line}\n`,
      `${line}\n\r\n\r${line}`,
    ];
    for (const text of files) {
      for (let k = 0; k < 2; k++) await checkParallel(Buffer.from(text), r, JSON.stringify(text.slice(0, 20)));
    }
  });
});
