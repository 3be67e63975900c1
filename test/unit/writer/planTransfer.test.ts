/**
 * Plans cross the worker boundary as structured clones: after revival they
 * equal the worker's plan exactly (Maps, bigints, PyFloats included), so the
 * host needs no JSON re-parse and re-validation.
 */
import { strict as assert } from "node:assert";
import * as path from "node:path";
import { loadPlan } from "../../../src/core/sources/autodev/ledger/ledgerReader";
import { revivePlanClone } from "../../../src/core/sources/autodev/plan/planTransfer";
import { PyFloat } from "../../../src/core/pyjson/pyValue";
import { planJsonText } from "../../../src/core/sources/autodev/ledger/ledgerWriter";
import { REPO_ROOT } from "../fixtures";

describe("plan transfer by structured clone", () => {
  for (const fixture of ["python-small", "python-unicode", "python-evidence"]) {
    it(`${fixture}: the revived clone equals the plan and writes the same plan.json bytes`, async () => {
      const { plan } = await loadPlan(path.join(REPO_ROOT, "test/fixtures", fixture));
      assert.ok(plan);
      const revived = revivePlanClone(structuredClone(plan));
      assert.deepStrictEqual(revived, plan);
      assert.equal(planJsonText(revived!), planJsonText(plan));
    });
  }

  it("restores PyFloats and keeps bigints and nested Maps", async () => {
    const { plan } = await loadPlan(path.join(REPO_ROOT, "test/fixtures/python-small"));
    assert.ok(plan);
    plan.metadata.set("ratio", new PyFloat(2));
    plan.metadata.set("big", 2n ** 70n);
    plan.metadata.set("nested", new Map<string, never>([["f", new PyFloat(0.5) as never]]));
    const revived = revivePlanClone(structuredClone(plan))!;
    assert.ok(revived.metadata.get("ratio") instanceof PyFloat);
    assert.equal((revived.metadata.get("ratio") as PyFloat).value, 2);
    assert.equal(revived.metadata.get("big"), 2n ** 70n);
    assert.ok((revived.metadata.get("nested") as Map<string, unknown>).get("f") instanceof PyFloat);
    assert.equal(planJsonText(revived), planJsonText(plan));
    assert.equal(revivePlanClone(null), null);
  });
});
