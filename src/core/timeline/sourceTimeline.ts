/**
 * The timeline of any state source that gives its rows as
 * {@link SourceTimelineRow}s: each mapped onto the neutral row index (the
 * status a row reports is its `to` status), so the same webview pages,
 * filters and groups them as the source's features say. One cached index per
 * (workspace folder, source kind), replaced when the source's rows change.
 */
import type { TimelineEntryDetail, TimelineField } from "./timelineDetailTypes";
import type { TimelineFeatures } from "./timelineFeatureTypes";
import type { TimelineIndexEntry, TimelinePage, TimelinePageRequest, TimelineRowRef } from "./timelineTypes";
import { SourceTimelineRow } from "../sources/stateSource";
import { TimelineIndex } from "./timelineQuery";
import { LOG_TIMELINE_FEATURES } from "./logTimelineFeatures";

/** Longest summary shown in a row (the details pane shows the row's whole text). */
const MAX_ROW_SUMMARY = 500;

/** The details of a row that names none of its own: who, what, which task, the status and the summary. */
function defaultFields(row: SourceTimelineRow): TimelineField[] {
  const out: TimelineField[] = [];
  const add = (name: string, value: string | null) => value && out.push({ name, value });
  add("time", row.time);
  add("agent", row.actor);
  add("action", row.action);
  add("task", row.taskId);
  add("status", row.status);
  add("summary", row.summary);
  return out;
}

interface Cached {
  readonly rows: readonly SourceTimelineRow[];
  readonly index: TimelineIndex;
  readonly bySeq: Map<number, SourceTimelineRow>;
}

/** The timeline index entry of a source row (its id = the row's 1-based index). */
function entryOfRow(row: SourceTimelineRow): TimelineIndexEntry {
  return {
    id: row.index,
    line: row.line,
    time: row.time ?? "",
    actor: row.actor ?? "",
    action: row.action,
    taskId: row.taskId,
    fromStatus: null,
    toStatus: row.status,
    summary: row.summary,
  };
}

/** Pages and details of source timelines. */
export class SourceTimelineService {
  private readonly cache = new Map<string, Cached>();
  private generation = 1_000_000;

  /** Takes a source's current rows (call after every read; unchanged rows keep the index). */
  update(key: string, rows: readonly SourceTimelineRow[], features: TimelineFeatures = LOG_TIMELINE_FEATURES): void {
    const old = this.cache.get(key);
    if (old && sameRows(old.rows, rows)) return;
    const bySeq = new Map<number, SourceTimelineRow>();
    for (const r of rows) bySeq.set(r.index, r);
    const index = new TimelineIndex(rows.map(entryOfRow), this.generation++, features);
    this.cache.set(key, { rows, index, bySeq });
  }

  /** True when a source's rows are loaded. */
  has(key: string): boolean {
    return this.cache.has(key);
  }

  /** Forgets a source. */
  drop(key: string): void {
    this.cache.delete(key);
  }

  /** One page of rows, each carrying its source summary. */
  page(key: string, req: TimelinePageRequest): TimelinePage {
    const c = this.get(key);
    const page = c.index.page(req.query, req, () => null, 0, null);
    const rows = page.rows.map((r) =>
      r.kind === "entry" ? { ...r, summary: clip(c.bySeq.get(r.rowId)?.summary ?? "") } : r,
    );
    return { ...page, rows };
  }

  /** The details pane of row `rowId`: the fields its source names (or the default ones), none of the opt-in parts. */
  detail(key: string, rowId: number): TimelineEntryDetail | null {
    const c = this.get(key);
    const i = c.index.indexOfId(rowId);
    const src = c.bySeq.get(rowId);
    if (i < 0 || !src) return null;
    const row = { ...c.index.entryRow(i, () => null, null), summary: clip(src.summary) };
    return {
      row,
      file: src.file,
      fields: src.fields ?? defaultFields(src),
      problems: [],
      chain: null,
      record: null,
      planChange: null,
    };
  }

  /** File and line of row `rowId` (nothing to copy), or null. */
  ref(key: string, rowId: number): TimelineRowRef | null {
    const r = this.cache.get(key)?.bySeq.get(rowId);
    return r ? { rowId, file: r.file, line: r.line, copy: {} } : null;
  }

  private get(key: string): Cached {
    const c = this.cache.get(key);
    if (!c) throw new Error("this source has no timeline");
    return c;
  }
}

function clip(s: string): string {
  return s.length > MAX_ROW_SUMMARY ? `${s.slice(0, MAX_ROW_SUMMARY - 1)}…` : s;
}

function sameRows(a: readonly SourceTimelineRow[], b: readonly SourceTimelineRow[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (
      x.index !== y.index ||
      x.time !== y.time ||
      x.action !== y.action ||
      x.summary !== y.summary ||
      x.status !== y.status ||
      x.taskId !== y.taskId ||
      x.actor !== y.actor
    ) {
      return false;
    }
  }
  return true;
}
