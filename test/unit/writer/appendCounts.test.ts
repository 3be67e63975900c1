/**
 * One append to an AutoDev ledger costs the editor at most 2 worker round trips and 1 open of the
 * ledger (issue 30): the
 * refresh that reads the new bytes and everything else `.autodev/` holds, and nothing after it —
 * no follow-up requests for history warnings, the contract, the last changes or the run view, no
 * plan sent back, no lock poll while nothing runs — and the views are told of it once, also when
 * the watcher tells the write twice. Counted over the real adapters (appendCounts.ts).
 */
import { strict as assert } from "node:assert";
import { countAppends } from "../../helpers/appendCounts";

describe("an append costs the editor at most 2 worker round trips and 1 ledger open @slow", function () {
  this.timeout(120_000);

  it("counts each append's requests from the append until a settle spell passed", async () => {
    const counts = await countAppends(3, 1200);
    for (const c of counts) {
      assert.ok(c.roundTrips >= 1, `nothing was asked: ${JSON.stringify(c)}`);
      assert.ok(c.roundTrips <= 2, `more than 2 round trips: ${JSON.stringify(c.requests)}`);
      assert.equal(c.requests["source:runView"], undefined, "the run view came with the refresh");
      assert.ok(c.ledgerOpens <= 1, `the ledger was opened ${c.ledgerOpens} times`);
      assert.equal(c.repaints, 1, "the views were told once");
    }
  });

  it("a write told twice (a replace's two events) is read at most twice and repainted once", async () => {
    const counts = await countAppends(3, 1200, 2);
    for (const c of counts) {
      assert.ok((c.requests["source:refresh"] ?? 0) <= 2, `more than 2 refreshes: ${JSON.stringify(c.requests)}`);
      assert.equal(c.repaints, 1, `the views were told ${c.repaints} times: ${JSON.stringify(c.requests)}`);
    }
  });
});
