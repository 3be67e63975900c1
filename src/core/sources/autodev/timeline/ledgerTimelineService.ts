/**
 * The timeline's side of the ledger worker: one {@link TimelineIndex} per
 * ledger session (rebuilt when the session re-reads the ledger from the
 * start), pages of rows, and the details of one entry — its payload read on
 * demand from the entry's byte range, and what it changed in the plan.
 */
import type { TimelineEntryDetail, TimelinePlanChange } from "../../../timeline/timelineDetailTypes";
import type { TimelinePage, TimelinePageRequest, TimelineRowRef } from "../../../timeline/timelineTypes";
import { LEDGER_REL } from "../autodevPaths";
import { LedgerSession } from "../ledger/ledgerSession";
import { pyStrip } from "../../../pyjson/pyBuiltins";
import { parsePyJson } from "../../../pyjson/pyJsonParse";
import { dumpsIndent2 } from "../../../pyjson/pyJsonDump";
import { PyValue, isPyObject } from "../../../pyjson/pyValue";
import { AUDIT_OPS, PLAN_OPS } from "../ledger/replay";
import { Plan } from "../plan/schemas";
import { ChainBreak, TimelineIndex } from "../../../timeline/timelineQuery";
import { planDiff } from "./timelinePlanDiff";
import { EntrySummary } from "../ledger/verifyTypes";
import { LedgerRows } from "./ledgerTimeline";
import { LEDGER_TIMELINE_FEATURES } from "./ledgerTimelineWords";
import { errorText } from "../../../text/errorText";

/** Pretty payloads longer than this are cut (the whole line opens in the editor). */
const MAX_PAYLOAD_CHARS = 256 * 1024;
/** Beyond this many entries since the last plan-carrying entry, a status entry's plan diff is skipped. */
const MAX_DIFF_REPLAY = 5000;
const NO_DIFF_OPS = AUDIT_OPS;

/** Serves timeline requests for every session of the worker. */
export class TimelineService {
  private readonly indexes = new WeakMap<readonly EntrySummary[], { rows: LedgerRows; index: TimelineIndex }>();
  private readonly titleMaps = new WeakMap<Plan, { version: number; titles: Map<string, string> }>();
  private readonly breaks = new WeakMap<
    LedgerSession,
    { entries: readonly EntrySummary[]; length: number; value: ChainBreak | null }
  >();
  private nextGeneration = 1;
  private nextTitlesVersion = 1;

  /** The index over the session's current entry array (a new array = a new generation), its rows up to date. */
  indexOf(s: LedgerSession): TimelineIndex {
    const entries = s.entries;
    let held = this.indexes.get(entries);
    if (!held) {
      const rows = new LedgerRows(entries);
      held = { rows, index: new TimelineIndex(rows.rows, this.nextGeneration++, LEDGER_TIMELINE_FEATURES) };
      this.indexes.set(entries, held);
    }
    held.rows.sync();
    return held.index;
  }

  /** One page of display rows for `req`. */
  page(s: LedgerSession, req: TimelinePageRequest): TimelinePage {
    const { titleOf, version } = this.titles(s);
    return this.indexOf(s).page(req.query, req, titleOf, version, this.chainBreak(s));
  }

  /** Line and hashes of entry `seq` (prev_hash read from the line), or null when unknown. */
  async entryRef(s: LedgerSession, seq: number): Promise<TimelineRowRef | null> {
    const e = s.findBySeq(seq);
    if (!e) return null;
    const obj = await this.readEntry(s, seq);
    const prev = obj?.get("prev_hash");
    const copy: Record<string, string> = { self_hash: e.selfHash };
    if (typeof prev === "string" && prev) copy.prev_hash = prev;
    return { rowId: seq, file: LEDGER_REL, line: e.line, copy };
  }

  /** The details pane of entry `seq`, or null when the index has no such entry. */
  async detail(s: LedgerSession, seq: number): Promise<TimelineEntryDetail | null> {
    const index = this.indexOf(s);
    const i = index.indexOfId(seq);
    if (i < 0) return null;
    const e = index.entries[i];
    const { titleOf } = this.titles(s);
    const row = index.entryRow(i, titleOf, this.chainBreak(s));
    const obj = await this.readEntry(s, seq);
    const prev = obj?.get("prev_hash");
    const payload: PyValue = obj?.get("payload") ?? null;
    const pretty = obj ? dumpsIndent2(payload) : "(the line could not be read as JSON; open it in the ledger)";
    const report = s.report;
    const problems = [
      ...report.errors.filter((f) => f.atLine === e.line).map((f) => `${f.kind}: ${f.message}`),
      ...report.warnings.filter((w) => w.atLine === e.line).map((w) => `${w.kind}: ${w.message}`),
    ];
    return {
      row,
      file: LEDGER_REL,
      fields: [],
      problems,
      chain: { prevHash: typeof prev === "string" ? prev : "" },
      record: {
        text: pretty.length > MAX_PAYLOAD_CHARS ? pretty.slice(0, MAX_PAYLOAD_CHARS) : pretty,
        chars: pretty.length,
        truncated: pretty.length > MAX_PAYLOAD_CHARS,
      },
      planChange: await this.diffAt(s, index, i),
    };
  }

  private async diffAt(s: LedgerSession, index: TimelineIndex, i: number): Promise<TimelinePlanChange> {
    const entries = index.entries;
    const e = entries[i];
    if (NO_DIFF_OPS.has(e.action)) return { diff: null, error: null };
    if (!PLAN_OPS.has(e.action)) {
      let k = i;
      while (k > 0 && !PLAN_OPS.has(entries[k].action)) k--;
      if (i - k > MAX_DIFF_REPLAY) {
        return { diff: null, error: `not computed: ${i - k} entries since the last plan-carrying entry` };
      }
    }
    try {
      const before = i > 0 ? await s.planAt(entries[i - 1].id) : null;
      const after = await s.planAt(e.id);
      return { diff: planDiff(before, after, i > 0 ? entries[i - 1].id : null), error: null };
    } catch (err) {
      return { diff: null, error: errorText(err) };
    }
  }

  private async readEntry(s: LedgerSession, seq: number): Promise<Map<string, PyValue> | null> {
    const text = await s.entryText(seq);
    if (text === null) return null;
    try {
      const obj = parsePyJson(pyStrip(text));
      return isPyObject(obj) ? obj : null;
    } catch {
      return null;
    }
  }

  /** Task id → title from the session's live plan, with a version that changes when the plan object does. */
  private titles(s: LedgerSession): { titleOf: (taskId: string) => string | null; version: number } {
    const plan = s.plan;
    if (!plan) return { titleOf: () => null, version: 0 };
    let t = this.titleMaps.get(plan);
    if (!t) {
      const titles = new Map<string, string>();
      for (const p of plan.phases) {
        for (const task of p.tasks) if (!titles.has(task.id)) titles.set(task.id, task.title);
      }
      this.titleMaps.set(plan, (t = { version: this.nextTitlesVersion++, titles }));
    }
    const titles = t.titles;
    return { titleOf: (id) => titles.get(id) ?? null, version: t.version };
  }

  /** Where verification first failed, mapped onto the entry index (cached per index length). */
  private chainBreak(s: LedgerSession): ChainBreak | null {
    const entries = s.entries;
    const cached = this.breaks.get(s);
    if (cached && cached.entries === entries && cached.length === entries.length) return cached.value;
    const first = s.report.errors[0];
    let value: ChainBreak | null = null;
    if (first && first.atLine > 0) {
      let lo = 0;
      let hi = entries.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (entries[mid].line < first.atLine) lo = mid + 1;
        else hi = mid;
      }
      if (lo < entries.length) value = { index: lo, kind: first.kind, here: entries[lo].line === first.atLine };
    }
    this.breaks.set(s, { entries, length: entries.length, value });
    return value;
  }
}
