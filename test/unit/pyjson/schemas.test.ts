/**
 * Unit tests of the boundary models: samples written by Python round-trip byte for
 * byte; defaults; extra="forbid"; lax coercions (facts established with pydantic 2.13);
 * model_dump(mode="json") order and Any handling; evidence union errors.
 */
import * as assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { evidenceToPy, validateEvidence } from "../../../src/core/sources/autodev/evidence/evidenceSchemas";
import {
  PyInput,
  PySchema,
  pyBool,
  pyDict,
  pyFloat,
  pyInt,
  pyList,
  pyLiteral,
  pyModel,
  pyNullable,
  pyStr,
  pyValidate,
} from "../../../src/core/pyjson/pyCoerce";
import { dumpsIndent2, dumpsSorted } from "../../../src/core/pyjson/pyJsonDump";
import { parsePyJson } from "../../../src/core/pyjson/pyJsonParse";
import { PyFloat, PyObject, PyValue } from "../../../src/core/pyjson/pyValue";
import * as S from "../../../src/core/sources/autodev/plan/schemas";
import { PyDumpError } from "../../../src/core/sources/autodev/plan/schemas";

const SAMPLES = "/work/shared/samples";
const f = (x: number) => new PyFloat(x);
const obj = (...kv: [string, PyValue][]): PyObject => new Map(kv);
const TASK = (): PyObject => obj(["id", "1.1"], ["phase_id", "1"], ["title", "t"], ["description", "d"]);
const PLAN = (tasks: PyValue[] = [TASK()]): PyObject =>
  obj(
    ["plan_id", "p"],
    ["spec_hash", "h"],
    ["phases", [obj(["id", "1"], ["title", "P"], ["tasks", tasks])]],
    ["created_at", "c"],
    ["updated_at", "u"],
  );

/** Validates `{x: v}` against a one-field model; returns the value or the error type. */
function one(schema: PySchema<unknown>, v: PyInput): unknown {
  const r = pyValidate(pyModel("M", { x: schema }), obj(...(v === undefined ? [] : [["x", v] as [string, PyValue]])));
  return r.ok ? r.value.x : `!${r.issues.map((i) => i.type).join(",")}`;
}

describe("schemas: Python-written samples", () => {
  for (const ws of readdirSync(SAMPLES).filter((d) => d.startsWith("python-"))) {
    const root = path.join(SAMPLES, ws, ".autodev");

    it(`${ws}: plan.json -> validatePlan -> planToPy -> dumpsIndent2 is byte-identical`, () => {
      const text = readFileSync(path.join(root, "plan.json"), "utf8");
      const r = S.validatePlan(parsePyJson(text));
      assert.ok(r.ok, r.ok ? "" : r.error);
      assert.equal(dumpsIndent2(S.planToPy(r.value)) + "\n", text);
    });

    it(`${ws}: every ledger line re-dumps byte-identically and its self_hash verifies`, () => {
      const lines = readFileSync(path.join(root, "plan-ledger.jsonl"), "utf8").split("\n").filter(Boolean);
      assert.ok(lines.length > 10);
      for (const line of lines) {
        const r = S.validateLedgerEntry(parsePyJson(line));
        assert.ok(r.ok, r.ok ? "" : r.error);
        assert.equal(dumpsSorted(S.ledgerEntryToPy(r.value)), line);
        const hash = createHash("sha256")
          .update(dumpsSorted(S.ledgerEntryHashInput(r.value)), "utf8")
          .digest("hex");
        assert.equal(hash.slice(0, 16), r.value.self_hash);
        if (r.value.op === "snapshot") assert.ok(S.validatePlan(r.value.payload.get("plan") ?? null).ok);
      }
    });

    it(`${ws}: every evidence file re-dumps byte-identically`, () => {
      const dir = path.join(root, "evidence");
      for (const name of readdirSync(dir).filter((n) => n.endsWith(".json"))) {
        const text = readFileSync(path.join(dir, name), "utf8");
        const r = validateEvidence(parsePyJson(text));
        assert.ok(r.ok, `${name}: ${r.ok ? "" : r.error}`);
        assert.equal(dumpsIndent2(evidenceToPy(r.value)), text, name);
        assert.ok(name.endsWith(`-${r.value.kind}.json`));
      }
    });
  }
});

describe("schemas: models, defaults, extra=forbid", () => {
  it("fills Task defaults, fresh per instance", () => {
    const a = S.validateTask(TASK());
    const b = S.validateTask(TASK());
    assert.ok(a.ok && b.ok);
    const t = a.value;
    assert.deepEqual(
      [
        t.status,
        t.files,
        t.acceptance,
        t.depends_on,
        t.retry_count,
        t.escalated,
        t.assigned_agent,
        t.evidence_bundle,
        t.blocked_reason,
      ],
      ["pending", [], [], [], 0, false, null, null, null],
    );
    assert.ok(t.metadata instanceof Map && t.metadata.size === 0);
    t.files.push("x");
    t.metadata.set("k", 1);
    assert.deepEqual(b.value.files, []);
    assert.equal(b.value.metadata.size, 0);
    assert.deepEqual(Object.keys(t), [...S.TaskSchema.fieldNames]);
  });

  it("fills Phase, Plan, criterion and ledger defaults", () => {
    const p = S.validatePlan(PLAN([obj(...TASK(), ["acceptance", [obj(["id", "a"], ["description", "b"])]])]));
    assert.ok(p.ok);
    assert.equal(p.value.content_hash, "");
    assert.equal(p.value.phases[0]!.description, "");
    assert.equal(p.value.phases[0]!.tasks[0]!.acceptance[0]!.met, false);
    const e = S.validateLedgerEntry(
      obj(
        ["seq", 1],
        ["timestamp", "t"],
        ["session_id", "s"],
        ["op", "snapshot"],
        ["prev_hash", ""],
        ["self_hash", "x"],
      ),
    );
    assert.ok(e.ok);
    assert.equal(e.value.payload.size, 0);
    assert.deepEqual(
      [...S.ledgerEntryHashInput(e.value).keys()],
      ["seq", "timestamp", "session_id", "op", "payload", "prev_hash"],
    );
  });

  it("reports missing fields and every extra key, with clear messages", () => {
    const bad = PLAN([TASK(), obj(...TASK(), ["status", "done"], ["zz", 1])]);
    bad.delete("spec_hash");
    const r = S.validatePlan(bad);
    assert.ok(!r.ok);
    assert.deepEqual(
      r.issues.map((i) => [i.loc.join("."), i.type]),
      [
        ["spec_hash", "missing"],
        ["phases.0.tasks.1.status", "literal_error"],
        ["phases.0.tasks.1.zz", "extra_forbidden"],
      ],
    );
    assert.equal(
      r.error.split("\n")[1],
      "phases.0.tasks.1.status: Input should be 'pending', 'in_progress', 'coded', 'auto_gated', 'reviewed', 'tested', 'tournamented', 'complete', 'blocked' or 'skipped' (got 'done')",
    );
    assert.equal(r.error.split("\n")[0], "spec_hash: Field required");
  });

  it("rejects non-dict models and never throws", () => {
    for (const v of [null, 5, "x", [], f(1)] as PyValue[]) {
      const r = S.validatePlan(v);
      assert.ok(!r.ok && r.issues[0]!.type === "model_type" && r.issues[0]!.loc.length === 0);
    }
    const r = S.validatePhase(obj(["id", "1"], ["title", "t"], ["tasks", [5]]));
    assert.ok(!r.ok);
    assert.match(r.error, /^tasks\.0: Input should be a valid dictionary or instance of Task \(got 5\)$/);
  });

  it("an extra key with a lone surrogate collapses the model's errors into one string_unicode", () => {
    const r = S.validatePhase(obj(["id", 5], ["tasks", [obj(...TASK(), ["x\ud800", 1], ["y", 2])]]));
    assert.ok(!r.ok);
    assert.deepEqual(
      r.issues.map((i) => [i.loc.join("."), i.type]),
      [
        ["id", "string_type"],
        ["title", "missing"],
        ["tasks.0", "string_unicode"],
      ],
    );
  });
});

describe("pyCoerce: pydantic 2.13 lax coercions", () => {
  const table: [string, PySchema<unknown>, PyInput[], unknown[]][] = [
    [
      "int",
      pyInt,
      [
        1,
        f(1),
        f(1.5),
        f(-0),
        true,
        "5",
        " 5 ",
        "5.0",
        "1_000",
        "+5",
        "05",
        "0-5",
        "-0",
        "1e3",
        "0x10",
        "5.",
        "1__0",
        "\u00855",
        "\ufeff5",
        f(NaN),
        f(1e20),
        f(2 ** 63),
        f(2 ** 63 - 1024),
        2n ** 70n,
        "9".repeat(4300),
        "9".repeat(4301),
        "-" + "9".repeat(4300),
        "+" + "9".repeat(4300),
        "0" + "9".repeat(4301),
        "5\ud800",
        null,
        undefined,
      ],
      [
        1,
        1,
        "!int_from_float",
        0,
        1,
        5,
        5,
        5,
        1000,
        5,
        5,
        -5,
        0,
        "!int_parsing",
        "!int_parsing",
        "!int_parsing",
        "!int_parsing",
        5,
        "!int_parsing",
        "!finite_number",
        "!int_parsing_size",
        "!int_parsing_size",
        2n ** 63n - 1024n,
        2n ** 70n,
        BigInt("9".repeat(4300)),
        "!int_parsing_size",
        "!int_parsing_size",
        BigInt("9".repeat(4300)),
        "!int_parsing",
        "!string_unicode",
        "!int_type",
        "!missing",
      ],
    ],
    [
      "float",
      pyFloat,
      [
        3,
        true,
        "3.5",
        " 3.5 ",
        "nan",
        "-Infinity",
        "INF",
        "1_0.5",
        " 1_0",
        "1e400",
        ".5",
        "5.",
        "1_e5",
        "infinit",
        "",
        2n ** 70n,
        10n ** 309n,
        f(NaN),
        null,
      ],
      [
        3,
        1,
        3.5,
        3.5,
        NaN,
        -Infinity,
        Infinity,
        10.5,
        "!float_parsing",
        Infinity,
        0.5,
        5,
        1e5,
        "!float_parsing",
        "!float_parsing",
        2 ** 70,
        "!float_type",
        NaN,
        "!float_type",
      ],
    ],
    [
      "bool",
      pyBool,
      [
        0,
        1,
        2,
        "true",
        "yes",
        "on",
        "t",
        "y",
        "off",
        "no",
        "n",
        "F",
        "1",
        "0",
        " 1",
        "01",
        "tRuE",
        "\u017f",
        "on\ud800",
        f(1),
        f(2),
        f(1.5),
        f(NaN),
        2n ** 63n - 1n,
        2n ** 63n,
        null,
      ],
      [
        false,
        true,
        "!bool_parsing",
        true,
        true,
        true,
        true,
        true,
        false,
        false,
        false,
        false,
        true,
        false,
        "!bool_parsing",
        "!bool_parsing",
        true,
        "!bool_parsing",
        "!string_unicode",
        true,
        "!bool_parsing",
        "!bool_type",
        "!bool_type",
        "!bool_parsing",
        "!bool_type",
        "!bool_type",
      ],
    ],
    [
      "str",
      pyStr,
      [5, true, null, f(1), "", "a\ud800"],
      ["!string_type", "!string_type", "!string_type", "!string_type", "", "a\ud800"],
    ],
    ["str | None", pyNullable(pyStr), [null, 5, "a"], [null, "!string_type", "a"]],
    ["float | None", pyNullable(pyFloat), [null, "x", 3], [null, "!float_parsing", 3]],
    ["list[str]", pyList(pyStr), [obj(), "abc", null, ["a"]], ["!list_type", "!list_type", "!list_type", ["a"]]],
    ["dict[str, Any]", pyDict, [[], "x", null], ["!dict_type", "!dict_type", "!dict_type"]],
    [
      "Literal",
      pyLiteral(["pending", "in_progress"]),
      ["pending", "Pending", " pending", 5, null, true],
      ["pending", "!literal_error", "!literal_error", "!literal_error", "!literal_error", "!literal_error"],
    ],
  ];
  for (const [name, schema, inputs, expected] of table) {
    it(`${name} field`, () => {
      assert.equal(inputs.length, expected.length);
      inputs.forEach((v, i) =>
        assert.deepEqual(one(schema, v), expected[i], `${name} given ${String(v).slice(0, 20)}`),
      );
    });
  }

  it("list item errors carry their index; the dict keeps its order as a fresh Map", () => {
    const r = pyValidate(pyModel("M", { x: pyList(pyStr) }), obj(["x", ["a", 1, null, "b", true]]));
    assert.ok(!r.ok);
    assert.deepEqual(
      r.issues.map((i) => i.loc),
      [
        ["x", 1],
        ["x", 2],
        ["x", 4],
      ],
    );
    const m = obj(["b", 1], ["a", 2]);
    const d = one(pyDict, m) as PyObject;
    assert.ok(d !== m);
    assert.deepEqual([...d.keys()], ["b", "a"]);
  });
});

describe('schemas: model_dump(mode="json")', () => {
  it("writes Plan/Phase/Task/criterion keys in field order and metadata in held order", () => {
    const t = obj(
      ["metadata", obj(["z", 1], ["a", 2])],
      ["acceptance", [obj(["met", "yes"], ["description", "d"], ["id", "i"])]],
      ...TASK(),
    );
    const p = S.validatePlan(obj(["updated_at", "u"], ["metadata", obj(["b", 1], ["a", 2])], ...PLAN([t])));
    assert.ok(p.ok);
    const d = S.planToPy(p.value);
    assert.deepEqual(
      [...d.keys()],
      ["plan_id", "spec_hash", "phases", "metadata", "created_at", "updated_at", "content_hash"],
    );
    const phase = (d.get("phases") as PyObject[])[0]!;
    assert.deepEqual([...phase.keys()], ["id", "title", "description", "tasks"]);
    const task = (phase.get("tasks") as PyObject[])[0]!;
    assert.deepEqual([...task.keys()], [...S.TaskSchema.fieldNames]);
    assert.deepEqual([...(task.get("metadata") as PyObject).keys()], ["z", "a"]);
    assert.deepEqual(
      [...(task.get("acceptance") as PyObject[])[0]!],
      [
        ["id", "i"],
        ["description", "d"],
        ["met", true],
      ],
    );
    assert.deepEqual([...(d.get("metadata") as PyObject).keys()], ["b", "a"]);
  });

  it("Any values: NaN/Infinity become None, -0.0 and big ints stay, nested order stays", () => {
    const payload = obj(
      ["n", [f(NaN), f(Infinity), f(-Infinity), f(-0), 2n ** 80n]],
      ["d", obj(["2", f(1)], ["1", obj(["x", f(NaN)])])],
    );
    const e = S.validateLedgerEntry(
      obj(
        ["seq", "7"],
        ["timestamp", "t"],
        ["session_id", "s"],
        ["op", "mark_complete"],
        ["payload", payload],
        ["prev_hash", ""],
        ["self_hash", "x"],
      ),
    );
    assert.ok(e.ok);
    assert.equal(e.value.seq, 7);
    assert.equal(
      dumpsSorted(S.ledgerEntryHashInput(e.value)),
      '{"op": "mark_complete", "payload": {"d": {"1": {"x": null}, "2": 1.0}, "n": [null, null, null, -0.0, 1208925819614629174706176]}, "prev_hash": "", "seq": 7, "session_id": "s", "timestamp": "t"}',
    );
  });

  it("dict field keys: a lone surrogate becomes three U+FFFD; in nested Any dicts the dump raises", () => {
    const p = S.validatePlan(obj(...PLAN([]), ["metadata", obj(["\ud800", 1], ["\udc00", 2], ["k", "\ud800"])]));
    assert.ok(p.ok);
    assert.deepEqual(
      [...(S.planToPy(p.value).get("metadata") as PyObject)],
      [
        ["\ufffd\ufffd\ufffd", 2],
        ["k", "\ud800"],
      ],
    );
    const bad = S.validatePlan(obj(...PLAN([]), ["metadata", obj(["a", [obj(["x\udfff", 1])]])]));
    assert.ok(bad.ok);
    assert.throws(
      () => S.planToPy(bad.value),
      (e: unknown) => e instanceof PyDumpError && /position 1: surrogates not allowed/.test(e.message),
    );
  });

  it("after a replay-style mutation a wrongly typed field is dumped as Any", () => {
    const t = S.validateTask(TASK());
    assert.ok(t.ok);
    const m = t.value as unknown as Record<string, PyValue>;
    m.blocked_reason = obj(["why", f(NaN)]);
    m.status = 5;
    const d = S.taskToPy(t.value);
    assert.equal(d.get("status"), 5);
    assert.deepEqual([...(d.get("blocked_reason") as PyObject)], [["why", null]]);
  });
});

describe("evidence union", () => {
  const ev = (...kv: [string, PyValue][]) => validateEvidence(obj(...kv));

  it("reports union_tag_not_found / union_tag_invalid like pydantic", () => {
    const missing = ev(["task_id", "1"]);
    assert.ok(!missing.ok);
    assert.equal(missing.error, "(root): Unable to extract tag using discriminator 'kind' (got {'task_id': '1'})");
    for (const kind of ["nope", "Developer", 5, null] as PyValue[]) {
      const r = ev(["task_id", "1"], ["kind", kind]);
      assert.ok(!r.ok && r.issues[0]!.type === "union_tag_invalid");
      assert.match(
        r.error,
        /does not match any of the expected tags: 'developer', 'review', 'test', 'explore', 'domain_expert', 'critic', 'tournament'/,
      );
    }
    const notDict = validateEvidence(5);
    assert.ok(!notDict.ok && notDict.issues[0]!.type === "model_attributes_type");
  });

  it("reports variant errors under the tag", () => {
    const r = ev(["kind", "review"], ["x", 1]);
    assert.ok(!r.ok);
    assert.deepEqual(
      r.issues.map((i) => [i.loc.join("."), i.type]),
      [
        ["review.task_id", "missing"],
        ["review.verdict", "missing"],
        ["review.x", "extra_forbidden"],
      ],
    );
  });

  it("dumps task_id, kind, then the variant's fields, with its defaults", () => {
    const expected: Record<string, string[]> = {
      developer: ["diff", "files_changed", "output_text", "duration_s", "success"],
      review: ["verdict", "issues", "output_text"],
      test: ["passed", "failed", "total", "output_text", "coverage_pct"],
      explore: ["findings", "files_referenced"],
      domain_expert: ["topic", "findings", "confidence"],
      critic: ["verdict", "issues", "output_text"],
      tournament: ["tournament_id", "phase", "passes", "winner", "converged", "history", "final_diff"],
    };
    const required: Record<string, [string, PyValue][]> = {
      review: [["verdict", "APPROVED"]],
      critic: [["verdict", "REJECTED"]],
      explore: [["findings", "f"]],
      domain_expert: [["findings", "f"]],
      tournament: [
        ["tournament_id", "t"],
        ["phase", "plan"],
        ["passes", "2"],
        ["winner", "AB"],
        ["converged", "no"],
      ],
    };
    for (const [kind, fields] of Object.entries(expected)) {
      const r = ev(...(required[kind] ?? []), ["kind", kind], ["task_id", "1.1"]);
      assert.ok(r.ok, r.ok ? "" : r.error);
      assert.deepEqual([...evidenceToPy(r.value).keys()], ["task_id", "kind", ...fields]);
    }
    const dev = ev(["task_id", "1"], ["kind", "developer"], ["duration_s", "nan"]);
    assert.ok(dev.ok);
    assert.equal(
      dumpsSorted(evidenceToPy(dev.value)),
      '{"diff": null, "duration_s": NaN, "files_changed": [], "kind": "developer", "output_text": "", "success": true, "task_id": "1"}',
    );
    const test = ev(["task_id", "1"], ["kind", "test"], ["coverage_pct", 87]);
    assert.ok(test.ok);
    assert.ok(evidenceToPy(test.value).get("coverage_pct") instanceof PyFloat);
  });
});
