/**
 * The canonical-line proof of the ledger fast path (see fastCanonical.ts for
 * what it proves), free of the schemas' zod code so the verification threads
 * load only this: one pass over a line's bytes that proves it is exactly what
 * Python's `json.dumps(entry, sort_keys=True)` writes, and its hash.
 */
import { LEDGER_OPS, TASK_STATUSES } from "../plan/planConstants";
import type { LedgerEntry, LedgerOp } from "../plan/schemas";
import { pyInt } from "../../../pyjson/pyValue";
import { canonicalPayload } from "./canonicalPayload";
import {
  bytesOf,
  endScan,
  lastEscaped,
  latin1,
  lineBytes,
  lineLength,
  lit,
  startScan,
  str,
  strValue,
} from "./canonicalScanner";
import { decode, decodeKnown, intValue, keyBefore, nullAt, value } from "./canonicalValues";
import { PlanSkeleton } from "./canonicalPlanLayout";
import { hashWithoutSelf } from "./canonicalLineHash";
import { exactPlan, skeletonOfTemplate } from "./canonicalPlanProof";

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
  /** `payload["status"]` when it is a string, else null. */
  readonly payloadStatus: string | null;
  /** `payload["path"]` when it is a string, else null. */
  readonly payloadPath: string | null;
  /**
   * True when no payload member other than `task_id`, `status`, `path` and
   * `plan` is one replay reads (`blocked_reason`, `retry_count`, `escalated`,
   * `evidence_bundle`, `reason`): then those three facts are all replay needs
   * of a status change or an evidence entry (see scannerFastReplay.ts).
   */
  readonly payloadPlain: boolean;
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
  /** Byte range of the payload object in the line. */
  readonly payloadStart: number;
  readonly payloadEnd: number;
  /**
   * The LedgerEntry `validateLedgerEntry(parsePyJson(line))` would return,
   * built without the validator (the line is in exact form: nothing to
   * coerce). Parses only the payload. Only valid while the line's bytes are
   * unchanged, i.e. during the `feed` call that received them.
   */
  readonly entryLazy: () => LedgerEntry;
  /**
   * {@link entryLazy}'s entry with only the payload members named in `keys`
   * (what replay reads): the other members are not decoded. Not kept; the
   * same lifetime rule.
   */
  readonly entryWith: (keys: ReadonlySet<string>) => LedgerEntry;
}

const L_OP = bytesOf('{"op": ');
const L_PAYLOAD = bytesOf(', "payload": ');
const L_PREV = bytesOf(', "prev_hash": ');
const L_SELF = bytesOf(', "self_hash": ');
const L_SEQ = bytesOf(', "seq": ');
const L_SESSION = bytesOf(', "session_id": ');
const L_TIMESTAMP = bytesOf(', "timestamp": ');
const K_TASK_ID = bytesOf('"task_id"');
const K_PLAN = bytesOf('"plan"');
const K_STATUS = bytesOf('"status"');
const K_PATH = bytesOf('"path"');
/** The other payload keys replay reads (canonical keys are spelled without escapes, so bytes decide). */
const K_REPLAYED: readonly Uint8Array[] = [
  "blocked_reason",
  "retry_count",
  "escalated",
  "evidence_bundle",
  "reason",
].map((k) => bytesOf(`"${k}"`));
/** Task statuses as literals (a `status` value that spells one is that constant: no new string). */
const STATUS_LITERALS: readonly Uint8Array[] = TASK_STATUSES.map((s) => bytesOf(`"${s}"`));

const OPS: readonly Uint8Array[] = LEDGER_OPS.map((s) => bytesOf(`"${s}"`));
/** Index + 1 into OPS by a literal's length (< 32) and second letter (0: no op); at most one op per pair. */
const OP_BY_SHAPE: Uint8Array = (() => {
  const t = new Uint8Array(33 * 128);
  OPS.forEach((o, k) => {
    const at = o.length * 128 + o[2];
    if (o.length >= 32 || o[2] >= 128 || t[at] !== 0) throw new Error("internal error: op literals clash");
    t[at] = k + 1;
  });
  return t;
})();
const PLAN_OP_SET: ReadonlySet<string> = new Set(["init_plan", "update_plan", "snapshot"]);

let payloadTaskId: string | null = null;
let payloadStatus: string | null = null;
let payloadPath: string | null = null;
let payloadPlain = true;
let planStart = -1;
let planEnd = -1;
let planIsNull = false;
let skeleton: PlanSkeleton | null = null;
// The last proven line's strings, handed out again when the next line spells them the same.
let lastSelfHash: string | null = null;
let lastSessionId: string | null = null;
let lastTaskId: string | null = null;

/** The payload object at `i` (depth 2), noting `task_id` and `plan`. */
function payload(i: number, isPlanOp: boolean, wantPlan: boolean): number {
  const b = lineBytes;
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
      if (i >= 0) member(ks, ke, v, i);
    }
    if (i < 0) return -1;
    const c = b[i];
    if (c === 0x7d) return i + 1;
    if (c !== 0x2c || b[i + 1] !== 0x20) return -1;
    i += 2;
  }
}

/** Index in OPS of the op literal at `i` (its quote), or -1. */
function opAt(i: number): number {
  const b = lineBytes;
  let e = i + 1;
  while (e < lineLength && e - i < 31 && b[e] !== 0x22) e++;
  const k = OP_BY_SHAPE[(e + 1 - i) * 128 + (b[i + 2] & 0x7f)] - 1;
  return k >= 0 && lit(i, OPS[k]) === e + 1 ? k : -1;
}

/** Notes the payload member with key [ks, ke) and value [v, e) when replay reads it. */
function member(ks: number, ke: number, v: number, e: number): void {
  const kl = ke - ks;
  const isStr = lineBytes[v] === 0x22;
  if (kl === K_TASK_ID.length && lit(ks, K_TASK_ID) === ke) {
    if (isStr) payloadTaskId = lastTaskId = decodeKnown(lastTaskId, v, e, lastEscaped);
  } else if (kl === K_STATUS.length && lit(ks, K_STATUS) === ke) {
    if (isStr) payloadStatus = statusText(v, e);
  } else if (kl === K_PATH.length && lit(ks, K_PATH) === ke) {
    if (isStr) payloadPath = decode(v, e, lastEscaped);
  } else if (payloadPlain) {
    for (const k of K_REPLAYED) if (kl === k.length && lit(ks, k) === ke) payloadPlain = false;
  }
}

/** The string literal [s, e) (a status): the TASK_STATUSES constant it spells, else its text. */
function statusText(s: number, e: number): string {
  if (!lastEscaped) {
    for (let k = 0; k < STATUS_LITERALS.length; k++) {
      if (STATUS_LITERALS[k].length === e - s && lit(s, STATUS_LITERALS[k]) === e) return TASK_STATUSES[k];
    }
  }
  return decode(s, e, lastEscaped);
}

/**
 * Returns the line's facts when it is provably canonical, else null.
 * `wantPlan`: also prove `payload.plan` of plan ops a valid Plan and return its skeleton.
 * Callers go through `fastCanonicalLine`, which first checks that the
 * hard-coded model fields still match the schemas.
 */
export function provenCanonicalLine(bytes: Buffer, wantPlan = false): FastLine | null {
  const n = bytes.length;
  // The shortest canonical entry is 112 bytes.
  if (n < 100 || bytes[0] !== 0x7b || bytes[n - 1] !== 0x7d) return null;
  startScan(bytes);
  payloadTaskId = null;
  payloadStatus = null;
  payloadPath = null;
  payloadPlain = true;
  planStart = -1;
  planEnd = -1;
  planIsNull = false;
  skeleton = null;
  try {
    return scanLine(bytes, wantPlan);
  } finally {
    endScan();
  }
}

function scanLine(bytes: Buffer, wantPlan: boolean): FastLine | null {
  let i = lit(0, L_OP);
  if (i < 0) return null;
  const k = opAt(i);
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
  const prevHash = decodeKnown(lastSelfHash, prevStart, i, lastEscaped);
  const cut1 = i + 2; // start of `"self_hash"`
  const selfStart = lit(i, L_SELF);
  i = strValue(selfStart);
  if (i < 0) return null;
  const cut2 = i + 2; // start of `"seq"`
  const computedHash = hashWithoutSelf(bytes, cut1, cut2);
  // Mostly the stored hash is the computed one: then it is that string (no new one).
  const selfHash = decodeKnown(computedHash, selfStart, i, lastEscaped);
  lastSelfHash = selfHash;
  const seqStart = lit(i, L_SEQ);
  i = intValue(seqStart);
  if (i < 0) return null;
  const seq = intOf(seqStart, i);
  const sessionStart = lit(i, L_SESSION);
  i = strValue(sessionStart);
  if (i < 0) return null;
  const sessionId = (lastSessionId = decodeKnown(lastSessionId, sessionStart, i, lastEscaped));
  const tsStart = lit(i, L_TIMESTAMP);
  i = strValue(tsStart);
  if (i < 0 || i !== lineLength - 1) return null;
  const timestamp = decode(tsStart, i, lastEscaped);

  return new ProvenLine(
    bytes,
    seq,
    prevHash,
    selfHash,
    computedHash,
    op,
    timestamp,
    sessionId,
    payloadTaskId,
    payloadStatus,
    payloadPath,
    payloadPlain,
    planStart,
    planEnd,
    planIsNull,
    skeleton,
    payloadStart,
    payloadEnd,
  );
}

/** A FastLine's facts without its `entryLazy` (what a worker thread hands back). */
export type FastFacts = Omit<FastLine, "entryLazy" | "entryWith">;

/**
 * The FastLine of `facts` proven on `bytes` (possibly in another thread): adds
 * `entryLazy`, which parses only the payload range of `bytes`.
 */
export function fastLineOf(bytes: Buffer, f: FastFacts): FastLine {
  return new ProvenLine(
    bytes,
    f.seq,
    f.prevHash,
    f.selfHash,
    f.computedHash,
    f.op,
    f.timestamp,
    f.sessionId,
    f.payloadTaskId,
    f.payloadStatus,
    f.payloadPath,
    f.payloadPlain,
    f.planStart,
    f.planEnd,
    f.planIsNull,
    f.skeleton,
    f.payloadStart,
    f.payloadEnd,
  );
}

/** A FastLine as one object per line (no closure, no facts object in between: made from the scan's values). */
class ProvenLine implements FastLine {
  private cached: LedgerEntry | null = null;

  constructor(
    private readonly bytes: Buffer,
    readonly seq: number | bigint,
    readonly prevHash: string,
    readonly selfHash: string,
    readonly computedHash: string,
    readonly op: LedgerOp,
    readonly timestamp: string,
    readonly sessionId: string,
    readonly payloadTaskId: string | null,
    readonly payloadStatus: string | null,
    readonly payloadPath: string | null,
    readonly payloadPlain: boolean,
    readonly planStart: number,
    readonly planEnd: number,
    readonly planIsNull: boolean,
    readonly skeleton: PlanSkeleton | null,
    readonly payloadStart: number,
    readonly payloadEnd: number,
  ) {}

  entryLazy(): LedgerEntry {
    this.cached ??= this.entryOf(canonicalPayload(this.bytes, this.payloadStart));
    return this.cached;
  }

  entryWith(keys: ReadonlySet<string>): LedgerEntry {
    return this.cached ?? this.entryOf(canonicalPayload(this.bytes, this.payloadStart, keys));
  }

  /**
   * What `validateLedgerEntry(parsePyJson(line))` returns for a line in exact form (given its
   * payload): its fields in model order, the payload a fresh dict (`dict[str, Any]` copies), no
   * coercion anywhere.
   */
  private entryOf(payload: LedgerEntry["payload"]): LedgerEntry {
    return {
      seq: this.seq,
      timestamp: this.timestamp,
      session_id: this.sessionId,
      op: this.op,
      payload,
      prev_hash: this.prevHash,
      self_hash: this.selfHash,
    };
  }
}

/** The value of the canonical int [s, e), as `parsePyJson` gives it. */
function intOf(s: number, e: number): number | bigint {
  const b = lineBytes;
  const negative = b[s] === 0x2d;
  const digits = e - s - (negative ? 1 : 0);
  if (digits <= 15) {
    let v = 0;
    for (let i = negative ? s + 1 : s; i < e; i++) v = v * 10 + (b[i] - 0x30);
    return negative ? 0 - v : v;
  }
  return pyInt(BigInt(latin1(lineBytes, s, e)));
}
