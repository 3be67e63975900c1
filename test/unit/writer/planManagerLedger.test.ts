/**
 * The bench's PlanManager ledger (bench/planManagerLedger.ts: every status
 * change an `update_task_status` entry and a snapshot of the whole plan) is
 * what Python AutoDev's own PlanManager writes, byte for byte: against the
 * sample it wrote (test/fixtures/plan-manager-snapshots/), and against a
 * fresh run of it when AUTODEV_PY_SRC and AUTODEV_PYTHON are set.
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { verifyLedger } from "../../../src/core/sources/autodev/ledger/ledgerReader";
import { planOfTasks } from "../../../bench/planManagerLedger";
import { skipUnless } from "../../helpers/environmentNeeds";
import {
  SAMPLE,
  SAMPLE_DIR,
  SampleRecipe,
  generatorLedger,
  realAutodev,
  runRealPlanManager,
} from "../helpers/planManagerSample";

/** Line `k` where `a` and `b` first differ, with the bytes around it. */
function firstDifference(a: string, b: string): string {
  const x = a.split("\n");
  const y = b.split("\n");
  for (let k = 0; k < Math.max(x.length, y.length); k++) {
    if (x[k] === y[k]) continue;
    let j = 0;
    while (x[k]?.[j] === y[k]?.[j]) j++;
    return `line ${k + 1} at ${j}: AutoDev …${x[k]?.slice(Math.max(0, j - 80), j + 60)}… generator …${y[k]?.slice(Math.max(0, j - 80), j + 60)}…`;
  }
  return "no difference";
}

describe("bench PlanManager ledger against Python AutoDev's PlanManager", () => {
  it("writes the bytes AutoDev wrote in the committed sample, with the clock values it read", () => {
    const ledger = fs.readFileSync(path.join(SAMPLE_DIR, "plan-ledger.jsonl"), "utf8");
    const clock = JSON.parse(fs.readFileSync(path.join(SAMPLE_DIR, "clock.json"), "utf8")) as string[];
    const g = generatorLedger(SAMPLE, clock);
    assert.equal(g.clockRead, clock.length, "the generator reads the clock exactly where Python did");
    assert.ok(g.text === ledger, firstDifference(ledger, g.text));
    // The sample covers what the shape is made of.
    const calls = g.calls.map((c) => c.call);
    for (const kind of ["update_task_status", "mark_task_retry", "mark_escalated", "save"]) {
      assert.ok(calls.includes(kind as never), `the sample has a ${kind}`);
    }
    assert.ok(g.calls.some((c) => c.call === "update_task_status" && c.unchecked));
    const lines = ledger
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as { op: string });
    assert.equal(lines.filter((l) => l.op === "snapshot").length, g.calls.length + 1);
  });

  it("verifies the sample as AutoDev would read it: ok, every line, a warning per refused move", async () => {
    const ws = fs.mkdtempSync(path.join(os.tmpdir(), "pm-sample-verify-"));
    try {
      fs.mkdirSync(path.join(ws, ".autodev"));
      fs.copyFileSync(path.join(SAMPLE_DIR, "plan-ledger.jsonl"), path.join(ws, ".autodev", "plan-ledger.jsonl"));
      const { report } = await verifyLedger(ws);
      assert.equal(report.ok, true);
      assert.equal(report.entries, 62);
      assert.ok(report.warnings.every((w) => w.kind === "fsm_violation"));
      assert.ok(report.warnings.length > 0);
    } finally {
      fs.rmSync(ws, { recursive: true, force: true });
    }
  });

  it("writes what real AutoDev writes now, for a bigger plan (AUTODEV_PY_SRC and AUTODEV_PYTHON) @slow", function () {
    const autodev = realAutodev();
    skipUnless(this, autodev !== null, "Python AutoDev: AUTODEV_PY_SRC and AUTODEV_PYTHON");
    this.timeout(120_000);
    const recipe: SampleRecipe = {
      params: {
        plan: planOfTasks(24, { descriptionWords: 12, criteria: 3, files: 4 }),
        illegal: 0.3,
        failChance: 0.3,
        retryLimit: 3,
      },
      seeds: { plan: 7, calls: 11 },
      session: "sess-fresh-run",
      calls: 70,
    };
    const real = runRealPlanManager(recipe, autodev!);
    const g = generatorLedger(recipe, real.clock);
    assert.equal(g.clockRead, real.clock.length);
    assert.ok(g.text === real.ledger, firstDifference(real.ledger, g.text));
  });
});
