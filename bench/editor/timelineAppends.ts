/**
 * The editor bench's timeline phase: the timeline webview opened on one AutoDev folder, then
 * external appends by Python, each timed from the writer's atomic replace until the webview
 * reported (its `rendered` message, after it painted) an update with the new row counted, and
 * until the tree and Problems showed it, in the same appends. The webview's paint is the real
 * one: code-server runs the workbench in a browser, so the timeline's script runs as it does for
 * a user.
 */
import * as vscode from "vscode";
import type { TimelineController } from "../../src/extension/timeline/timelineController";
import type { AutodevFolder } from "../../src/extension/sources/autodev/folder/autodevFolder";

/** One append: when the ledger was replaced and the seq it wrote. */
export type TimedAppend = (
  cwd: string,
  taskId: string,
  status: string,
) => Promise<{ replacedAtMs: number; seq: number }>;

/** What the phase measured: ms from the replace, per append. */
export interface TimelineAppendTimes {
  readonly folder: string;
  /** To the webview's report of the repainted timeline with the new row counted. */
  readonly timeline: number[];
  /** To the tree and Problems showing the append (the same appends). */
  readonly treeAndProblems: number[];
}

/** The helpers of editorHost.ts this phase uses. */
export interface TimelinePhaseTools {
  readonly append: TimedAppend;
  readonly until: (check: () => boolean, timeoutMs: number, what: string) => Promise<void>;
  readonly sleep: (ms: number) => Promise<unknown>;
}

/** Opens the timeline on `folder` and times `count` appends to its ledger (see the module comment). */
export async function timeTimelineAppends(
  folder: AutodevFolder,
  name: string,
  count: number,
  tools: TimelinePhaseTools,
): Promise<TimelineAppendTimes> {
  const { append, until, sleep } = tools;
  const ctrl = (await vscode.commands.executeCommand(
    "autodev.showTimeline",
    folder.folder.uri.toString(),
  )) as TimelineController;
  await until(() => (ctrl.lastRendered?.rows ?? 0) > 0, 60_000, "the timeline's first paint");
  await sleep(1000);
  const task = folder.plan!.phases[0].tasks[0].id;
  const uri = vscode.Uri.file(folder.ledgerFile);
  const timeline: number[] = [];
  const treeAndProblems: number[] = [];
  for (let i = 0; i < count; i++) {
    const status = i % 2 === 0 ? "pending" : "complete"; // a state-machine warning each time
    const seq = folder.entries + 1;
    const before = ctrl.lastRendered!;
    const painted = (async () => {
      await until(
        () =>
          ctrl.lastRendered !== before &&
          ctrl.lastRendered?.reason === "update" &&
          ctrl.lastRendered.total > before.total,
        60_000,
        `append ${seq} of ${name} in the timeline`,
      );
      return Date.now();
    })();
    const shown = (async () => {
      await until(
        () =>
          folder.entries === seq &&
          folder.plan?.phases[0].tasks[0].status === status &&
          vscode.languages.getDiagnostics(uri).some((d) => d.range.start.line === seq - 1),
        60_000,
        `append ${seq} of ${name} in the tree and Problems`,
      );
      return Date.now();
    })();
    const written = await append(folder.cwd, task, status);
    if (written.seq !== seq) throw new Error(`append to ${name} wrote seq ${written.seq}, expected ${seq}`);
    timeline.push((await painted) - written.replacedAtMs);
    treeAndProblems.push((await shown) - written.replacedAtMs);
    await sleep(300);
  }
  return { folder: name, timeline, treeAndProblems };
}
