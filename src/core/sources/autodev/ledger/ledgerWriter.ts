/**
 * Appending to the ledger (design §5.1/§5.3). The caller holds the plan lock.
 * Entries are validated, hashed over exactly what a reader will re-derive
 * (pydantic's JSON-mode dump), serialized as `json.dumps(entry, sort_keys=True)`
 * and appended atomically. We refuse to append after a malformed last line, and
 * never glue a new entry onto a last line that lacks its newline.
 */
import { identityOf, replaceWithAppended, type FileIdentity } from "../../../fs/confinedReplace";
import type { ConfinedDir } from "../../../fs/confinedDir";
import { LedgerCorruptError, InvalidInputError } from "../../../errors";
import { computeHash } from "./ledgerHash";
import { decodeUtf8Strict } from "../../../text/utf8";
import { getMaxLineBytes } from "../../../fs/lineLimit";
import { pyStrip } from "../../../pyjson/pyBuiltins";
import { linesBackward, openLedgerForTail } from "./read/ledgerTail";
import { parsePyJson } from "../../../pyjson/pyJsonParse";
import { dumpsIndent2, dumpsSorted } from "../../../pyjson/pyJsonDump";
import { PyObject, PyValue, isPyObject } from "../../../pyjson/pyValue";
import {
  LedgerEntry,
  Plan,
  PyDumpError,
  ledgerEntryHashInput,
  ledgerEntryToPy,
  planToPy,
  validateLedgerEntry,
} from "../plan/schemas";
import { LEDGER_FILE, PLAN_FILE, ledgerPath } from "../autodevPaths";
import { readFrom, withAutodevDir } from "../autodevWriteDir";
import { errorText } from "../../../text/errorText";

/** Python's `datetime.now(timezone.utc).isoformat()`: microseconds, `+00:00`, no fraction when it is zero. */
export function isoNow(now: number = performance.timeOrigin + performance.now()): string {
  const ms = Math.floor(now);
  const micros = Math.min(999, Math.round((now - ms) * 1000)) + (ms % 1000) * 1000;
  const base = new Date(ms).toISOString().slice(0, 19);
  return micros === 0 ? `${base}+00:00` : `${base}.${String(micros).padStart(6, "0")}+00:00`;
}

/** What the last line of the ledger says, as Python's `_read_last_entry_head`. */
export interface LastHead {
  readonly seq: number | bigint;
  readonly selfHash: string;
  /** True when the file is non-empty and does not end with a newline. */
  readonly missingFinalNewline: boolean;
  /** The ledger file read (null: there was none), which an append must extend; absent for a head built by hand. */
  readonly file?: FileIdentity | null;
}

/**
 * Finds the last non-blank line by reading backwards from the end (linear in
 * the bytes after it), with the identity of the file read. Returns null for a
 * missing ledger and `text: null` for a blank one; throws
 * `LedgerCorruptError` when that line is over the line-length limit, and
 * `UnsafeFileError` for a ledger that is not a regular file inside `root`.
 */
export async function readLastLine(
  file: string,
  root?: string,
): Promise<{ text: Buffer | null; missingFinalNewline: boolean; file: FileIdentity } | null> {
  const fh = await openLedgerForTail(file, root);
  if (fh === null) return null;
  try {
    const st = await fh.stat();
    const size = st.size;
    if (size === 0) return { text: null, missingFinalNewline: false, file: identityOf(st) };
    const lastByte = Buffer.alloc(1);
    await fh.read(lastByte, 0, 1, size - 1);
    const missingFinalNewline = lastByte[0] !== 0x0a && lastByte[0] !== 0x0d;
    for await (const line of linesBackward(fh, size, getMaxLineBytes(), true)) {
      if (line.bytes === null) {
        const length = line.partial ? `at least ${line.end - line.start}` : String(line.end - line.start);
        throw new LedgerCorruptError(
          `the last ledger line (ending at byte ${line.end}) is ${length} bytes, over the line-length limit of ${getMaxLineBytes()} bytes; ` +
            `nothing is appended after it. Inspect the end of ${file} and repair it, or raise the limit (setting autodev.maxLineMB, CLI --max-line-mb).`,
        );
      }
      const text = decodeUtf8Strict(line.bytes);
      if (text === null || pyStrip(text).length > 0) {
        return { text: line.bytes, missingFinalNewline, file: identityOf(st) };
      }
    }
    return { text: null, missingFinalNewline: false, file: identityOf(st) };
  } finally {
    await fh.close();
  }
}

/** `_read_last_entry_head`: (0, "") for an empty ledger; refuses a malformed last line. */
export async function readLastEntryHead(cwd: string): Promise<LastHead> {
  const file = ledgerPath(cwd);
  const last = await readLastLine(file, cwd);
  if (last === null) return { seq: 0, selfHash: "", missingFinalNewline: false, file: null };
  if (last.text === null) return { seq: 0, selfHash: "", missingFinalNewline: false, file: last.file };
  const text = decodeUtf8Strict(last.text);
  let obj: PyValue;
  try {
    if (text === null) throw new Error("the line is not valid UTF-8");
    obj = parsePyJson(pyStrip(text));
  } catch (e) {
    throw new LedgerCorruptError(
      `last ledger line is not valid JSON: ${errorText(e)}. ` +
        `Manual recovery required — inspect the trailing line of ${file} and either remove it or restore from a snapshot.`,
    );
  }
  const seq = isPyObject(obj) ? obj.get("seq") : undefined;
  const selfHash = isPyObject(obj) ? obj.get("self_hash") : undefined;
  const seqOk =
    typeof seq === "bigint" || typeof seq === "boolean" || (typeof seq === "number" && Number.isInteger(seq));
  if (!seqOk || typeof selfHash !== "string") {
    throw new LedgerCorruptError(`last ledger line is missing seq/self_hash fields: ${file}`);
  }
  const seqValue = typeof seq === "boolean" ? (seq ? 1 : 0) : (seq as number | bigint);
  return { seq: seqValue, selfHash, missingFinalNewline: last.missingFinalNewline, file: last.file };
}

/** Builds, validates and hashes the next entry after `head` (no I/O). */
export function buildEntry(
  head: LastHead,
  op: string,
  payload: PyObject,
  sessionId: string,
  timestamp = isoNow(),
): { entry: LedgerEntry; line: string } {
  const seq = typeof head.seq === "bigint" ? head.seq + 1n : head.seq + 1;
  const body: PyObject = new Map<string, PyValue>([
    ["seq", typeof seq === "bigint" && seq <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(seq) : seq],
    ["timestamp", timestamp],
    ["session_id", sessionId],
    ["op", op],
    ["payload", payload],
    ["prev_hash", head.selfHash],
    ["self_hash", ""],
  ]);
  const res = validateLedgerEntry(body);
  if (!res.ok) throw new InvalidInputError(`refusing to append an invalid ledger entry: ${res.error}`);
  try {
    const entry = { ...res.value, self_hash: computeHash(ledgerEntryHashInput(res.value)) } as LedgerEntry;
    return { entry, line: dumpsSorted(ledgerEntryToPy(entry)) + "\n" };
  } catch (e) {
    if (!(e instanceof PyDumpError)) throw e;
    // A lone surrogate in a key of a nested dict: pydantic's JSON dump raises, so Python AutoDev's
    // writer fails on the same payload and its reader could never verify such a line. Refuse it.
    throw new InvalidInputError(
      `refusing to append: ${e.message} (a key of a nested payload object holds a lone surrogate; Python AutoDev's writer fails on it too, and its reader could not verify the entry). Nothing was written; fix the payload's keys.`,
    );
  }
}

/**
 * `append_entry`: appends one entry (caller holds the lock). Written through
 * the checked `.autodev/` descriptor `dir` (opened here when not given), so a
 * folder swapped for a link cannot redirect it; the copy extends exactly the
 * file the last entry was read from.
 */
export async function appendEntry(
  cwd: string,
  op: string,
  payload: PyObject,
  sessionId: string,
  dir?: ConfinedDir,
): Promise<LedgerEntry> {
  return withAutodevDir(cwd, dir, async (d) => {
    const head = await readFrom(d, () => readLastEntryHead(cwd));
    const { entry, line } = buildEntry(head, op, payload, sessionId);
    await replaceWithAppended(
      d,
      LEDGER_FILE,
      head.missingFinalNewline ? "\n" + line : line,
      ".ledger.",
      head.file ?? null,
    );
    return entry;
  });
}

/** The exact bytes Python writes to plan.json: `json.dumps(plan, indent=2) + "\n"`. */
export function planJsonText(plan: Plan): string {
  return dumpsIndent2(planToPy(plan)) + "\n";
}

/**
 * `snapshot_plan`: writes plan.json atomically (0600, as Python's temp file
 * leaves it), then appends a `snapshot` entry (caller holds the lock); both
 * through the checked `.autodev/` descriptor `dir` (opened here when not given).
 */
export async function snapshotPlan(
  cwd: string,
  plan: Plan,
  sessionId: string,
  onPlanJson?: () => void,
  dir?: ConfinedDir,
): Promise<LedgerEntry> {
  return withAutodevDir(cwd, dir, async (d) => {
    const dumped = planToPy(plan);
    d.assertStillAt();
    await d.writeAtomic(PLAN_FILE, dumpsIndent2(dumped) + "\n", ".plan.", 0o600);
    onPlanJson?.();
    return appendEntry(cwd, "snapshot", new Map([["plan", dumped]]), sessionId, d);
  });
}
