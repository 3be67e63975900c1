/**
 * Differential test of ledger verification, replay and load against a Python
 * reference (test/python/oracles/ledger_reference.py: json + hashlib + pydantic, the
 * way Python AutoDev reads its ledger) over hundreds of seeded mutations of
 * Python-written ledgers: raw damage (dropped, duplicated, swapped, flipped,
 * truncated lines, odd whitespace and newlines) and semantic edits re-chained
 * with valid hashes (coercible and invalid payload values, bad plans, unknown
 * tasks and ops, type-lax fields), so replay and load semantics are exercised.
 */
import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { verifyLedger, loadPlan } from "../../../src/core/sources/autodev/ledger/ledgerReader";
import { LedgerCorruptError } from "../../../src/core/errors";
import { parsePyJson } from "../../../src/core/pyjson/pyJsonParse";
import { dumpsSorted } from "../../../src/core/pyjson/pyJsonDump";
import { planToPy } from "../../../src/core/sources/autodev/plan/schemas";
import { PyValue } from "../../../src/core/pyjson/pyValue";
import { mutateLedger, snapshotNeighbourEdits } from "../writer/ledgerMutations";
import { SeededRandom } from "../../../src/core/seededRandom";

const PLAN_MANAGER_SAMPLE = path.join(__dirname, "../../../../test/fixtures/plan-manager-snapshots/plan-ledger.jsonl");
const FIXTURES = [
  ...["python-small", "python-evidence"].map((n) =>
    path.join(__dirname, "../../../../test/fixtures", n, ".autodev/plan-ledger.jsonl"),
  ),
  // Written by Python AutoDev's PlanManager: a snapshot of the whole plan after every status change.
  PLAN_MANAGER_SAMPLE,
];
const CASES_PER_FIXTURE = 250;

interface PyOut {
  entries: number;
  first: { line: number | null; seq: number | null; kind: string } | null;
  replay: PyValue;
  load: PyValue;
  load_error: string | null;
}

function canon(v: PyValue | null): string {
  return v === null ? "null" : dumpsSorted(v);
}

describe("ledger verify/replay/load vs the Python reference", function () {
  this.timeout(120_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ledger-diff-"));
  const cases: { name: string; root: string; mutation: string }[] = [];

  before(() => {
    const rng = new SeededRandom(20261130);
    for (const fixture of FIXTURES) {
      const base = fs.readFileSync(fixture);
      const name =
        fixture === PLAN_MANAGER_SAMPLE ? "plan-manager" : path.basename(path.dirname(path.dirname(fixture)));
      for (let i = 0; i < CASES_PER_FIXTURE; i++) {
        const { bytes, mutation } = mutateLedger(base, rng);
        const root = path.join(dir, `${name}-${i}`);
        fs.mkdirSync(path.join(root, ".autodev"), { recursive: true });
        fs.writeFileSync(path.join(root, ".autodev/plan-ledger.jsonl"), bytes);
        cases.push({ name: path.basename(root), root, mutation });
      }
    }
    // A snapshot that differs from the one before in one more place than the status the entry
    // between set: every such edit must be caught, as a full check of the snapshot catches it.
    const neighbours = snapshotNeighbourEdits(fs.readFileSync(PLAN_MANAGER_SAMPLE));
    assert.ok(neighbours.length >= 24, `only ${neighbours.length} snapshot-neighbour edits`);
    neighbours.forEach(({ bytes, mutation }, i) => {
      const root = path.join(dir, `plan-manager-neighbour-${i}`);
      fs.mkdirSync(path.join(root, ".autodev"), { recursive: true });
      fs.writeFileSync(path.join(root, ".autodev/plan-ledger.jsonl"), bytes);
      cases.push({ name: path.basename(root), root, mutation });
    });
  });

  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("agrees on the first error (kind, line, seq), the replayed plan and the loaded plan @slow", async () => {
    const script = path.join(__dirname, "../../../../test/python/oracles/ledger_reference.py");
    const files = cases.map((c) => path.join(c.root, ".autodev/plan-ledger.jsonl"));
    const outLines = execFileSync("python3", [script, ...files], { encoding: "utf8", maxBuffer: 1 << 30 })
      .trim()
      .split("\n");
    assert.equal(outLines.length, cases.length);
    const failures: string[] = [];
    const kinds = new Map<string, number>();
    for (let i = 0; i < cases.length; i++) {
      const c = cases[i];
      const py = JSON.parse(outLines[i]) as PyOut;
      const pyFull = parsePyJson(outLines[i]) as Map<string, PyValue>;
      const { report, plan } = await verifyLedger(c.root);
      const first = report.errors[0] ?? null;
      kinds.set(py.first?.kind ?? "ok", (kinds.get(py.first?.kind ?? "ok") ?? 0) + 1);
      const where = `${c.name} (${c.mutation})`;
      if ((py.first === null) !== (first === null)) {
        failures.push(
          `${where}: python ${JSON.stringify(py.first)} vs ours ${JSON.stringify(first && { kind: first.kind, line: first.line, msg: first.message })}`,
        );
        continue;
      }
      if (py.first && first) {
        const sameLine = py.first.line === null || py.first.line === first.line;
        const sameSeq = py.first.seq === null || Number(first.seq) === py.first.seq;
        if (py.first.kind !== first.kind || !sameLine || !sameSeq) {
          failures.push(
            `${where}: python ${JSON.stringify(py.first)} vs ours ${JSON.stringify({ kind: first.kind, line: first.line, seq: String(first.seq), msg: first.message })}`,
          );
          continue;
        }
      } else {
        if (py.entries !== report.entries) {
          failures.push(`${where}: entries python ${py.entries} ours ${report.entries}`);
        }
        const ours = canon(plan ? planToPy(plan) : null);
        if (ours !== canon(pyFull.get("replay") ?? null)) failures.push(`${where}: replayed plans differ`);
      }
      let ourLoad: string;
      let ourLoadError: string | null = null;
      try {
        const r = await loadPlan(c.root);
        ourLoad = canon(r.plan ? planToPy(r.plan) : null);
      } catch (e) {
        if (!(e instanceof LedgerCorruptError)) throw e;
        ourLoad = "null";
        ourLoadError = e.problem?.kind ?? "?";
      }
      if (ourLoadError !== py.load_error) {
        failures.push(`${where}: load error python ${py.load_error} ours ${ourLoadError}`);
      } else if (!ourLoadError && ourLoad !== canon(pyFull.get("load") ?? null)) {
        failures.push(`${where}: loaded plans differ`);
      }
    }
    assert.deepEqual(failures, [], `${failures.length} disagreements:\n${failures.slice(0, 20).join("\n")}`);
    console.log(`      outcomes: ${[...kinds].map(([k, n]) => `${k} ${n}`).join(", ")}`);
    // The corpus must exercise many kinds of outcome, or the test proves little.
    assert.ok(kinds.size >= 8, `too few outcome kinds: ${[...kinds.keys()].join(", ")}`);
  });
});
