/**
 * The ledger timeline's view model, free of VS Code: it filters the entry
 * index (one small summary per entry, kept by the ledger session), folds each
 * snapshot into the entry the commit path wrote it after, groups rows by
 * session and local day, newest first, and hands out pages of display rows —
 * so 100,000 entries never cross to the host or the webview at once.
 */
import type {
  ChainState,
  ChangeKind,
  TimelineEntryRow,
  TimelineFacets,
  TimelineFilter,
  TimelinePage,
  TimelineQuery,
  TimelineRow,
  TimelineIndexEntry,
  TimelinePageRequest,
} from "./timelineTypes";
import { FacetTally } from "./timelineFacets";
import { LocalDays } from "./timelineDays";
import { TextMatcher, matchesText, textMatcher } from "./timelineText";

/** Ops that replace the whole plan (snapshots only restate it). */
const PLAN_CHANGE_OPS: ReadonlySet<string> = new Set(["init_plan", "update_plan"]);
const AUDIT_ONLY_OPS: ReadonlySet<string> = new Set(["plan_tournament_complete", "impl_tournament_complete"]);

/** A filter that lets everything through. */
export const EMPTY_FILTER: TimelineFilter = {
  ops: [],
  taskId: "",
  sessionId: "",
  status: "",
  text: "",
  changesOnly: false,
};

/** What an entry did: a status change (from → to, known by replay), a retry, an escalation, a plan change, a snapshot… */
export function deriveChange(e: TimelineIndexEntry): ChangeKind {
  if (e.op === "snapshot") return "snapshot";
  if (PLAN_CHANGE_OPS.has(e.op)) return "plan";
  if (e.toStatus !== null && e.fromStatus !== e.toStatus) return "status";
  if (e.toStatus !== null && e.retryCount !== null) return "retry";
  if (e.toStatus !== null && e.escalated) return "escalated";
  if (e.toStatus !== null) return "same-status";
  if (e.op === "append_evidence") return "evidence";
  if (AUDIT_ONLY_OPS.has(e.op)) return "audit";
  return "other";
}

/** True for the kinds "changes only" keeps. */
export function isChange(kind: ChangeKind): boolean {
  return kind === "status" || kind === "retry" || kind === "escalated" || kind === "plan";
}

/** Does the entry pass the filter? */
export function matchesFilter(
  e: TimelineIndexEntry,
  f: TimelineFilter,
  text: TextMatcher,
  titleOf: (taskId: string) => string | null,
): boolean {
  if (f.ops.length > 0 && !f.ops.includes(e.op)) return false;
  if (f.taskId && e.taskId !== f.taskId) return false;
  if (f.sessionId && e.sessionId !== f.sessionId) return false;
  if (f.status && e.toStatus !== f.status) return false;
  if (f.changesOnly && !isChange(deriveChange(e))) return false;
  return matchesText(e, deriveChange(e), text, titleOf);
}

/** A snapshot that directly follows a non-snapshot entry of the same session, with an intact chain. */
function foldable(entries: readonly TimelineIndexEntry[], i: number): boolean {
  const e = entries[i];
  if (e.op !== "snapshot" || e.chain !== "ok" || i === 0) return false;
  const prev = entries[i - 1];
  return prev.op !== "snapshot" && prev.sessionId === e.sessionId;
}

interface GroupData {
  readonly sessionId: string;
  readonly day: string;
  entries: number;
  newest: number;
  oldest: number;
}

/** A built view: display rows for one query over the first `length` entries. */
interface ViewData {
  readonly key: string;
  readonly length: number;
  /** Display rows: an entry index (≥ 0) or a group header `-(g + 1)`. */
  readonly rows: Int32Array;
  readonly total: number;
  /** Entries shown as rows (a folded snapshot is not one). */
  readonly matched: number;
  /** Snapshots folded into the row of the entry they follow. */
  readonly foldedCount: number;
  readonly groups: readonly GroupData[];
  /** Entry index → index of the snapshot folded into it, or -1. */
  readonly folded: Int32Array;
  /** Entry index → its display row (a folded snapshot: its host's row), or -1. */
  readonly rowOf: Int32Array;
}

/** Where verification first fails: the first entry it affects, the kind of problem, and whether that entry is the broken one. */
export interface ChainBreak {
  readonly index: number;
  readonly kind: string;
  /** False when the bad line is not an entry (it did not parse): `index` is then the first entry after it. */
  readonly here: boolean;
}

/** The filtered, grouped, paged view of one ledger's entry index. */
export class TimelineIndex {
  private epochs = new Float64Array(0);
  private epochCount = 0;
  private readonly zones = new Map<string, LocalDays>();
  private view: ViewData | null = null;
  private readonly tally = new FacetTally();

  /**
   * `entries` is the session's live array (appends grow it); `generation` names its identity;
   * `groupByActor` groups rows by session and day (false: by day only, as for agents that take turns).
   */
  constructor(
    readonly entries: readonly TimelineIndexEntry[],
    readonly generation: number,
    private readonly groupByActor = true,
  ) {}

  /** Index of the entry with `seq` (first one), or -1. */
  indexOfSeq(seq: number): number {
    const guess = seq - 1;
    if (guess >= 0 && guess < this.entries.length && this.entries[guess].seq === seq) return guess;
    return this.entries.findIndex((e) => e.seq === seq);
  }

  /** A page of rows plus totals; `titlesVersion` changes when task titles may have changed. */
  page(
    query: TimelineQuery,
    req: Omit<TimelinePageRequest, "query">,
    titleOf: (taskId: string) => string | null,
    titlesVersion: number,
    chainBreak: ChainBreak | null,
  ): TimelinePage {
    const v = this.viewFor(query, titleOf, titlesVersion);
    const rows: TimelineRow[] = [];
    const end = Math.min(v.total, req.offset + req.limit);
    for (let r = req.offset; r < end; r++) rows.push(this.rowAt(v, r, titleOf, chainBreak));
    return {
      generation: this.generation,
      entries: v.length,
      matched: v.matched,
      folded: v.foldedCount,
      total: v.total,
      offset: req.offset,
      rows,
      anchorRow: req.anchorRowId === null ? null : this.rowOfSeq(v, req.anchorRowId),
      located: req.locateRowId === null ? null : this.rowOfSeq(v, req.locateRowId),
      facets: req.facets ? this.facets() : null,
      brokenRowId: chainBreak?.here ? (this.entries[chainBreak.index]?.seq ?? null) : null,
    };
  }

  /** The row for one entry index, as the details pane shows it. */
  entryRow(i: number, titleOf: (taskId: string) => string | null, chainBreak: ChainBreak | null): TimelineEntryRow {
    const e = this.entries[i];
    return {
      kind: "entry",
      rowId: e.seq,
      line: e.line,
      op: e.op,
      timestamp: e.timestamp,
      sessionId: e.sessionId,
      selfHash: e.selfHash,
      taskId: e.taskId,
      taskTitle: e.taskId === null ? null : titleOf(e.taskId),
      fromStatus: e.fromStatus,
      toStatus: e.toStatus,
      retryCount: e.retryCount,
      escalated: e.escalated,
      change: deriveChange(e),
      chain: chainStateAt(e, i, chainBreak),
      chainKind: chainKindAt(e, i, chainBreak),
      snapshot: null,
    };
  }

  private rowOfSeq(v: ViewData, seq: number): number | null {
    const i = this.indexOfSeq(seq);
    if (i < 0 || i >= v.length) return null;
    const r = v.rowOf[i];
    return r >= 0 ? r : null;
  }

  private rowAt(
    v: ViewData,
    r: number,
    titleOf: (taskId: string) => string | null,
    chainBreak: ChainBreak | null,
  ): TimelineRow {
    const x = v.rows[r];
    if (x < 0) {
      const g = v.groups[-x - 1];
      return {
        kind: "group",
        sessionId: g.sessionId,
        day: g.day,
        entries: g.entries,
        newest: this.entries[g.newest].timestamp,
        oldest: this.entries[g.oldest].timestamp,
      };
    }
    const row = this.entryRow(x, titleOf, chainBreak);
    const s = v.folded[x];
    if (s < 0) return row;
    const snap = this.entries[s];
    return { ...row, snapshot: { rowId: snap.seq, line: snap.line, selfHash: snap.selfHash } };
  }

  private viewFor(query: TimelineQuery, titleOf: (taskId: string) => string | null, titlesVersion: number): ViewData {
    const key = `${titlesVersion}|${JSON.stringify(query)}`;
    const n = this.entries.length;
    if (this.view && this.view.key === key && this.view.length === n) return this.view;
    this.view = this.build(query, key, titleOf);
    return this.view;
  }

  private build(query: TimelineQuery, key: string, titleOf: (taskId: string) => string | null): ViewData {
    const entries = this.entries;
    const n = entries.length;
    const f = query.filter;
    const text = textMatcher(f.text);
    const match = new Uint8Array(n);
    for (let i = 0; i < n; i++) match[i] = matchesFilter(entries[i], f, text, titleOf) ? 1 : 0;
    const folded = new Int32Array(n).fill(-1);
    const rowOf = new Int32Array(n).fill(-1);
    const rows = new Int32Array(2 * n);
    const groups: GroupData[] = [];
    const dayOf = this.dayFunction(query.timeZone);
    let total = 0;
    let matched = 0;
    let foldedCount = 0;
    let group: GroupData | null = null;
    for (let i = n - 1; i >= 0; i--) {
      if (query.foldSnapshots && match[i - 1] === 1 && foldable(entries, i)) {
        folded[i - 1] = i;
        foldedCount++;
        continue;
      }
      if (match[i] === 0) continue;
      const e = entries[i];
      const day = dayOf(i);
      const actor = this.groupByActor ? e.sessionId : "";
      if (group === null || group.sessionId !== actor || group.day !== day) {
        group = { sessionId: actor, day, entries: 0, newest: i, oldest: i };
        groups.push(group);
        rows[total++] = -groups.length;
      }
      group.entries++;
      group.oldest = i;
      rowOf[i] = total;
      rows[total++] = i;
      matched++;
    }
    for (let i = 0; i < n; i++) if (folded[i] >= 0) rowOf[folded[i]] = rowOf[i];
    return { key, length: n, rows: rows.subarray(0, total), total, matched, foldedCount, groups, folded, rowOf };
  }

  /** Entry index → local day `YYYY-MM-DD` in `timeZone`. */
  private dayFunction(timeZone: string): (i: number) => string {
    this.ensureEpochs();
    let days = this.zones.get(timeZone);
    if (!days) this.zones.set(timeZone, (days = new LocalDays(timeZone)));
    const zone = days;
    const epochs = this.epochs;
    return (i) => zone.dayOf(epochs[i]);
  }

  private ensureEpochs(): void {
    const n = this.entries.length;
    if (this.epochCount === n) return;
    if (this.epochs.length < n) {
      const grown = new Float64Array(Math.max(n, this.epochs.length * 2, 1024));
      grown.set(this.epochs.subarray(0, this.epochCount));
      this.epochs = grown;
    }
    for (let i = this.epochCount; i < n; i++) this.epochs[i] = Date.parse(this.entries[i].timestamp);
    this.epochCount = n;
  }

  /** Values the filter controls offer, with counts (counted incrementally as the ledger grows). */
  facets(): TimelineFacets {
    return this.tally.facets(this.entries);
  }
}

/** Chain state of entry `i`: the first break, after it (unverified), or ok. */
export function chainStateAt(e: TimelineIndexEntry, i: number, chainBreak: ChainBreak | null): ChainState {
  if (e.chain !== "ok" || (chainBreak !== null && chainBreak.here && i === chainBreak.index)) return "broken";
  return chainBreak !== null && i >= chainBreak.index ? "unverified" : "ok";
}

function chainKindAt(e: TimelineIndexEntry, i: number, chainBreak: ChainBreak | null): string | null {
  if (e.chain !== "ok") return e.chain;
  return chainBreak !== null && chainBreak.here && i === chainBreak.index ? chainBreak.kind : null;
}
