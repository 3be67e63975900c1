/**
 * The default-mode AutoDev run (test/fixtures/autodev-default-run/, issue 31) replayed live into a workspace
 * folder open in VS Code: a stand-in AutoDev process (liveReplay.ts) makes every write AutoDev made during
 * `plan`, `execute` and the failure cases, at its recorded pace, and pauses where the snapshots were taken.
 * At each snapshot point the Plan view (task statuses and retries, the running row and the run status item
 * with what AutoDev is doing, every tournament's passes, winners, judges and worktrees), the ledger's entry
 * count on the root and in the timeline, and Problems must say what AutoDev recorded about that state
 * (autodev-answers.json). Between them the editor is sampled every 50 ms and on every tree and Problems
 * change: no Problem may show that later goes away, no error, no task status AutoDev never wrote or one out
 * of order. Killed, the folder must show what AutoDev left (a worktree, a temp file; for the lock, nothing)
 * and what to do. The time from each write to the tree row, the status bar, the timeline and Problems is
 * printed (p50/p95).
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as vscode from "vscode";
import type { StateApi } from "../../../../src/extension/extension";
import { defaultRunAnswers, materializeDefaultRun } from "../../../helpers/defaultRun";
import { type Seen, percentiles, problemsUnder, seeFolder } from "./editorView";
import { autodevOf, report, stateApi } from "../../helpers";
import { type ReplayedEvent, snapshotPoints, startReplay } from "./liveReplay";
import { TRUE_HAZARDS, type TimelineReport, disagreements } from "./liveReplayAnswers";
import { type Latencies, measureLatencies, midRunFalsehoods } from "./liveReplayChecks";
import { addWorkspaceFolders, removeWorkspaceFolders } from "../../workspaceFolders";

/** A recording replayed: from which snapshot, pausing at which, ending (exit or SIGKILL) at which. */
interface Case {
  readonly command: string;
  readonly argv: "plan" | "execute" | "resume";
  readonly from: string;
  readonly pauses: readonly string[];
  readonly final: string;
  readonly end: "exit" | "kill";
  /** A gap between two writes longer than this is cut to it (bounded speed-up); undefined: real speed. */
  readonly gapCapMs?: number;
}

describe("AutoDev default run replayed live in the editor", function () {
  this.timeout(600_000);
  let a: StateApi;
  const all: Latencies[] = [];
  const runItem = () => autodevOf(a).run.status.text;

  before(async () => {
    a = await stateApi();
  });

  after(() => {
    const pick = (k: keyof Latencies) => all.flatMap((l) => l[k]);
    report("write → editor, all replays (the test samples the views every 50 ms in the same extension host):");
    for (const k of [
      "treeRow",
      "treeEntries",
      "statusBar",
      "timeline",
      "runShown",
      "runCleared",
      "problems",
    ] as const) {
      report(`  ${k}: ${percentiles(pick(k))}`);
    }
  });

  let timelineRows: (() => TimelineReport | null) | null = null;
  const autodevTimeline = () => (timelineRows ? timelineRows() : null);

  async function agrees(dir: string, step: string, running: boolean, ev: ReplayedEvent | null): Promise<void> {
    let last: string[] = [];
    const until = Date.now() + 15_000;
    let ok = false;
    while (!ok && Date.now() < until) {
      last = await disagreements(a, dir, step, running, ev, { runItem, timeline: timelineRows });
      ok = last.length === 0;
      if (!ok) await new Promise((r) => setTimeout(r, 100));
    }
    assert.ok(
      ok,
      `${step}${running ? " (AutoDev running)" : ""}: the editor disagrees with AutoDev:\n  ${last.join("\n  ")}`,
    );
  }

  async function replayCase(c: Case): Promise<void> {
    const dir = materializeDefaultRun(c.from);
    const { points, after } = snapshotPoints(c.from, c.command, [...c.pauses, c.final]);
    for (const step of [...c.pauses, c.final]) {
      assert.ok(points.has(step), `replaying live-${c.command} never reaches ${step}'s .autodev/`);
      const count = defaultRunAnswers(step).recorded.ledger;
      if ("count" in count) assert.equal(after[points.get(step)!].entries, count.count, `${step}: ledger entries`);
    }
    const name = `live-${c.command}`;
    await addWorkspaceFolders([{ dir, name }]);
    let samples: Seen[] = [];
    const timelines: Array<{ at: number; matched: number | null }> = [];
    const subs: vscode.Disposable[] = [];
    let timer: NodeJS.Timeout | undefined;
    try {
      await agrees(dir, c.from, false, null);
      // A timeline panel an earlier suite left open would keep its own folder (and its last report):
      // this case's timeline is a new panel opened on this folder. Closing the editors alone is not
      // enough: the extension host may hear of the panel's disposal only after the next command ran.
      a.timeline.close();
      await vscode.commands.executeCommand("workbench.action.closeAllEditors");
      const ctrl = (await vscode.commands.executeCommand("autodev.showTimeline", vscode.Uri.file(dir).toString())) as {
        lastRendered: TimelineReport | null;
      };
      timelineRows = () => ctrl.lastRendered ?? null;
      let busy = false;
      const sample = async () => {
        if (busy) return;
        busy = true;
        try {
          const shown = autodevTimeline();
          const own = shown?.sourceKey?.startsWith(`${vscode.Uri.file(dir).toString()}|`) ?? false;
          timelines.push({ at: Date.now(), matched: own ? (shown?.matched ?? null) : null });
          samples.push(await seeFolder(a, dir, runItem));
        } finally {
          busy = false;
        }
      };
      subs.push(a.tree.onDidChangeTreeData(() => void sample()));
      subs.push(vscode.languages.onDidChangeDiagnostics(() => void sample()));
      timer = setInterval(() => void sample(), 50);
      const replay = await startReplay(dir, c.command, {
        argv: c.argv,
        gapCapMs: c.gapCapMs,
        pauseAt: c.pauses.map((s) => points.get(s)!),
      });
      await new Promise((r) => setTimeout(r, 300));
      samples = samples.filter((s) => s.runItem === null || !s.runItem.includes(name)); // from here on
      replay.go();
      for (const step of c.pauses) {
        const i = await replay.nextPause();
        assert.equal(i, points.get(step));
        await agrees(dir, step, true, after[i]);
        replay.go();
      }
      await replay.done;
      const endedAt = c.end === "kill" ? await replay.kill() : await replay.exit();
      await agrees(dir, c.final, false, after[after.length - 1]);
      clearInterval(timer);
      const falsehoods = midRunFalsehoods(samples, after, replay.made);
      assert.deepEqual(falsehoods, [], `${c.command}: shown while AutoDev ran, not true`);
      const lat = measureLatencies(samples, timelines, after, replay.made, endedAt, name);
      all.push(lat);
      report(`${c.command}: ${samples.length} samples of the editor over ${after.length} writes`);
      for (const [k, v] of Object.entries(lat)) if (v.length) report(`  ${k}: ${percentiles(v)}`);
      if (c.end === "kill") {
        for (const p of problemsUnder(dir).filter((x) => !TRUE_HAZARDS.has(x.code))) {
          assert.match(p.message, /git worktree remove --force|Delete it/, `${p.code}: says what to do`);
        }
      }
    } finally {
      clearInterval(timer);
      for (const s of subs) s.dispose();
      timelineRows = null;
      await vscode.commands.executeCommand("workbench.action.closeAllEditors");
      await removeWorkspaceFolders(a, [dir]);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }

  it("autodev plan at its real speed: the plan tournament pass by pass, then the stored plan", () =>
    replayCase({
      command: "plan",
      argv: "plan",
      from: "00-init",
      pauses: ["01-plan-tournament-pass-2"],
      final: "02-plan-stored",
      end: "exit",
    }));

  it("autodev execute (gaps over 2 s cut to 2 s): every snapshot's tasks, tournaments, running state and Problems", () =>
    replayCase({
      command: "execute",
      argv: "execute",
      from: "02-plan-stored",
      pauses: [
        "03-1.1-developer",
        "04-1.1-tournament-worktree-b",
        "05-1.2-reviewer-after-retry",
        "06-1.2-tournament-pass-2-judge",
        "07-3.1-critic",
      ],
      final: "08-run-done",
      end: "exit",
      gapCapMs: 2000,
    }));

  it("killed in the impl tournament: the worktree it left and how to remove it", () =>
    replayCase({
      command: "killed-in-tournament",
      argv: "execute",
      from: "02-plan-stored",
      pauses: [],
      final: "12-killed-in-tournament",
      end: "kill",
    }));

  it("killed holding .autodev/.lock: running while it holds it, nothing left once the kernel drops it", () =>
    replayCase({
      command: "killed-holding-lock",
      argv: "execute",
      from: "02-plan-stored",
      pauses: [],
      final: "13-killed-holding-lock",
      end: "kill",
    }));

  it("killed mid-write: the temp file it left and that it can be deleted", () =>
    replayCase({
      command: "killed-mid-write",
      argv: "execute",
      from: "02-plan-stored",
      pauses: [],
      final: "14-killed-mid-write",
      end: "kill",
    }));

  it("a failed agent call, retried (gaps over 2 s cut to 2 s): the retries, nothing false", () =>
    replayCase({
      command: "agent-call-failed",
      argv: "execute",
      from: "02-plan-stored",
      pauses: [],
      final: "10-agent-call-failed",
      end: "exit",
      gapCapMs: 2000,
    }));
});
