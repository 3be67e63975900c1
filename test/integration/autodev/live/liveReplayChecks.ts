/**
 * What the samples of the editor taken during a live replay (autodevLiveReplay.test.ts) say: anything
 * false shown while AutoDev was mid-write (a Problem that later goes away, an error, a task status AutoDev
 * never wrote or one out of order), and how long each write took to reach each surface.
 */
import { isDoneStatus, taskStatusLabel } from "../../../../src/core/sources/taskStatusIcons";
import * as vscode from "vscode";
import { type Seen, entriesOf } from "./editorView";
import type { Made, ReplayedEvent } from "./liveReplay";

/** Milliseconds from a write (or the end of the process) to the first sample showing it, per surface. */
export interface Latencies {
  /** A task status append → that task's row shows the status (or a later one). */
  treeRow: number[];
  /** A ledger append → the root's hover counts it. */
  treeEntries: number[];
  /** An append that finished a task → the status bar's done count. */
  statusBar: number[];
  /** A ledger append → the open timeline lists it. */
  timeline: number[];
  /** AutoDev's first write → "AutoDev running" in the status bar. */
  runShown: number[];
  /** AutoDev gone (exit or SIGKILL) → "AutoDev running" cleared. */
  runCleared: number[];
  /** AutoDev gone → each Problem for what it left behind. */
  problems: number[];
}

/** Each task's statuses in the order the replay appended them. */
function statusOrder(after: readonly ReplayedEvent[]): Map<string, Array<{ i: number; label: string }>> {
  const out = new Map<string, Array<{ i: number; label: string }>>();
  after.forEach((e, i) => {
    if (!e.status) return;
    const seq = out.get(e.status.taskId) ?? [];
    seq.push({ i, label: taskStatusLabel(e.status.status) });
    out.set(e.status.taskId, seq);
  });
  return out;
}

/**
 * For each sample, each task's position in its status order (-1: as before the replay's first append):
 * the latest appended by the time the sample was read whose status it shows (never one not yet written,
 * never going back); and what could not be placed (a status AutoDev never wrote there, or one going back).
 */
function placeStatuses(
  samples: readonly Seen[],
  after: readonly ReplayedEvent[],
  made: readonly Made[],
): { states: Array<Map<string, number>>; wrong: string[] } {
  const order = statusOrder(after);
  const cur = new Map<string, number>();
  const initial = new Map<string, string>();
  const wrong: string[] = [];
  const t0 = samples[0]?.at ?? 0;
  let m = 0;
  const states = samples.map((s) => {
    while (m < made.length && made[m].at <= s.doneAt) m++;
    const written = m > 0 ? made[m - 1].i : -1;
    for (const [id, d] of s.tasks) {
      const label = d.split(" · ")[0];
      if (!initial.has(id)) initial.set(id, label);
      const seq = order.get(id) ?? [];
      const from = cur.get(id) ?? -1;
      let j = -2;
      for (let k = Math.max(from, 0); k < seq.length && seq[k].i <= written; k++) if (seq[k].label === label) j = k;
      if (j === -2 && from === -1 && label === initial.get(id)) j = -1;
      if (j === -2) {
        wrong.push(
          `task ${id} showed "${label}" at +${s.at - t0} ms after "${from < 0 ? initial.get(id) : seq[from].label}"`,
        );
        continue;
      }
      cur.set(id, j);
    }
    return new Map(cur);
  });
  return { states, wrong };
}

/** What the samples showed that was not true (empty: nothing). */
export function midRunFalsehoods(samples: readonly Seen[], after: readonly ReplayedEvent[], made: readonly Made[]) {
  const out = [...new Set(placeStatuses(samples, after, made).wrong)];
  const t0 = made[0]?.at ?? 0;
  const keys = samples.map((s) => new Set(s.problems.map((p) => `${p.code} ${p.file}`)));
  const reported = new Set<string>();
  samples.forEach((s, k) => {
    for (const p of s.problems) {
      const key = `${p.code} ${p.file}`;
      if (p.severity === vscode.DiagnosticSeverity.Error && !reported.has(`E ${key}`)) {
        reported.add(`E ${key}`);
        out.push(`an error at +${s.at - t0} ms: ${key}: ${p.message}`);
      }
      const gone = keys.findIndex((set, n) => n > k && !set.has(key));
      if (gone >= 0 && !reported.has(key)) {
        reported.add(key);
        out.push(`${key}: shown at +${s.at - t0} ms, gone at +${samples[gone].at - t0} ms (${p.message})`);
      }
    }
  });
  return out;
}

/** The first sample read after `at` for which `shows` holds: its end minus `at`; null when none. */
function delay<T extends { at: number; doneAt?: number }>(
  xs: readonly T[],
  at: number,
  shows: (x: T) => boolean,
): number | null {
  const hit = xs.find((x) => (x.doneAt ?? x.at) >= at && shows(x));
  return hit ? (hit.doneAt ?? hit.at) - at : null;
}

/** The latencies of every surface over one replay (see {@link Latencies}). */
export function measureLatencies(
  samples: readonly Seen[],
  timelines: ReadonlyArray<{ at: number; matched: number | null }>,
  after: readonly ReplayedEvent[],
  made: readonly Made[],
  endedAt: number,
  folderName: string,
): Latencies {
  const at = new Map(made.map((m) => [m.i, m.at]));
  const lat: Latencies = {
    treeRow: [],
    treeEntries: [],
    statusBar: [],
    timeline: [],
    runShown: [],
    runCleared: [],
    problems: [],
  };
  const push = (k: keyof Latencies, v: number | null) => v !== null && lat[k].push(v);
  const { states } = placeStatuses(samples, after, made);
  const withState = samples.map((s, k) => ({ at: s.doneAt, s, state: states[k] }));
  const order = statusOrder(after);
  const doneCount = (s: Seen) => [...s.tasks.values()].filter((d) => DONE_LABELS.has(d.split(" · ")[0])).length;
  const barDone = (s: Seen) => Number(/AutoDev (\d+)\//.exec(s.statusBar ?? "")?.[1] ?? NaN);
  const first = samples[0];
  const base = first ? barDone(first) - doneCount(first) : NaN;
  const done = new Map<string, boolean>();
  let rowsBefore = Infinity; // the first commit's rows were there before the timeline's first sample
  for (const [i, e] of after.entries()) {
    const t = at.get(i);
    if (t === undefined || !e.commit) continue;
    push(
      "treeEntries",
      delay(samples, t, (s) => (entriesOf(s) ?? -1) >= e.entries),
    );
    if (e.timelineRows > rowsBefore) {
      push(
        "timeline",
        delay(timelines, t, (x) => (x.matched ?? -1) >= e.timelineRows),
      );
    }
    rowsBefore = e.timelineRows;
    if (!e.status) continue;
    const { taskId, status } = e.status;
    const j = (order.get(taskId) ?? []).findIndex((x) => x.i === i);
    push(
      "treeRow",
      delay(withState, t, (x) => (x.state.get(taskId) ?? -1) >= j),
    );
    if (isDoneStatus(status) !== (done.get(taskId) ?? false)) {
      done.set(taskId, isDoneStatus(status));
      const want = base + [...done.values()].filter(Boolean).length;
      if (Number.isFinite(base)) {
        push(
          "statusBar",
          delay(samples, t, (s) => barDone(s) === want),
        );
      }
    }
  }
  const running = (s: Seen) => /AutoDev running/.test(s.runItem ?? "") && (s.runItem ?? "").includes(folderName);
  if (made[0]) push("runShown", delay(samples, made[0].at, running));
  push(
    "runCleared",
    delay(samples, endedAt, (s) => !running(s)),
  );
  const before = new Set(
    samples.filter((s) => s.at < endedAt).flatMap((s) => s.problems.map((p) => `${p.code} ${p.file}`)),
  );
  const last = samples[samples.length - 1];
  for (const p of last?.problems ?? []) {
    const key = `${p.code} ${p.file}`;
    if (!before.has(key)) {
      push(
        "problems",
        delay(samples, endedAt, (s) => s.problems.some((q) => `${q.code} ${q.file}` === key)),
      );
    }
  }
  return lat;
}

const DONE_LABELS = new Set(["complete", "skipped"].map(taskStatusLabel));
