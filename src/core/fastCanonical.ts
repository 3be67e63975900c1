/**
 * The fast path of ledger verification: one pass over a line's bytes that
 * proves the line is already in Python's canonical form — exactly what
 * `json.dumps(LedgerEntry.model_dump(mode="json"), sort_keys=True)` writes —
 * so its hash input is the raw line minus its `"self_hash": "…", ` member,
 * hashed without building any object.
 *
 * "Canonical" is checked conservatively; anything unusual returns null and the
 * scanner takes the full path (decode, strip, parse, validate, dump, hash),
 * which is always right. A line is accepted only when all of this holds:
 *
 * - printable ASCII only (`ensure_ascii` output), no surrounding whitespace;
 * - the top level is exactly `{"op": …, "payload": {…}, "prev_hash": "…",
 *   "self_hash": "…", "seq": <int>, "session_id": "…", "timestamp": "…"}` —
 *   every field present, in sorted order, with its exact type (no value
 *   pydantic would coerce, no missing `payload` that would default to `{}`);
 * - separators exactly `", "` and `": "`; keys strictly increasing by code
 *   point at every level (sorted, no duplicates);
 * - strings escaped as `encode_basestring_ascii` does: `\"`, `\\`, `\n`, `\r`,
 *   `\t`, `\b`, `\f`, and lowercase `\u00XX` only for what has no other form;
 *   no lone surrogate (pydantic's JSON-mode dump treats those specially);
 * - ints without leading zeros or `-0`, at most 4300 digits; floats whose text
 *   is Python's `repr` of their value; no NaN/Infinity (the JSON-mode dump
 *   turns those into `null`, so such a line re-serializes differently).
 *
 * For plan-carrying ops it can also prove, in the same pass, that
 * `payload.plan` is a valid Plan in its exact dumped form (every field present
 * with its exact type, as pydantic's `model_dump` writes it), and return just
 * the task ids and statuses — what strict replay needs — instead of the plan.
 */
import { createHash } from "node:crypto";
import {
  AcceptanceCriterion,
  AcceptanceCriterionSchema,
  LEDGER_OPS,
  LedgerEntry,
  LedgerEntrySchema,
  LedgerOp,
  Phase,
  PhaseSchema,
  Plan,
  PlanSchema,
  TASK_STATUSES,
  Task,
  TaskSchema,
} from "./schemas";
import { parsePyJson } from "./pyJsonParse";
import { pyFloatRepr } from "./pyFloatRepr";
import { comparePyStrings } from "./pyJsonDump";
import { PyFloat, PyObject, PyValue, pyInt } from "./pyValue";

/** What the fast path extracts from a canonical line. */
export interface FastLine {
  readonly seq: number | bigint;
  readonly prevHash: string;
  readonly selfHash: string;
  /** The hash Python would compute for this line. */
  readonly computedHash: string;
  readonly op: LedgerOp;
  readonly timestamp: string;
  readonly sessionId: string;
  /** `payload["task_id"]` when it is a string, else null. */
  readonly payloadTaskId: string | null;
  /** Byte range of `payload["plan"]` in the line; -1 when the payload has no `plan` key. */
  readonly planStart: number;
  readonly planEnd: number;
  /** True when `payload["plan"]` is `null`. */
  readonly planIsNull: boolean;
  /**
   * When asked for and `payload.plan` is provably a valid Plan in its exact
   * dumped form: its task ids and statuses, all strict replay needs. Null otherwise.
   */
  readonly skeleton: PlanSkeleton | null;
  /**
   * The LedgerEntry `validateLedgerEntry(parsePyJson(line))` would return,
   * built without the validator (the line is in exact form: nothing to
   * coerce). Parses only the payload. Only valid while the line's bytes are
   * unchanged, i.e. during the `feed` call that received them.
   */
  readonly entryLazy: () => LedgerEntry;
}

/** Nesting deeper than this is left to the full path (Python's limit is about 995). */
const MAX_DEPTH = 500;
/** Python's default `sys.get_int_max_str_digits()`. */
const MAX_INT_DIGITS = 4300;

/** Byte classes inside a string: 0 plain, 1 quote, 2 backslash, 3 not allowed raw. */
const STR_CLASS: Uint8Array = (() => {
  const t = new Uint8Array(256).fill(3);
  for (let c = 0x20; c < 0x7f; c++) t[c] = 0;
  t[0x22] = 1;
  t[0x5c] = 2;
  return t;
})();

/** Lowercase hex digit values (-1 otherwise: uppercase hex is not canonical). */
const HEX: Int8Array = (() => {
  const t = new Int8Array(256).fill(-1);
  for (let i = 0; i < 10; i++) t[0x30 + i] = i;
  for (let i = 0; i < 6; i++) t[0x61 + i] = 10 + i;
  return t;
})();

const bytesOf = (s: string): Uint8Array => Uint8Array.from(s, (ch) => ch.charCodeAt(0));

const L_OP = bytesOf('{"op": ');
const L_PAYLOAD = bytesOf(', "payload": ');
const L_PREV = bytesOf(', "prev_hash": ');
const L_SELF = bytesOf(', "self_hash": ');
const L_SEQ = bytesOf(', "seq": ');
const L_SESSION = bytesOf(', "session_id": ');
const L_TIMESTAMP = bytesOf(', "timestamp": ');
const K_TASK_ID = bytesOf('"task_id"');
const K_PLAN = bytesOf('"plan"');

const P_OPEN = bytesOf('{"content_hash": ');
const P_CREATED = bytesOf(', "created_at": ');
const P_METADATA = bytesOf(', "metadata": ');
const P_PHASES = bytesOf(', "phases": ');
const P_PLAN_ID = bytesOf(', "plan_id": ');
const P_SPEC = bytesOf(', "spec_hash": ');
const P_UPDATED = bytesOf(', "updated_at": ');

const PH_OPEN = bytesOf('{"description": ');
const PH_ID = bytesOf(', "id": ');
const PH_TASKS = bytesOf(', "tasks": ');
const PH_TITLE = bytesOf(', "title": ');

const T_OPEN = bytesOf('{"acceptance": ');
const T_AGENT = bytesOf(', "assigned_agent": ');
const T_BLOCKED = bytesOf(', "blocked_reason": ');
const T_DEPENDS = bytesOf(', "depends_on": ');
const T_DESCRIPTION = bytesOf(', "description": ');
const T_ESCALATED = bytesOf(', "escalated": ');
const T_EVIDENCE = bytesOf(', "evidence_bundle": ');
const T_FILES = bytesOf(', "files": ');
const T_ID = bytesOf(', "id": ');
const T_METADATA = bytesOf(', "metadata": ');
const T_PHASE_ID = bytesOf(', "phase_id": ');
const T_RETRY = bytesOf(', "retry_count": ');
const T_STATUS = bytesOf(', "status": ');
const T_TITLE = bytesOf(', "title": ');

const A_OPEN = bytesOf('{"description": ');
const A_ID = bytesOf(', "id": ');
const A_MET = bytesOf(', "met": ');

const OPS: readonly Uint8Array[] = LEDGER_OPS.map((s) => bytesOf(`"${s}"`));
const STATUSES: readonly Uint8Array[] = TASK_STATUSES.map((s) => bytesOf(`"${s}"`));
const PLAN_OP_SET: ReadonlySet<string> = new Set(["init_plan", "update_plan", "snapshot"]);

const EMPTY = Buffer.alloc(0);
type Latin1 = { latin1Slice(start: number, end: number): string };
/** Bytes [s, e) as a one-byte string (Buffer#latin1Slice, which Node's typings do not declare). */
const latin1 = (b: Buffer, s: number, e: number): string => (b as unknown as Latin1).latin1Slice(s, e);

// The line being scanned and per-call results, as module state (the scan is synchronous).
let B: Buffer = EMPTY;
let N = 0;
/** Whether the last string scanned had a backslash escape. */
let lastEscaped = false;
/** Whether the last number scanned was a float. */
let lastFloat = false;

/** Matches literal bytes `lit` at `i`; returns the index after them or -1. */
function lit(i: number, L: Uint8Array): number {
  const n = L.length;
  if (i < 0 || i + n > N) return -1;
  const b = B;
  for (let j = 0; j < n; j++) if (b[i + j] !== L[j]) return -1;
  return i + n;
}

/** Index of the literal among `list` found at `i` (each includes its quotes), or -1. */
function oneOf(i: number, list: readonly Uint8Array[]): number {
  for (let k = 0; k < list.length; k++) if (lit(i, list[k]) >= 0) return k;
  return -1;
}

function hex4(i: number): number {
  const b = B;
  const a = HEX[b[i]];
  const c = HEX[b[i + 1]];
  const d = HEX[b[i + 2]];
  const e = HEX[b[i + 3]];
  if ((a | c | d | e) < 0) return -1;
  return (a << 12) | (c << 8) | (d << 4) | e;
}

/** A canonical string starting at the quote at `i`; returns the index after its closing quote, or -1. */
function str(i: number): number {
  const b = B;
  const n = N;
  let escaped = false;
  i++;
  for (;;) {
    while (i < n && STR_CLASS[b[i]] === 0) i++;
    if (i >= n) return -1;
    const k = STR_CLASS[b[i]];
    if (k === 1) {
      lastEscaped = escaped;
      return i + 1;
    }
    if (k === 3) return -1;
    escaped = true;
    if (i + 1 >= n) return -1;
    const e = b[i + 1];
    if (e === 0x22 || e === 0x5c || e === 0x62 || e === 0x66 || e === 0x6e || e === 0x72 || e === 0x74) {
      i += 2;
      continue;
    }
    if (e !== 0x75 || i + 6 > n) return -1;
    const code = hex4(i + 2);
    if (code < 0) return -1;
    if (code < 0x20) {
      // \b \t \n \f \r have short forms.
      if (code === 0x08 || code === 0x09 || code === 0x0a || code === 0x0c || code === 0x0d) return -1;
    } else if (code < 0x7f) {
      return -1; // printable ASCII is written raw
    } else if (code >= 0xd800 && code <= 0xdfff) {
      // Only a high surrogate immediately followed by a low one (a non-BMP character).
      if (code >= 0xdc00 || i + 12 > n || b[i + 6] !== 0x5c || b[i + 7] !== 0x75) return -1;
      const low = hex4(i + 8);
      if (low < 0xdc00 || low > 0xdfff) return -1;
      i += 12;
      continue;
    }
    i += 6;
  }
}

/** A string value at `i` (quote check included). */
function strValue(i: number): number {
  return i >= 0 && B[i] === 0x22 ? str(i) : -1;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** A canonical number at `i`; sets `lastFloat`; returns the index after it or -1. */
function num(i: number): number {
  const b = B;
  const n = N;
  const start = i;
  let negative = false;
  if (b[i] === 0x2d) {
    negative = true;
    i++;
  }
  if (i >= n) return -1;
  const c = b[i];
  if (c === 0x30) {
    i++;
  } else if (c >= 0x31 && c <= 0x39) {
    i++;
    while (i < n && isDigit(b[i])) i++;
  } else {
    return -1;
  }
  const intDigits = i - start - (negative ? 1 : 0);
  let isFloat = false;
  if (i < n && b[i] === 0x2e) {
    i++;
    if (!(i < n && isDigit(b[i]))) return -1;
    while (i < n && isDigit(b[i])) i++;
    isFloat = true;
  }
  if (i < n && (b[i] === 0x65 || b[i] === 0x45)) {
    i++;
    if (i < n && (b[i] === 0x2b || b[i] === 0x2d)) i++;
    if (!(i < n && isDigit(b[i]))) return -1;
    while (i < n && isDigit(b[i])) i++;
    isFloat = true;
  }
  lastFloat = isFloat;
  if (!isFloat) {
    if (negative && intDigits === 1 && b[start + 1] === 0x30) return -1; // -0
    if (intDigits > MAX_INT_DIGITS) return -1;
    return i;
  }
  const text = latin1(B, start, i);
  const x = Number(text);
  if (!Number.isFinite(x) || pyFloatRepr(x) !== text) return -1;
  return i;
}

/** An int value at `i`. */
function intValue(i: number): number {
  if (i < 0) return -1;
  const c = B[i];
  if (c !== 0x2d && !isDigit(c)) return -1;
  const end = num(i);
  return end >= 0 && !lastFloat ? end : -1;
}

function boolValue(i: number): number {
  if (i < 0) return -1;
  const b = B;
  if (b[i] === 0x74) return b[i + 1] === 0x72 && b[i + 2] === 0x75 && b[i + 3] === 0x65 && i + 4 <= N ? i + 4 : -1;
  if (b[i] === 0x66) return b[i + 1] === 0x61 && b[i + 2] === 0x6c && b[i + 3] === 0x73 && b[i + 4] === 0x65 && i + 5 <= N ? i + 5 : -1;
  return -1;
}

function nullAt(i: number): boolean {
  const b = B;
  return b[i] === 0x6e && b[i + 1] === 0x75 && b[i + 2] === 0x6c && b[i + 3] === 0x6c && i + 4 <= N;
}

function strOrNull(i: number): number {
  if (i < 0) return -1;
  if (B[i] === 0x22) return str(i);
  return nullAt(i) ? i + 4 : -1;
}

/** Any canonical value at `i`; `depth` is the number of enclosing containers. */
function value(i: number, depth: number): number {
  switch (B[i]) {
    case 0x22:
      return str(i);
    case 0x7b:
      return obj(i, depth + 1);
    case 0x5b:
      return arr(i, depth + 1);
    case 0x74:
    case 0x66:
      return boolValue(i);
    case 0x6e:
      return nullAt(i) ? i + 4 : -1;
    case 0x2d:
    case 0x30: case 0x31: case 0x32: case 0x33: case 0x34:
    case 0x35: case 0x36: case 0x37: case 0x38: case 0x39:
      return num(i);
    default:
      return -1; // NaN, Infinity, -Infinity are not canonical in a payload
  }
}

/** The text of the canonical string literal [s, e) (quotes included). */
function decode(s: number, e: number, escaped: boolean): string {
  return escaped ? (JSON.parse(latin1(B, s, e)) as string) : latin1(B, s + 1, e - 1);
}

/** True when key [a, ae) sorts strictly before key [c, ce) by code point. */
function keyBefore(a: number, ae: number, aEsc: boolean, c: number, ce: number, cEsc: boolean): boolean {
  if (!aEsc && !cEsc) {
    const b = B;
    const la = ae - a - 2;
    const lc = ce - c - 2;
    const m = la < lc ? la : lc;
    for (let j = 1; j <= m; j++) {
      const x = b[a + j];
      const y = b[c + j];
      if (x !== y) return x < y;
    }
    return la < lc;
  }
  return comparePyStrings(decode(a, ae, aEsc), decode(c, ce, cEsc)) < 0;
}

/** A canonical object at `i` (its `{`); `depth` counts it. */
function obj(i: number, depth: number): number {
  if (depth > MAX_DEPTH) return -1;
  const b = B;
  i++;
  if (b[i] === 0x7d) return i + 1;
  let pk = -1;
  let pkEnd = -1;
  let pkEsc = false;
  for (;;) {
    if (b[i] !== 0x22) return -1;
    const ke = str(i);
    if (ke < 0) return -1;
    const kEsc = lastEscaped;
    if (pk >= 0 && !keyBefore(pk, pkEnd, pkEsc, i, ke, kEsc)) return -1;
    pk = i;
    pkEnd = ke;
    pkEsc = kEsc;
    if (b[ke] !== 0x3a || b[ke + 1] !== 0x20) return -1;
    i = value(ke + 2, depth);
    if (i < 0) return -1;
    const c = b[i];
    if (c === 0x7d) return i + 1;
    if (c !== 0x2c || b[i + 1] !== 0x20) return -1;
    i += 2;
  }
}

/** A canonical array at `i` (its `[`). */
function arr(i: number, depth: number): number {
  if (depth > MAX_DEPTH) return -1;
  const b = B;
  i++;
  if (b[i] === 0x5d) return i + 1;
  for (;;) {
    i = value(i, depth);
    if (i < 0) return -1;
    const c = b[i];
    if (c === 0x5d) return i + 1;
    if (c !== 0x2c || b[i + 1] !== 0x20) return -1;
    i += 2;
  }
}

/** An object value (`{…}`) at `i`. */
function objValue(i: number, depth: number): number {
  return i >= 0 && B[i] === 0x7b ? obj(i, depth + 1) : -1;
}

/** A list of strings at `i`. */
function strList(i: number): number {
  if (i < 0 || B[i] !== 0x5b) return -1;
  const b = B;
  i++;
  if (b[i] === 0x5d) return i + 1;
  for (;;) {
    i = strValue(i);
    if (i < 0) return -1;
    const c = b[i];
    if (c === 0x5d) return i + 1;
    if (c !== 0x2c || b[i + 1] !== 0x20) return -1;
    i += 2;
  }
}

// ------------------------------------------------------------ exact Plan form

/** What strict replay needs of a plan: its task ids and statuses, in phase-major order. */
export interface PlanSkeleton {
  /** Task ids in phase-major order (shared between skeletons of plans with the same tasks). */
  readonly ids: readonly string[];
  /** Position of the first task with each id (shared likewise). */
  readonly positions: ReadonlyMap<string, number>;
  /** Each task's status, as an index into TASK_STATUSES. */
  readonly statuses: Uint8Array;
  /**
   * Byte ranges of the metadata dicts, relative to the plan's first byte: the
   * plan's, then each task's (start, end pairs), for {@link exactPlanFromCanonical}.
   */
  readonly metadataRanges: Int32Array;
}

/**
 * The byte layout of a plan proven exact: its bytes, and where each phase and
 * task lies in them. A phase or task of a later plan whose bytes are identical
 * to one of these is proven by that alone (an exact Phase or Task is a
 * self-contained value), so consecutive snapshots — which differ in a task or
 * two — cost a memcmp per phase instead of a scan.
 */
class PlanLayout {
  bytes: Buffer = Buffer.alloc(0);
  phaseStart: number[] = [];
  phaseEnd: number[] = [];
  phaseFirstTask: number[] = [];
  phaseTaskCount: number[] = [];
  taskStart: number[] = [];
  taskEnd: number[] = [];
  taskId: string[] = [];
  taskStatus: number[] = [];
  metaStart: number[] = [];
  metaEnd: number[] = [];
  planMetaStart = 0;
  planMetaEnd = 0;

  clear(): void {
    this.metaStart.length = 0;
    this.metaEnd.length = 0;
    this.phaseStart.length = 0;
    this.phaseEnd.length = 0;
    this.phaseFirstTask.length = 0;
    this.phaseTaskCount.length = 0;
    this.taskStart.length = 0;
    this.taskEnd.length = 0;
    this.taskId.length = 0;
    this.taskStatus.length = 0;
  }
}

/** The last plan proven exact (offsets relative to its start). */
let template = new PlanLayout();
/** The layout of the plan being scanned. */
let layout = new PlanLayout();
/** Offset of the plan being scanned in the line. */
let planBase = 0;
/** The ids (and first positions) of the last skeleton handed out, reused while the tasks stay the same. */
let sharedIds: readonly string[] = [];
let sharedPositions: ReadonlyMap<string, number> = new Map();

/** True when B[i, i + (e - s)) equals template bytes [s, e). */
function sameAsTemplate(i: number, s: number, e: number): boolean {
  return i + (e - s) <= N && B.compare(template.bytes, s, e, i, i + (e - s)) === 0;
}

/** An AcceptanceCriterion in exact form at `i`. */
function criterion(i: number): number {
  i = strValue(lit(i, A_OPEN));
  i = strValue(lit(i, A_ID));
  i = boolValue(lit(i, A_MET));
  return i >= 0 && B[i] === 0x7d ? i + 1 : -1;
}

function recordTask(s: number, e: number, id: string, status: number, ms: number, me: number): void {
  layout.taskStart.push(s - planBase);
  layout.taskEnd.push(e - planBase);
  layout.taskId.push(id);
  layout.taskStatus.push(status);
  layout.metaStart.push(ms - planBase);
  layout.metaEnd.push(me - planBase);
}

/** A Task in exact form at `i` (depth 7 in the line). `t`: the template task at the same place, or -1. */
function task(i: number, t: number): number {
  if (t >= 0 && sameAsTemplate(i, template.taskStart[t], template.taskEnd[t])) {
    const end = i + (template.taskEnd[t] - template.taskStart[t]);
    const shift = i - planBase - template.taskStart[t];
    recordTask(i, end, template.taskId[t], template.taskStatus[t], template.metaStart[t] + shift + planBase, template.metaEnd[t] + shift + planBase);
    return end;
  }
  const start = i;
  i = lit(i, T_OPEN);
  if (i < 0 || B[i] !== 0x5b) return -1;
  i++;
  if (B[i] === 0x5d) i++;
  else {
    for (;;) {
      i = criterion(i);
      if (i < 0) return -1;
      const c = B[i];
      if (c === 0x5d) {
        i++;
        break;
      }
      if (c !== 0x2c || B[i + 1] !== 0x20) return -1;
      i += 2;
    }
  }
  i = strOrNull(lit(i, T_AGENT));
  i = strOrNull(lit(i, T_BLOCKED));
  i = strList(lit(i, T_DEPENDS));
  i = strValue(lit(i, T_DESCRIPTION));
  i = boolValue(lit(i, T_ESCALATED));
  i = strOrNull(lit(i, T_EVIDENCE));
  i = strList(lit(i, T_FILES));
  const idStart = lit(i, T_ID);
  i = strValue(idStart);
  if (i < 0) return -1;
  const id = decode(idStart, i, lastEscaped);
  const metaStart = lit(i, T_METADATA);
  i = objValue(metaStart, 7);
  const metaEnd = i;
  i = strValue(lit(i, T_PHASE_ID));
  i = intValue(lit(i, T_RETRY));
  const statusStart = lit(i, T_STATUS);
  if (statusStart < 0) return -1;
  const k = oneOf(statusStart, STATUSES);
  if (k < 0) return -1;
  i = strValue(lit(statusStart + STATUSES[k].length, T_TITLE));
  if (i < 0 || B[i] !== 0x7d) return -1;
  recordTask(start, i + 1, id, k, metaStart, metaEnd);
  return i + 1;
}

/** A Phase in exact form at `i` (the `q`-th of the plan). */
function phase(i: number, q: number): number {
  const tplHas = q < template.phaseStart.length;
  const first = layout.taskStart.length;
  if (tplHas && sameAsTemplate(i, template.phaseStart[q], template.phaseEnd[q])) {
    const shift = i - planBase - template.phaseStart[q];
    const from = template.phaseFirstTask[q];
    const to = from + template.phaseTaskCount[q];
    for (let t = from; t < to; t++) {
      layout.taskStart.push(template.taskStart[t] + shift);
      layout.taskEnd.push(template.taskEnd[t] + shift);
      layout.taskId.push(template.taskId[t]);
      layout.taskStatus.push(template.taskStatus[t]);
      layout.metaStart.push(template.metaStart[t] + shift);
      layout.metaEnd.push(template.metaEnd[t] + shift);
    }
    const end = i + (template.phaseEnd[q] - template.phaseStart[q]);
    layout.phaseStart.push(i - planBase);
    layout.phaseEnd.push(end - planBase);
    layout.phaseFirstTask.push(first);
    layout.phaseTaskCount.push(to - from);
    return end;
  }
  const start = i;
  i = strValue(lit(i, PH_OPEN));
  i = strValue(lit(i, PH_ID));
  i = lit(i, PH_TASKS);
  if (i < 0 || B[i] !== 0x5b) return -1;
  const tplFirst = tplHas ? template.phaseFirstTask[q] : 0;
  const tplCount = tplHas ? template.phaseTaskCount[q] : 0;
  i++;
  if (B[i] === 0x5d) i++;
  else {
    for (let k = 0; ; k++) {
      i = task(i, k < tplCount ? tplFirst + k : -1);
      if (i < 0) return -1;
      const c = B[i];
      if (c === 0x5d) {
        i++;
        break;
      }
      if (c !== 0x2c || B[i + 1] !== 0x20) return -1;
      i += 2;
    }
  }
  i = strValue(lit(i, PH_TITLE));
  if (i < 0 || B[i] !== 0x7d) return -1;
  layout.phaseStart.push(start - planBase);
  layout.phaseEnd.push(i + 1 - planBase);
  layout.phaseFirstTask.push(first);
  layout.phaseTaskCount.push(layout.taskStart.length - first);
  return i + 1;
}

/**
 * A Plan in exact dumped form at `i` (depth 3 in the line); on success makes
 * this plan the template for the next one; -1 otherwise.
 */
function exactPlan(i: number): number {
  planBase = i;
  layout.clear();
  const start = i;
  i = strValue(lit(i, P_OPEN));
  i = strValue(lit(i, P_CREATED));
  const metaStart = lit(i, P_METADATA);
  i = objValue(metaStart, 3);
  layout.planMetaStart = metaStart - planBase;
  layout.planMetaEnd = i - planBase;
  i = lit(i, P_PHASES);
  if (i < 0 || B[i] !== 0x5b) return -1;
  i++;
  if (B[i] === 0x5d) i++;
  else {
    for (let q = 0; ; q++) {
      i = phase(i, q);
      if (i < 0) return -1;
      const c = B[i];
      if (c === 0x5d) {
        i++;
        break;
      }
      if (c !== 0x2c || B[i + 1] !== 0x20) return -1;
      i += 2;
    }
  }
  i = strValue(lit(i, P_PLAN_ID));
  i = strValue(lit(i, P_SPEC));
  i = strValue(lit(i, P_UPDATED));
  if (i < 0 || B[i] !== 0x7d) return -1;
  i++;
  const len = i - start;
  if (layout.bytes.length < len) layout.bytes = Buffer.allocUnsafe(Math.max(len, 2 * layout.bytes.length));
  B.copy(layout.bytes, 0, start, i);
  const proven = layout;
  layout = template;
  template = proven;
  return i;
}

/** The skeleton of the plan just proven (the template). */
function skeletonOfTemplate(): PlanSkeleton {
  const ids = template.taskId;
  let same = ids.length === sharedIds.length;
  for (let k = 0; same && k < ids.length; k++) same = ids[k] === sharedIds[k];
  if (!same) {
    sharedIds = ids.slice();
    const positions = new Map<string, number>();
    for (let k = 0; k < ids.length; k++) if (!positions.has(ids[k])) positions.set(ids[k], k);
    sharedPositions = positions;
  }
  const n = ids.length;
  const ranges = new Int32Array(2 + 2 * n);
  ranges[0] = template.planMetaStart;
  ranges[1] = template.planMetaEnd;
  for (let k = 0; k < n; k++) {
    ranges[2 + 2 * k] = template.metaStart[k];
    ranges[3 + 2 * k] = template.metaEnd[k];
  }
  return { ids: sharedIds, positions: sharedPositions, statuses: Uint8Array.from(template.taskStatus), metadataRanges: ranges };
}

// ------------------------------------------------------------ the line

let payloadTaskId: string | null = null;
let planStart = -1;
let planEnd = -1;
let planIsNull = false;
let skeleton: PlanSkeleton | null = null;

/** The payload object at `i` (depth 2), noting `task_id` and `plan`. */
function payload(i: number, isPlanOp: boolean, wantPlan: boolean): number {
  const b = B;
  if (b[i] !== 0x7b) return -1;
  i++;
  if (b[i] === 0x7d) return i + 1;
  let pk = -1;
  let pkEnd = -1;
  let pkEsc = false;
  for (;;) {
    if (b[i] !== 0x22) return -1;
    const ks = i;
    const ke = str(i);
    if (ke < 0) return -1;
    const kEsc = lastEscaped;
    if (pk >= 0 && !keyBefore(pk, pkEnd, pkEsc, ks, ke, kEsc)) return -1;
    pk = ks;
    pkEnd = ke;
    pkEsc = kEsc;
    if (b[ke] !== 0x3a || b[ke + 1] !== 0x20) return -1;
    const v = ke + 2;
    i = -1;
    if (ke - ks === K_PLAN.length && lit(ks, K_PLAN) === ke) {
      planStart = v;
      planIsNull = nullAt(v);
      if (isPlanOp && b[v] === 0x7b) {
        i = exactPlan(v);
        skeleton = i >= 0 && wantPlan ? skeletonOfTemplate() : null;
      }
      if (i < 0) i = value(v, 2);
      planEnd = i;
    } else {
      i = value(v, 2);
      if (i >= 0 && b[v] === 0x22 && ke - ks === K_TASK_ID.length && lit(ks, K_TASK_ID) === ke) {
        payloadTaskId = decode(v, i, lastEscaped);
      }
    }
    if (i < 0) return -1;
    const c = b[i];
    if (c === 0x7d) return i + 1;
    if (c !== 0x2c || b[i + 1] !== 0x20) return -1;
    i += 2;
  }
}

/**
 * Returns the line's facts when it is provably canonical, else null.
 * `wantPlan`: also prove `payload.plan` of plan ops a valid Plan and return its skeleton.
 */
export function fastCanonicalLine(bytes: Buffer, wantPlan = false): FastLine | null {
  const n = bytes.length;
  // The shortest canonical entry is 112 bytes.
  if (!FAST_PATHS_MATCH_SCHEMAS || n < 100 || bytes[0] !== 0x7b || bytes[n - 1] !== 0x7d) return null;
  B = bytes;
  N = n;
  payloadTaskId = null;
  planStart = -1;
  planEnd = -1;
  planIsNull = false;
  skeleton = null;
  try {
    return scanLine(bytes, wantPlan);
  } finally {
    B = EMPTY;
    N = 0;
  }
}

function scanLine(bytes: Buffer, wantPlan: boolean): FastLine | null {
  let i = lit(0, L_OP);
  if (i < 0) return null;
  const k = oneOf(i, OPS);
  if (k < 0) return null;
  const op = LEDGER_OPS[k];
  const isPlanOp = PLAN_OP_SET.has(op);
  i = lit(i + OPS[k].length, L_PAYLOAD);
  if (i < 0) return null;
  const payloadStart = i;
  i = payload(i, isPlanOp, wantPlan);
  const payloadEnd = i;
  const prevStart = lit(i, L_PREV);
  i = strValue(prevStart);
  if (i < 0) return null;
  const prevHash = decode(prevStart, i, lastEscaped);
  const cut1 = i + 2; // start of `"self_hash"`
  const selfStart = lit(i, L_SELF);
  i = strValue(selfStart);
  if (i < 0) return null;
  const selfHash = decode(selfStart, i, lastEscaped);
  const cut2 = i + 2; // start of `"seq"`
  const seqStart = lit(i, L_SEQ);
  i = intValue(seqStart);
  if (i < 0) return null;
  const seq = intOf(seqStart, i);
  const sessionStart = lit(i, L_SESSION);
  i = strValue(sessionStart);
  if (i < 0) return null;
  const sessionId = decode(sessionStart, i, lastEscaped);
  const tsStart = lit(i, L_TIMESTAMP);
  i = strValue(tsStart);
  if (i < 0 || i !== N - 1) return null;
  const timestamp = decode(tsStart, i, lastEscaped);

  const h = createHash("sha256");
  h.update(bytes.subarray(0, cut1));
  h.update(bytes.subarray(cut2));
  const computedHash = h.digest("hex").slice(0, 16);

  let cached: LedgerEntry | null = null;
  const entryLazy = (): LedgerEntry => {
    if (cached) return cached;
    // What `validateLedgerEntry(parsePyJson(line))` returns for a line in exact form: its fields in
    // model order, the payload a fresh dict (`dict[str, Any]` copies), no coercion anywhere.
    const payload = parsePyJson(latin1(bytes, payloadStart, payloadEnd)) as PyObject;
    cached = { seq, timestamp, session_id: sessionId, op, payload, prev_hash: prevHash, self_hash: selfHash };
    return cached;
  };
  const planSkeleton = skeleton;
  return {
    seq,
    prevHash,
    selfHash,
    computedHash,
    op,
    timestamp,
    sessionId,
    payloadTaskId,
    planStart,
    planEnd,
    planIsNull,
    skeleton: planSkeleton,
    entryLazy,
  };
}

/** The value of the canonical int [s, e), as `parsePyJson` gives it. */
function intOf(s: number, e: number): number | bigint {
  const b = B;
  const negative = b[s] === 0x2d;
  const digits = e - s - (negative ? 1 : 0);
  if (digits <= 15) {
    let v = 0;
    for (let i = negative ? s + 1 : s; i < e; i++) v = v * 10 + (b[i] - 0x30);
    return negative ? 0 - v : v;
  }
  return pyInt(BigInt(latin1(B, s, e)));
}

// ------------------------------------------------------------ exact plans as values

const PLAN_FIELDS = ["plan_id", "spec_hash", "phases", "metadata", "created_at", "updated_at", "content_hash"];
const PHASE_FIELDS = ["id", "title", "description", "tasks"];
const TASK_FIELDS = [
  "id", "phase_id", "title", "description", "status", "files", "acceptance", "depends_on",
  "retry_count", "escalated", "assigned_agent", "evidence_bundle", "blocked_reason", "metadata",
];
const CRITERION_FIELDS = ["id", "description", "met"];
const ENTRY_FIELDS = ["seq", "timestamp", "session_id", "op", "payload", "prev_hash", "self_hash"];
const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * The fast paths hard-code the models' fields (design §3.3). Should the
 * schemas change, they switch themselves off (everything takes the full path)
 * rather than disagree with it.
 */
export const FAST_PATHS_MATCH_SCHEMAS =
  sameList(PlanSchema.fieldNames, PLAN_FIELDS) &&
  sameList(PhaseSchema.fieldNames, PHASE_FIELDS) &&
  sameList(TaskSchema.fieldNames, TASK_FIELDS) &&
  sameList(AcceptanceCriterionSchema.fieldNames, CRITERION_FIELDS) &&
  sameList(LedgerEntrySchema.fieldNames, ENTRY_FIELDS);

const STATUS_SET: ReadonlySet<unknown> = new Set(TASK_STATUSES);
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

let trustedStrings = false;
const isStr = (v: PyValue | undefined): v is string => typeof v === "string" && (trustedStrings || !LONE_SURROGATE.test(v));
const isInt = (v: PyValue | undefined): v is number | bigint => typeof v === "bigint" || (typeof v === "number" && Number.isInteger(v));
const isStrOrNull = (v: PyValue | undefined): v is string | null => v === null || isStr(v);

function strArray(v: PyValue | undefined): string[] | null {
  if (!Array.isArray(v)) return null;
  const out: string[] = [];
  for (const x of v) {
    if (!isStr(x)) return null;
    out.push(x);
  }
  return out;
}

function exactCriterion(v: PyValue): AcceptanceCriterion | null {
  if (!(v instanceof Map) || v.size !== 3) return null;
  const id = v.get("id");
  const description = v.get("description");
  const met = v.get("met");
  if (!isStr(id) || !isStr(description) || typeof met !== "boolean") return null;
  return { id, description, met };
}

function exactTask(v: PyValue): Task | null {
  if (!(v instanceof Map) || v.size !== 14) return null;
  const id = v.get("id");
  const phase_id = v.get("phase_id");
  const title = v.get("title");
  const description = v.get("description");
  const status = v.get("status");
  const files = strArray(v.get("files"));
  const acceptanceIn = v.get("acceptance");
  const depends_on = strArray(v.get("depends_on"));
  const retry_count = v.get("retry_count");
  const escalated = v.get("escalated");
  const assigned_agent = v.get("assigned_agent");
  const evidence_bundle = v.get("evidence_bundle");
  const blocked_reason = v.get("blocked_reason");
  const metadata = v.get("metadata");
  if (!isStr(id) || !isStr(phase_id) || !isStr(title) || !isStr(description) || !STATUS_SET.has(status)) return null;
  if (files === null || depends_on === null || !Array.isArray(acceptanceIn) || !isInt(retry_count) || typeof escalated !== "boolean") return null;
  if (!isStrOrNull(assigned_agent) || !isStrOrNull(evidence_bundle) || !isStrOrNull(blocked_reason) || !(metadata instanceof Map)) return null;
  const acceptance: AcceptanceCriterion[] = [];
  for (const a of acceptanceIn) {
    const c = exactCriterion(a);
    if (c === null) return null;
    acceptance.push(c);
  }
  return {
    id, phase_id, title, description, status: status as Task["status"], files, acceptance, depends_on,
    retry_count, escalated, assigned_agent, evidence_bundle, blocked_reason, metadata: new Map(metadata),
  };
}

function exactPhase(v: PyValue): Phase | null {
  if (!(v instanceof Map) || v.size !== 4) return null;
  const id = v.get("id");
  const title = v.get("title");
  const description = v.get("description");
  const tasksIn = v.get("tasks");
  if (!isStr(id) || !isStr(title) || !isStr(description) || !Array.isArray(tasksIn)) return null;
  const tasks: Task[] = [];
  for (const t of tasksIn) {
    const task = exactTask(t);
    if (task === null) return null;
    tasks.push(task);
  }
  return { id, title, description, tasks };
}

/**
 * `validatePlan(v)`'s model, without the general validator, when `v` is a
 * Plan in exact form — every field present with its exact type (nothing to
 * coerce or default), no extra key, no lone surrogate; null otherwise (then
 * call `validatePlan`). `trusted`: the strings are known to hold no lone
 * surrogate (they come from bytes the fast path proved).
 */
export function exactPlanModel(v: PyValue, trusted = false): Plan | null {
  if (!FAST_PATHS_MATCH_SCHEMAS || !(v instanceof Map) || v.size !== 7) return null;
  trustedStrings = trusted;
  try {
    const plan_id = v.get("plan_id");
    const spec_hash = v.get("spec_hash");
    const phasesIn = v.get("phases");
    const metadata = v.get("metadata");
    const created_at = v.get("created_at");
    const updated_at = v.get("updated_at");
    const content_hash = v.get("content_hash");
    if (!isStr(plan_id) || !isStr(spec_hash) || !Array.isArray(phasesIn) || !(metadata instanceof Map)) return null;
    if (!isStr(created_at) || !isStr(updated_at) || !isStr(content_hash)) return null;
    const phases: Phase[] = [];
    for (const p of phasesIn) {
      const phase = exactPhase(p);
      if (phase === null) return null;
      phases.push(phase);
    }
    return { plan_id, spec_hash, phases, metadata: new Map(metadata), created_at, updated_at, content_hash };
  } finally {
    trustedStrings = false;
  }
}

// ------------------------------------------------------------ exact plans from canonical bytes

type Json = { [k: string]: never };

/**
 * The Plan model of a payload.plan the fast path proved exact (`text`: its
 * canonical bytes as a string, `skeleton`: what the fast path returned for
 * it), built with the native JSON parser: the structure is known to be
 * exactly the model's, so only the metadata dicts (whose int/float
 * distinction, key order and big ints need the Python-exact parser) are
 * parsed by `parsePyJson`. Null when a retry_count is too big for a double
 * (then use `parsePyJson` + `exactPlanModel`).
 */
export function exactPlanFromCanonical(text: string, skeleton: PlanSkeleton): Plan | null {
  if (!FAST_PATHS_MATCH_SCHEMAS) return null;
  const ranges = skeleton.metadataRanges;
  // Tasks often share their metadata text: parse each text once, and copy it
  // when its values are immutable (a nested dict or list is parsed afresh).
  const flat = new Map<string, PyObject>();
  const dict = (k: number): PyObject => {
    const s = ranges[k];
    const e = ranges[k + 1];
    if (e - s === 2) return new Map();
    const src = text.slice(s, e);
    const known = flat.get(src);
    if (known !== undefined) return new Map(known);
    const parsed = parsePyJson(src) as PyObject;
    let immutable = true;
    for (const v of parsed.values()) if (v !== null && typeof v === "object" && !(v instanceof PyFloat)) immutable = false;
    if (immutable) flat.set(src, parsed);
    return new Map(parsed);
  };
  const raw = JSON.parse(text) as Json;
  const phasesIn = raw.phases as unknown as Json[];
  const phases: Phase[] = [];
  let position = 0;
  for (const ph of phasesIn) {
    const tasksIn = ph.tasks as unknown as Json[];
    const tasks: Task[] = [];
    for (const t of tasksIn) {
      const retry = t.retry_count as unknown as number;
      if (!Number.isSafeInteger(retry) || retry >= 1e15 || retry <= -1e15) return null;
      const acceptance = (t.acceptance as unknown as Json[]).map((a): AcceptanceCriterion => ({ id: a.id, description: a.description, met: a.met }));
      tasks.push({
        id: t.id, phase_id: t.phase_id, title: t.title, description: t.description, status: t.status, files: t.files, acceptance,
        depends_on: t.depends_on, retry_count: retry === 0 ? 0 : retry, escalated: t.escalated, assigned_agent: t.assigned_agent,
        evidence_bundle: t.evidence_bundle, blocked_reason: t.blocked_reason, metadata: dict(2 + 2 * position),
      });
      position++;
    }
    phases.push({ id: ph.id, title: ph.title, description: ph.description, tasks });
  }
  if (position !== skeleton.ids.length) return null;
  return {
    plan_id: raw.plan_id, spec_hash: raw.spec_hash, phases, metadata: dict(0),
    created_at: raw.created_at, updated_at: raw.updated_at, content_hash: raw.content_hash,
  };
}

/**
 * The plan carried by one ledger line, as `validatePlan(payload.plan)` would
 * return it, when the line is canonical and its plan exact; null otherwise
 * (then parse and validate as usual). For a first paint from the tail
 * snapshot without the general parser and validator.
 */
export function planOfCanonicalLine(bytes: Buffer): Plan | null {
  const f = fastCanonicalLine(bytes, true);
  if (f === null || f.skeleton === null) return null;
  const text = latin1(bytes, f.planStart, f.planEnd);
  return exactPlanFromCanonical(text, f.skeleton) ?? exactPlanModel(parsePyJson(text), true);
}
