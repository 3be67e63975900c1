/**
 * A timeline's view model, free of VS Code and of any source: it filters the
 * row index (one small neutral record per row), folds each snapshot into the
 * row it follows (sources with snapshots), groups rows by actor (or not) and
 * local day, newest first, and hands out pages of display rows — so 100,000
 * rows never cross to the host or the webview at once. What an action is
 * (a change, a snapshot, its words) comes from the source's features.
 */
import type {
  ChainState,
  TimelineEntryRow,
  TimelineFacets,
  TimelineFilter,
  TimelinePage,
  TimelineQuery,
  TimelineRow,
  TimelineIndexEntry,
  TimelinePageRequest,
} from "./timelineTypes";
import type { TimelineFeatures } from "./timelineFeatureTypes";
import { FacetTally } from "./timelineFacets";
import { LocalDays } from "./timelineDays";
import { TextMatcher, matchesText, textMatcher } from "./timelineText";
import { changeNote, deriveChange, isChange } from "./timelineChange";
import { localizedFeatures } from "./timelineWords";

/** A filter that lets everything through. */
export const EMPTY_FILTER: TimelineFilter = {
  actions: [],
  taskId: "",
  actor: "",
  status: "",
  text: "",
  changesOnly: false,
};

/** Does the row pass the filter? */
export function matchesFilter(
  e: TimelineIndexEntry,
  f: TimelineFilter,
  text: TextMatcher,
  titleOf: (taskId: string) => string | null,
  features: TimelineFeatures,
): boolean {
  if (f.actions.length > 0 && !f.actions.includes(e.action)) return false;
  if (f.taskId && e.taskId !== f.taskId) return false;
  if (f.actor && e.actor !== f.actor) return false;
  if (f.status && e.toStatus !== f.status) return false;
  const change = deriveChange(e, features);
  if (f.changesOnly && !isChange(change)) return false;
  return matchesText(e, change, text, titleOf, features);
}

/** A snapshot that directly follows a non-snapshot row of the same actor, with an intact chain. */
function foldable(entries: readonly TimelineIndexEntry[], i: number, snapshotAction: string | null): boolean {
  const e = entries[i];
  if (snapshotAction === null || e.action !== snapshotAction || i === 0) return false;
  if (e.chainProblem !== undefined && e.chainProblem !== "ok") return false;
  const prev = entries[i - 1];
  return prev.action !== snapshotAction && prev.actor === e.actor;
}

interface GroupData {
  readonly actor: string;
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

/** The filtered, grouped, paged view of one source's row index. */
export class TimelineIndex {
  private epochs = new Float64Array(0);
  private epochCount = 0;
  private readonly zones = new Map<string, LocalDays>();
  private view: ViewData | null = null;
  private readonly tally = new FacetTally();

  /**
   * `entries` is the source's live array (appends grow it); `generation` names its identity;
   * `features` say what the rows are (how they group, which action is a snapshot, their words,
   * taken in the user's language).
   */
  readonly features: TimelineFeatures;

  constructor(
    readonly entries: readonly TimelineIndexEntry[],
    readonly generation: number,
    features: TimelineFeatures,
  ) {
    this.features = localizedFeatures(features);
  }

  /** Index of the row with id `rowId` (first one), or -1. */
  indexOfId(rowId: number): number {
    const guess = rowId - 1;
    if (guess >= 0 && guess < this.entries.length && this.entries[guess].id === rowId) return guess;
    return this.entries.findIndex((e) => e.id === rowId);
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
      anchorRow: req.anchorRowId === null ? null : this.rowOfId(v, req.anchorRowId),
      located: req.locateRowId === null ? null : this.rowOfId(v, req.locateRowId),
      facets: req.facets ? this.facets() : null,
      brokenRowId: chainBreak?.here ? (this.entries[chainBreak.index]?.id ?? null) : null,
    };
  }

  /** The row for one index position, as the list and the details pane show it. */
  entryRow(i: number, titleOf: (taskId: string) => string | null, chainBreak: ChainBreak | null): TimelineEntryRow {
    const e = this.entries[i];
    const f = this.features;
    const change = deriveChange(e, f);
    return {
      kind: "entry",
      rowId: e.id,
      line: e.line,
      time: e.time,
      actor: e.actor,
      action: e.action,
      taskId: e.taskId,
      taskTitle: e.taskId === null ? null : titleOf(e.taskId),
      fromStatus: e.fromStatus,
      toStatus: e.toStatus,
      change,
      note: changeNote(e, change, f),
      summary: e.summary ?? "",
      chain: f.chain
        ? { state: chainStateAt(e, i, chainBreak), problem: chainKindAt(e, i, chainBreak), hash: e.hash ?? "" }
        : null,
      retry: f.retries ? { count: e.retryCount ?? null, escalated: e.escalated === true } : null,
      snapshot: null,
    };
  }

  private rowOfId(v: ViewData, rowId: number): number | null {
    const i = this.indexOfId(rowId);
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
        actor: g.actor,
        day: g.day,
        entries: g.entries,
        newest: this.entries[g.newest].time,
        oldest: this.entries[g.oldest].time,
      };
    }
    const row = this.entryRow(x, titleOf, chainBreak);
    const s = v.folded[x];
    if (s < 0) return row;
    const snap = this.entries[s];
    return { ...row, snapshot: { rowId: snap.id, line: snap.line, hash: snap.hash ?? "" } };
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
    const features = this.features;
    for (let i = 0; i < n; i++) match[i] = matchesFilter(entries[i], f, text, titleOf, features) ? 1 : 0;
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
      if (query.foldSnapshots && match[i - 1] === 1 && foldable(entries, i, features.snapshot?.action ?? null)) {
        folded[i - 1] = i;
        foldedCount++;
        continue;
      }
      if (match[i] === 0) continue;
      const e = entries[i];
      const day = dayOf(i);
      const actor = features.groupByActor ? e.actor : "";
      if (group === null || group.actor !== actor || group.day !== day) {
        group = { actor, day, entries: 0, newest: i, oldest: i };
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
    for (let i = this.epochCount; i < n; i++) this.epochs[i] = Date.parse(this.entries[i].time);
    this.epochCount = n;
  }

  /** Values the filter controls offer, with counts (counted incrementally as the source grows). */
  facets(): TimelineFacets {
    return this.tally.facets(this.entries);
  }
}

/** Chain state of row `i`: the first break, after it (unverified), or ok. */
export function chainStateAt(e: TimelineIndexEntry, i: number, chainBreak: ChainBreak | null): ChainState {
  const here = chainBreak !== null && chainBreak.here && i === chainBreak.index;
  if ((e.chainProblem ?? "ok") !== "ok" || here) return "broken";
  return chainBreak !== null && i >= chainBreak.index ? "unverified" : "ok";
}

function chainKindAt(e: TimelineIndexEntry, i: number, chainBreak: ChainBreak | null): string | null {
  if ((e.chainProblem ?? "ok") !== "ok") return e.chainProblem ?? null;
  return chainBreak !== null && chainBreak.here && i === chainBreak.index ? chainBreak.kind : null;
}
