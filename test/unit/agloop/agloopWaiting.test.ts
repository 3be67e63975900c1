/**
 * agloop's "waits on you" (agloopWaiting.ts) on the lifecycle run written by RUNNING the install's hook
 * scripts (test/fixtures/agloop-lifecycle/): the run waits on the user only at the approval gate
 * (the stop the run kept at it), with the question the install's SessionStart hook relays as its
 * "Pending decision"; the user's approval the run logged next ends the wait; a gate whose question
 * was lost is no wait (the contract's reentry_unclear says so instead). The tree leads with it.
 */
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as path from "node:path";
import { agloopSource } from "../../../src/core/sources/agloop/agloopSource";
import { copiedLocation } from "../helpers/agloopFixtures";
import { REPO_ROOT } from "../fixtures";

const LIFECYCLE = path.join(REPO_ROOT, "test/fixtures/agloop-lifecycle");
const STOPS = fs.readdirSync(LIFECYCLE).sort();
const GATE = STOPS.find((s) => s.endsWith("-critique-gate"))!;

/** The "Pending decision: …" the install's SessionStart hook said at `stop`. */
function hookPendingDecision(stop: string): string | null {
  const said = JSON.parse(fs.readFileSync(path.join(LIFECYCLE, stop, "session-start.json"), "utf8")) as {
    instructions: string;
  };
  return /Pending decision: (.*?)\. Last delegation:/.exec(said.instructions)?.[1] ?? null;
}

describe("agloop waits on you at the approval gate", () => {
  it("waits at the approval gate only, on the question the SessionStart hook relays", async () => {
    assert.ok(GATE, "the lifecycle has an approval-gate stop");
    for (const stop of STOPS) {
      const loc = copiedLocation(`agloop-lifecycle/${stop}`);
      const w = await agloopSource.waiting!(loc);
      const tree = await agloopSource.tree(loc);
      if (stop !== GATE) {
        assert.equal(w, null, `${stop}: ${w?.what}`);
        assert.ok(!tree.some((n) => n.id === "agloop/waiting"), stop);
        continue;
      }
      const question = hookPendingDecision(stop);
      assert.ok(question, "the hook relays a pending decision");
      assert.equal(w?.who, "you");
      assert.ok(w.what.includes(question.slice(0, 100)), `${w.what} vs ${question}`);
      assert.deepEqual(w.files, [".agloop/state.json"]);
      assert.equal(tree[0].id, "agloop/waiting", "the wait leads the tree");
      assert.equal(tree[0].target?.kind, "file");
    }
  });

  it("the approval the run logged next ends the wait", async () => {
    const loc = copiedLocation(`agloop-lifecycle/${GATE}`);
    const next = STOPS[STOPS.indexOf(GATE) + 1];
    const log = path.join(loc.dir, "log.json");
    const before = fs.readFileSync(log, "utf8").split("\n").filter(Boolean);
    const after = fs
      .readFileSync(path.join(LIFECYCLE, next, ".agloop/log.json"), "utf8")
      .split("\n")
      .filter(Boolean);
    const approval = after.slice(before.length).filter((l) => /approv/i.test(l));
    assert.equal(approval.length, 1, `the user's approval between ${GATE} and ${next}`);
    assert.ok(await agloopSource.waiting!(loc));
    fs.appendFileSync(log, `${approval[0]}\n`);
    assert.equal(await agloopSource.waiting!(loc), null);
  });

  it("no wait when the gate's question is lost, or state.json is not readable", async () => {
    const loc = copiedLocation(`agloop-lifecycle/${GATE}`);
    const file = path.join(loc.dir, "state.json");
    const state = JSON.parse(fs.readFileSync(file, "utf8")) as { compaction_context: { pending_decision: string } };
    state.compaction_context.pending_decision = "";
    fs.writeFileSync(file, JSON.stringify(state, null, 2));
    assert.equal(await agloopSource.waiting!(loc), null);
    assert.ok((await agloopSource.check(loc)).some((p) => p.code === "reentry_unclear"));
    fs.writeFileSync(file, "{ torn");
    assert.equal(await agloopSource.waiting!(loc), null);
  });
});
