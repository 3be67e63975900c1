/**
 * The timeline of `.agloop/log.json` without reading the whole log as JSON: one pass finds the
 * line boundaries (native byte searches, nothing decoded), then only the newest lines are
 * decoded and parsed, newest first, until the timeline holds its cap of rows. The rows are those
 * {@link readLogFile} lists (the same lines numbered the same way, the same row for each entry).
 */
import type { FileHandle } from "node:fs/promises";
import type { SourceTimelineRow } from "../../stateSource";
import { AGLOOP_LIMITS, LOG_FILE, openAgloopFile } from "../agloopFiles";
import { asRecord, asString } from "../agloopText";
import { escapeHidden, labelText } from "../../../text/untrustedText";

const CHUNK = 1 << 20;
/** Bytes read at once in the second pass (several lines per read). */
const BATCH = 4 << 20;
const utf8 = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true });

/** The newest line boundaries of a file: a ring of [start, end) byte ranges (terminators excluded) and their numbers. */
class LineRing {
  readonly starts: Float64Array;
  readonly ends: Float64Array;
  /** Lines seen; line `lines` is the newest, at slot `(lines - 1) % capacity`. */
  lines = 0;

  constructor(readonly capacity: number) {
    this.starts = new Float64Array(capacity);
    this.ends = new Float64Array(capacity);
  }

  add(start: number, end: number): void {
    const slot = this.lines++ % this.capacity;
    this.starts[slot] = start;
    this.ends[slot] = end;
  }
}

/**
 * Every line of `fh` (ends at `\n`, `\r\n` or a lone `\r`, as the line reader numbers them; a
 * last line without a terminator counts when it is not empty), the newest `capacity` kept.
 */
async function lineBoundaries(fh: FileHandle, capacity: number): Promise<LineRing> {
  const ring = new LineRing(capacity);
  const buf = Buffer.allocUnsafe(CHUNK);
  let lineStart = 0;
  let position = 0;
  let afterCR = false;
  for (;;) {
    const { bytesRead } = await fh.read(buf, 0, CHUNK, position);
    if (bytesRead === 0) break;
    const view = buf.subarray(0, bytesRead);
    let i = 0;
    if (afterCR) {
      afterCR = false;
      if (view[0] === 0x0a) lineStart = position + (i = 1);
    }
    let cr = view.indexOf(0x0d, i);
    while (i < bytesRead) {
      if (cr >= 0 && cr < i) cr = view.indexOf(0x0d, i);
      const lf = view.indexOf(0x0a, i);
      const end = lf < 0 ? cr : cr < 0 ? lf : Math.min(lf, cr);
      if (end < 0) break;
      ring.add(lineStart, position + end);
      if (view[end] === 0x0d) {
        if (end + 1 === bytesRead) {
          afterCR = true;
          lineStart = position + bytesRead;
          break;
        }
        if (view[end + 1] === 0x0a) i = end + 2;
        else i = end + 1;
      } else i = end + 1;
      lineStart = position + i;
    }
    position += bytesRead;
  }
  if (!afterCR && position > lineStart) ring.add(lineStart, position);
  return ring;
}

/**
 * The timeline rows of log.json, oldest first: the rows of its newest {@link AGLOOP_LIMITS}
 * `timelineRows` entries. Null when the lines kept by the first pass held too few entries (a log
 * whose newest lines are mostly not entries): the caller then reads the whole log.
 */
export async function readLogTimelineRows(workspace: string): Promise<SourceTimelineRow[] | null> {
  const opened = await openAgloopFile(workspace, LOG_FILE, Number.MAX_SAFE_INTEGER);
  if (opened.kind !== "ok") return [];
  const want = AGLOOP_LIMITS.timelineRows;
  const maxLine = AGLOOP_LIMITS.logLineBytes;
  try {
    const ring = await lineBoundaries(opened.handle, 2 * want);
    const kept = Math.min(ring.lines, ring.capacity);
    const rows: SourceTimelineRow[] = [];
    const buf = Buffer.allocUnsafe(BATCH);
    // Newest line first, in batches of consecutive lines read with one call.
    let k = ring.lines; // the line number to do next, going down
    while (k > ring.lines - kept && rows.length < want) {
      const slot = (k - 1) % ring.capacity;
      const batchEnd = ring.ends[slot];
      let first = k;
      while (first - 1 > ring.lines - kept) {
        const s = (first - 2) % ring.capacity;
        if (batchEnd - ring.starts[s] > BATCH) break;
        first--;
      }
      const from = ring.starts[(first - 1) % ring.capacity];
      const span = batchEnd - from;
      // A batch over BATCH bytes is one line longer than the line cap: skipped unread, as readLogFile does.
      const bytes = span <= BATCH ? await readAt(opened.handle, buf, from, span) : Buffer.alloc(0);
      for (let line = k; line >= first && rows.length < want; line--) {
        const s = (line - 1) % ring.capacity;
        const start = ring.starts[s];
        const end = ring.ends[s];
        if (end - start > maxLine || end - from > bytes.length) continue;
        const row = rowOfText(utf8.decode(bytes.subarray(start - from, end - from)), line);
        if (row !== null) rows.push(row);
      }
      k = first - 1;
    }
    if (rows.length < want && ring.lines > kept) return null;
    return rows.reverse();
  } finally {
    await opened.handle.close();
  }
}

async function readAt(fh: FileHandle, buf: Buffer, position: number, length: number): Promise<Buffer> {
  let got = 0;
  while (got < length) {
    const { bytesRead } = await fh.read(buf, got, length - got, position + got);
    if (bytesRead === 0) break;
    got += bytesRead;
  }
  return buf.subarray(0, got);
}

/** The row of one line's text, or null when the line is blank or not a JSON object. */
function rowOfText(text: string, line: number): SourceTimelineRow | null {
  if (text.trim().length === 0) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  const entry = asRecord(value);
  return entry ? logRowOf(entry, line) : null;
}

/** Longest metadata shown in a row's details (the whole line opens in the editor). */
const MAX_METADATA_CHARS = 4000;

/** The timeline row of one entry: agent, action, task, status, "phase · summary", and every field for the details. */
export function logRowOf(entry: Record<string, unknown>, line: number): SourceTimelineRow {
  const text = (key: string): string | null => {
    const v = asString(entry[key]);
    return v === undefined ? null : escapeHidden(v, true);
  };
  const summary = text("output_summary") || text("input_summary") || "";
  const phase = text("phase");
  const fields: { name: string; value: string }[] = [];
  const add = (name: string, value: string | null) => {
    if (value) fields.push({ name, value });
  };
  add("time", text("timestamp"));
  add("agent", text("agent"));
  add("action", text("action"));
  add("phase", phase);
  add("task", text("task_id"));
  add("status", text("status"));
  add("input", text("input_summary"));
  add("output", text("output_summary"));
  const metadata = asRecord(entry.metadata);
  if (metadata && Object.keys(metadata).length > 0) {
    const json = escapeHidden(JSON.stringify(metadata, null, 2), true);
    add("metadata", json.length > MAX_METADATA_CHARS ? `${json.slice(0, MAX_METADATA_CHARS - 1)}…` : json);
  }
  return {
    index: line,
    time: text("timestamp"),
    actor: text("agent"),
    action: text("action") ?? "(no action)",
    taskId: text("task_id"),
    status: text("status"),
    summary: labelText(phase ? `${phase} · ${summary}` : summary, 500),
    file: LOG_FILE,
    line,
    fields,
  };
}
