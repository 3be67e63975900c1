/**
 * Differential test: our zod schemas against real pydantic v2 (test/python/pydantic_oracle.py).
 *
 * A seeded corpus of valid and mutated Plan / Phase / Task / AcceptanceCriterion /
 * LedgerEntry / Evidence inputs goes through one python3 process and through ours.
 * Accept/reject must agree; accepted dumps must be identical (compared through a
 * canonical form that keeps int vs float, -0.0, NaN and key order); rejected inputs
 * must give the same error locs and types, in the same order.
 * Fails (never skips) if python3 or pydantic is missing.
 */
import * as assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import * as path from "node:path";
import { evidenceToPy, validateEvidence } from "../../src/core/evidenceSchemas";
import { PyValidated } from "../../src/core/pyCoerce";
import { pyJsonDumps } from "../../src/core/pyJsonDump";
import { parsePyJson } from "../../src/core/pyJsonParse";
import { PyFloat, PyObject, PyValue, isPyObject, pyInt } from "../../src/core/pyValue";
import * as S from "../../src/core/schemas";

/** Where the oracle lives, from out/test/unit or test/unit. */
function oraclePath(): string {
  for (const up of ["../..", "../../.."]) {
    const p = path.resolve(__dirname, up, "test/python/pydantic_oracle.py");
    if (existsSync(p)) return p;
  }
  throw new Error("test/python/pydantic_oracle.py not found");
}

type ModelName = "Plan" | "Phase" | "Task" | "AcceptanceCriterion" | "LedgerEntry" | "Evidence";

/** Our validate + dump for each oracle model name. */
const OURS: Record<ModelName, (v: PyValue) => PyValidated<PyObject>> = {
  Plan: (v) => mapOk(S.validatePlan(v), S.planToPy),
  Phase: (v) => mapOk(S.validatePhase(v), S.phaseToPy),
  Task: (v) => mapOk(S.validateTask(v), S.taskToPy),
  AcceptanceCriterion: (v) => mapOk(S.validateAcceptanceCriterion(v), S.criterionToPy),
  LedgerEntry: (v) => mapOk(S.validateLedgerEntry(v), S.ledgerEntryToPy),
  Evidence: (v) => mapOk(validateEvidence(v), evidenceToPy),
};

function mapOk<T>(r: PyValidated<T>, dump: (t: T) => PyObject): PyValidated<PyObject> {
  return r.ok ? { ok: true, value: dump(r.value) } : r;
}

/** A canonical text of a PyValue: distinguishes int/float, -0.0, NaN; keeps key order. */
function canon(v: PyValue | undefined): string {
  if (v === undefined) return "<undefined>";
  if (v === null) return "N";
  if (typeof v === "boolean") return v ? "T" : "F";
  if (typeof v === "number" || typeof v === "bigint") return `i${String(v)}`;
  if (typeof v === "string") return JSON.stringify(v);
  if (v instanceof PyFloat) return `f${Object.is(v.value, -0) ? "-0" : String(v.value)}`;
  if (Array.isArray(v)) return `[${v.map(canon).join(",")}]`;
  return `{${[...v].map(([k, x]) => `${JSON.stringify(k)}:${canon(x)}`).join(",")}}`;
}

/** Runs every request through the oracle in one python3 process. */
function runOracle(lines: string[]): PyObject[] {
  const res = spawnSync("python3", [oraclePath()], {
    input: lines.join("\n") + "\n",
    encoding: "utf8",
    maxBuffer: 1 << 30,
  });
  if (res.error) throw new Error(`cannot run python3: ${res.error.message}`);
  assert.equal(res.status, 0, `oracle failed (is pydantic v2 installed?):\n${res.stderr}`);
  const out = res.stdout.split("\n").filter((l) => l.length > 0);
  assert.equal(out.length, lines.length, "oracle answered a different number of lines");
  return out.map((l) => parsePyJson(l) as PyObject);
}

interface Case {
  readonly model: ModelName;
  readonly input: PyValue;
}

/** The corpus: for each model, valid inputs, coercible variants and mutants. */
function buildCorpus(seed: number, perModel: Record<ModelName, number>): Case[] {
  const rng = new Rng(seed);
  const cases: Case[] = [];
  for (const [model, n] of Object.entries(perModel) as [ModelName, number][]) {
    for (let i = 0; i < n; i++) {
      const roll = rng.next();
      let input: PyValue;
      if (roll < 0.03) input = randomAny(rng, 2);
      else {
        input = validInput(rng, model);
        const rounds = roll < 0.3 ? 0 : 1 + rng.int(3);
        for (let k = 0; k < rounds; k++) input = mutate(rng, input, model);
      }
      cases.push({ model, input });
    }
  }
  return cases;
}

describe("schemas vs pydantic (differential)", function () {
  this.timeout(60_000);

  it("python3 has pydantic 2.x", () => {
    const res = spawnSync("python3", ["-c", "import pydantic; print(pydantic.VERSION)"], { encoding: "utf8" });
    assert.equal(res.error, undefined, "python3 is required for the differential test");
    assert.equal(res.status, 0, `pydantic is required: ${res.stderr}`);
    assert.match(res.stdout.trim(), /^2\./);
  });

  it("accepts, rejects and dumps like pydantic on a seeded corpus", () => {
    const started = Date.now();
    const cases = buildCorpus(20260417, {
      Plan: 700,
      Phase: 400,
      Task: 1100,
      AcceptanceCriterion: 300,
      LedgerEntry: 900,
      Evidence: 1400,
    });
    const answers = runOracle(cases.map((c) => `{"model": "${c.model}", "input": ${pyJsonDumps(c.input)}}`));
    const failures: string[] = [];
    let accepted = 0;
    cases.forEach((c, i) => {
      const theirs = answers[i]!;
      const ours = OURS[c.model](c.input);
      const theirOk = theirs.get("ok") === true;
      const where = `#${i} ${c.model} ${pyJsonDumps(c.input).slice(0, 300)}`;
      if (ours.ok !== theirOk) {
        const detail = ours.ok ? `pydantic: ${canon(theirs.get("types"))} at ${canon(theirs.get("locs"))}` : ours.error;
        failures.push(`${where}\n  ours ok=${ours.ok}, pydantic ok=${theirOk}: ${detail}`);
        return;
      }
      if (ours.ok) {
        accepted++;
        const a = canon(ours.value);
        const b = canon(theirs.get("dump"));
        if (a !== b) failures.push(`${where}\n  dump differs\n  ours:     ${a}\n  pydantic: ${b}`);
        return;
      }
      const ourErrs = canon(ours.issues.map((x) => [x.loc, x.type] as PyValue));
      const locs = theirs.get("locs") as PyValue[];
      const types = theirs.get("types") as PyValue[];
      const theirErrs = canon(locs.map((l, j) => [l, types[j]!]));
      if (ourErrs !== theirErrs) failures.push(`${where}\n  errors differ\n  ours:     ${ourErrs}\n  pydantic: ${theirErrs}`);
    });
    const elapsed = Date.now() - started;
    assert.deepEqual(failures.slice(0, 15), [], `${failures.length} of ${cases.length} cases disagree`);
    assert.ok(cases.length >= 3000);
    // Both outcomes must be well represented, or the corpus tests little.
    assert.ok(accepted > cases.length * 0.25 && accepted < cases.length * 0.75, `accepted ${accepted}/${cases.length}`);
    assert.ok(elapsed < 30_000, `took ${elapsed} ms`);
    console.log(`      ${cases.length} cases (${accepted} accepted) in ${elapsed} ms`);
  });
});
