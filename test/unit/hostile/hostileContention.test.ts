/**
 * Issue 21's regression: AutoDev writes the ledger by atomic replace on every
 * append, so a guarded read that treats "the file was replaced while it was
 * opened" as an error fails legitimate callers under load. Three loops of our
 * `append … --lock-timeout 60` beside a Python AutoDev append loop (AutoDev's
 * own PlanManager.ledger_append with AUTODEV_PY_SRC set, else the
 * reproduction in concurrent_writer.py), with CLI readers (`verify`, `status`)
 * and the worker's live refresh (LedgerSession) reading all the while, on a
 * machine kept busy by two CPU burners: no call fails, no entry is lost or doubled.
 */
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as path from "node:path";
import { LedgerSession } from "../../../src/core/sources/autodev/ledger/ledgerSession";
import { verifyLedger } from "../../../src/core/sources/autodev/ledger/ledgerReader";
import {
  hostileRoot,
  REPO,
  runChild,
  runCliAsync,
  withCpuBurners,
  type ChildRun,
} from "../../helpers/hostileWorkspace";

const PER_WRITER = 25;
const PYTHON = process.env.AUTODEV_PYTHON ?? "python3";

/** Runs `step(i)` for i = 0…n-1 one after another, keeping every failed run. */
async function loop(n: number, step: (i: number) => Promise<ChildRun>, failed: ChildRun[]): Promise<number> {
  for (let i = 0; i < n; i++) {
    const r = await step(i);
    if (r.code !== 0) failed.push(r);
  }
  return n;
}

describe("hostile: our writers and a Python writer on a loaded machine @slow", function () {
  this.timeout(240_000);

  it("3 CLI append loops beside a Python AutoDev append loop, with readers racing them: no call fails, nothing lost", async () => {
    const h = hostileRoot("python-small");
    try {
      const ledger = h.at("plan-ledger.jsonl");
      const entriesBefore = fs.readFileSync(ledger, "utf8").split("\n").filter(Boolean).length;
      const failed: ChildRun[] = [];
      const liveErrors: string[] = [];
      let calls = 0;
      let refreshes = 0;
      let writer = "";
      await withCpuBurners(async () => {
        let writing = true;
        const writers = ["A", "B", "C"].map((tag) =>
          loop(
            PER_WRITER,
            (i) =>
              runCliAsync([
                "append",
                h.ws,
                "impl_tournament_complete",
                "--payload",
                JSON.stringify({ writer: tag, n: i }),
                "--lock-timeout",
                "60",
              ]),
            failed,
          ),
        );
        const python = runChild(PYTHON, [
          path.join(REPO, "test/python/tools/concurrent_writer.py"),
          h.ws,
          String(PER_WRITER),
          "P",
        ]);
        const readers = (["verify", "status", "status"] as const).map(async (cmd) => {
          let n = 0;
          while (writing) {
            const r = await runCliAsync([cmd, h.ws]);
            if (r.code !== 0) failed.push(r);
            n++;
          }
          return n;
        });
        const live = (async () => {
          const session = new LedgerSession(h.ws);
          while (writing) {
            try {
              await session.refresh();
              if (!session.report.ok) liveErrors.push(JSON.stringify(session.report.errors[0]));
            } catch (e) {
              liveErrors.push(String(e));
            }
            refreshes++;
          }
        })();
        const py = await python;
        writer = py.out.split("\n")[0];
        if (py.code !== 0) failed.push(py);
        calls += (await Promise.all(writers)).reduce((a, b) => a + b, 0) + PER_WRITER;
        writing = false;
        calls += (await Promise.all(readers)).reduce((a, b) => a + b, 0);
        await live;
      });
      const seen = new Map<string, number>();
      const { report } = await verifyLedger(h.ws, {
        onEntry: (_s, e) => {
          const w = e?.payload.get("writer");
          if (typeof w === "string") {
            const key = `${w}:${String(e!.payload.get("n"))}`;
            seen.set(key, (seen.get(key) ?? 0) + 1);
          }
        },
      });
      const lost = 4 * PER_WRITER - seen.size;
      console.log(
        `      ${writer}: ${calls} calls (${3 * PER_WRITER} CLI appends, ${PER_WRITER} Python appends, the rest CLI verify/status), ${refreshes} live refreshes; ` +
          `${failed.length} failed, ${liveErrors.length} live-refresh errors, ${lost} entries lost`,
      );
      assert.deepEqual(
        failed.map((r) => r.err.trim() || `exit ${r.code}`),
        [],
        "no call fails",
      );
      assert.deepEqual(liveErrors, [], "the live refresh never fails or shows an error");
      assert.ok(report.ok, JSON.stringify(report.errors[0]));
      assert.equal(lost, 0, "no entry lost");
      assert.ok(
        [...seen.values()].every((n) => n === 1),
        "no entry doubled",
      );
      assert.equal(report.entries, entriesBefore + 4 * PER_WRITER);
    } finally {
      h.cleanup();
    }
  });
});
