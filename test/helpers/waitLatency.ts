/**
 * How long after AutoDev suspends for the next role the editor knows whom the run waits on (the
 * wait notification, the badge and the tree's lead row all follow `StateFolders.waiting`): the
 * editor's path (appendCounts.ts' harness) opened on Python AutoDev's own state as it waited on the
 * developer of 1.1 (test/fixtures/autodev-real-run/06-…), then the files AutoDev wrote on its way
 * to waiting on the reviewer (07-…) written in AutoDev's order, each by an atomic replace and told
 * to the editor's watchers as it is written; timed from the last write (inline-state.json) until
 * `waiting` names the reviewer. The editor's own watcher delay (code-server: 75–130 ms) is not in it.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { openEditorHarness } from "./appendCounts";

const RUN = path.join(__dirname, "../../../test/fixtures/autodev-real-run");
/** What AutoDev wrote between the two suspensions, in its order (the wait is inline-state.json's). */
const WRITES = [
  ".autodev/responses/1.1-developer.json",
  ".autodev/evidence/1.1.patch",
  ".autodev/evidence/1.1-developer.json",
  ".autodev/plan-ledger.jsonl",
  ".autodev/plan.json",
  ".autodev/delegations/1.1-reviewer.md",
  ".autodev/inline-state.json",
];

/** Milliseconds from AutoDev's last write until the editor waits on the reviewer, for each of `runs`. */
export async function waitLatencies(runs = 5, gapMs = 40): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "wait-latency-")));
    fs.cpSync(path.join(RUN, "06-1.1-developer-waiting/workspace"), ws, { recursive: true });
    const h = await openEditorHarness(ws);
    try {
      const waitingOn = () => h.folders.waiting.map((w) => `${w.waiting.who}:${w.waiting.taskId}`).join(",");
      for (let t = 0; t < 2000 && !/developer:1\.1/.test(waitingOn()); t++) await new Promise((r) => setTimeout(r, 10));
      if (!/developer:1\.1/.test(waitingOn())) throw new Error(`never waited on the developer: ${waitingOn()}`);
      await new Promise((r) => setTimeout(r, 1500));
      let last = 0;
      for (const rel of WRITES) {
        const to = path.join(ws, rel);
        fs.mkdirSync(path.dirname(to), { recursive: true });
        fs.copyFileSync(path.join(RUN, "07-1.1-reviewer-waiting/workspace", rel), `${to}.tmp`);
        fs.renameSync(`${to}.tmp`, to);
        last = performance.now();
        h.fire(to);
        await new Promise((r) => setTimeout(r, gapMs));
      }
      while (!/reviewer:1\.1/.test(waitingOn())) {
        if (performance.now() - last > 30_000) throw new Error(`never waited on the reviewer: ${waitingOn()}`);
        await new Promise((r) => setTimeout(r, 5));
      }
      out.push(performance.now() - last);
    } finally {
      h.dispose();
      fs.rmSync(ws, { recursive: true, force: true });
    }
  }
  return out;
}
