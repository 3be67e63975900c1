/**
 * Unit tests of the canonical-bytes fast path (`fastCanonicalLine`) and of the
 * validator-free plan builder (`exactPlanModel`): what they accept must be
 * exactly what the full path (parse → validate → JSON-mode dump → hash) would
 * re-serialize byte for byte, with the same facts; everything else is left to
 * the full path (null). The broad differential proof is scannerEquivalence.
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import {
  PlanSkeleton,
  exactPlanFromCanonical,
  exactPlanModel,
  fastCanonicalLine,
  planOfCanonicalLine,
} from "../../../src/core/sources/autodev/canonical/fastCanonical";
import { LastHead, buildEntry } from "../../../src/core/sources/autodev/ledger/ledgerWriter";
import { computeEntryHash } from "../../../src/core/sources/autodev/ledger/ledgerHash";
import { parsePyJson } from "../../../src/core/pyjson/pyJsonParse";
import { dumpsSorted } from "../../../src/core/pyjson/pyJsonDump";
import {
  LedgerEntry,
  Plan,
  TASK_STATUSES,
  ledgerEntryToPy,
  planToPy,
  validateLedgerEntry,
  validatePlan,
} from "../../../src/core/sources/autodev/plan/schemas";
import { PyFloat, PyObject, PyValue } from "../../../src/core/pyjson/pyValue";

const FIXTURES = path.join(__dirname, "../../../../test/fixtures");

/** The full path's view of a line. */
function full(line: string): LedgerEntry {
  const res = validateLedgerEntry(parsePyJson(line));
  assert.ok(res.ok, `not a valid entry: ${line.slice(0, 200)}`);
  return res.value;
}

const fast = (line: string, wantPlan = true) => fastCanonicalLine(Buffer.from(line, "utf8"), wantPlan);

function plan(statuses: string[], extraTask: Record<string, PyValue> = {}): PyObject {
  const tasks = statuses.map(
    (status, i) =>
      new Map<string, PyValue>([
        ["id", `1.${i + 1}`],
        ["phase_id", "1"],
        ["title", `T${i}`],
        ["description", "d"],
        ["status", status],
        ["files", ["a.py"]],
        [
          "acceptance",
          [
            new Map<string, PyValue>([
              ["id", "a"],
              ["description", "x"],
              ["met", false],
            ]),
          ],
        ],
        ["depends_on", []],
        ["retry_count", 0],
        ["escalated", false],
        ["assigned_agent", null],
        ["evidence_bundle", null],
        ["blocked_reason", null],
        ["metadata", new Map<string, PyValue>([["w", new PyFloat(1.5)]])],
        ...Object.entries(extraTask),
      ]),
  );
  return new Map<string, PyValue>([
    ["plan_id", "p"],
    ["spec_hash", "s"],
    [
      "phases",
      [
        new Map<string, PyValue>([
          ["id", "1"],
          ["title", "P"],
          ["description", ""],
          ["tasks", tasks],
        ]),
      ],
    ],
    ["metadata", new Map()],
    ["created_at", "c"],
    ["updated_at", "u"],
    ["content_hash", ""],
  ]);
}

/** Canonical lines written by the core's writer. */
function ledger(payloads: [string, PyObject][]): string[] {
  let head: LastHead = { seq: 0, selfHash: "", missingFinalNewline: false };
  return payloads.map(([op, payload]) => {
    const { entry, line } = buildEntry(head, op, payload, "sess", "2026-01-01T00:00:00.000001+00:00");
    head = { seq: entry.seq, selfHash: entry.self_hash, missingFinalNewline: false };
    return line.slice(0, -1);
  });
}

function assertSameFacts(line: string): void {
  const f = fast(line);
  assert.ok(f, `expected the fast path to accept ${line.slice(0, 200)}`);
  const e = full(line);
  assert.equal(f.computedHash, computeEntryHash(e));
  assert.equal(f.seq, e.seq);
  assert.equal(f.prevHash, e.prev_hash);
  assert.equal(f.selfHash, e.self_hash);
  assert.equal(f.op, e.op);
  assert.equal(f.timestamp, e.timestamp);
  assert.equal(f.sessionId, e.session_id);
  const taskId = e.payload.get("task_id");
  assert.equal(f.payloadTaskId, typeof taskId === "string" ? taskId : null);
  assert.deepEqual(f.entryLazy(), e);
  assert.equal(dumpsSorted(ledgerEntryToPy(e)), line);
}

describe("fastCanonicalLine", () => {
  it("accepts every line Python wrote, with the hash Python computed", () => {
    for (const name of ["python-small", "python-evidence", "python-unicode"]) {
      const file = path.join(FIXTURES, name, ".autodev/plan-ledger.jsonl");
      if (!fs.existsSync(file)) continue;
      for (const line of fs.readFileSync(file, "utf8").split("\n").filter(Boolean)) {
        assertSameFacts(line);
        assert.equal(fast(line)!.computedHash, fast(line)!.selfHash);
      }
    }
  });

  it("accepts writer output with every escape, astral characters, big ints and floats", () => {
    const hostile = new Map<string, PyValue>([
      ["task_id", "1.1"],
      ["s", 'q"b\\n\n\r\t\b\f\u0000\u001f\u007f\u00e9\u2028\u{1f600}/'],
      ["big", 2n ** 80n],
      ["neg", -(2n ** 70n)],
      [
        "f",
        [
          new PyFloat(0.1),
          new PyFloat(-0),
          new PyFloat(1e16),
          new PyFloat(1e-5),
          new PyFloat(5e-324),
          new PyFloat(1.7976931348623157e308),
          new PyFloat(2),
        ],
      ],
      ["\ue000", 1],
      ["\u{1f600}", 2],
      ["", [true, false, null]],
      ["nested", new Map([["b", new Map([["a", []]])]])],
    ]);
    const lines = ledger([
      ["init_plan", new Map([["plan", plan(["pending"])]])],
      ["plan_tournament_complete", hostile],
      [
        "update_task_status",
        new Map<string, PyValue>([
          ["status", "in_progress"],
          ["task_id", "1.1"],
        ]),
      ],
    ]);
    for (const line of lines) assertSameFacts(line);
  });

  it("leaves every non-canonical form to the full path", () => {
    const [line] = ledger([
      [
        "update_task_status",
        new Map<string, PyValue>([
          ["n", 5],
          ["s", "a\nb\u00e9"],
          ["status", "coded"],
          ["task_id", "1.1"],
          ["x", new PyFloat(1.5)],
        ]),
      ],
    ]);
    assert.ok(fast(line));
    const forms: [string, string][] = [
      ["no space after colon", line.replace('"op": ', '"op":')],
      ["no space after comma", line.replace('", "payload"', '","payload"')],
      ["two spaces", line.replace(', "seq"', ',  "seq"')],
      ["leading space", " " + line],
      ["trailing space", line + " "],
      ["trailing tab", line + "\t"],
      ["keys out of order", line.replace(/"status": "coded", "task_id": "1.1"/, '"task_id": "1.1", "status": "coded"')],
      ["duplicate key", line.replace('"n": 5', '"n": 5, "n": 5')],
      ["missing payload", line.replace(/"payload": \{.*?\}, "prev_hash"/, '"prev_hash"')],
      ["extra field", line.replace('"seq"', '"extra": 1, "seq"')],
      ["seq as string", line.replace(/"seq": (\d+)/, '"seq": "$1"')],
      ["seq as float", line.replace(/"seq": (\d+)/, '"seq": $1.0')],
      ["seq as bool", line.replace(/"seq": (\d+)/, '"seq": true')],
      ["leading zero", line.replace('"n": 5', '"n": 05')],
      ["minus zero", line.replace('"n": 5', '"n": -0')],
      ["float not repr", line.replace('"x": 1.5', '"x": 1.50')],
      ["float exponent", line.replace('"x": 1.5', '"x": 15e-1')],
      ["float upper E", line.replace('"x": 1.5', '"x": 1E+16')],
      ["NaN in payload", line.replace('"x": 1.5', '"x": NaN')],
      ["Infinity in payload", line.replace('"x": 1.5', '"x": Infinity')],
      ["escaped slash", line.replace('"coded"', '"co\\/ded"')],
      ["needless \\u", line.replace('"coded"', '"\\u0063oded"')],
      ["uppercase hex", line.replace("\\u00e9", "\\u00E9")],
      ["\\u000a for \\n", line.replace("a\\nb", "a\\u000ab")],
      ["raw non-ASCII", line.replace("\\u00e9", "\u00e9")],
      ["raw DEL", line.replace("coded", "co\u007fded")],
      ["lone high surrogate", line.replace("\\u00e9", "\\ud800")],
      ["lone low surrogate", line.replace("\\u00e9", "\\udc00")],
      ["reversed pair", line.replace("\\u00e9", "\\ude00\\ud83d")],
      ["unknown op", line.replace('"update_task_status"', '"update_task"')],
      ["op case", line.replace('"update_task_status"', '"Update_task_status"')],
      ["payload a list", line.replace(/"payload": \{.*?\}, "prev_hash"/, '"payload": [], "prev_hash"')],
      ["prev_hash null", line.replace(/"prev_hash": "[^"]*"/, '"prev_hash": null')],
      ["deep nesting", line.replace('"n": 5', `"n": ${"[".repeat(600)}${"]".repeat(600)}`)],
      ["huge int", line.replace('"n": 5', `"n": 1${"0".repeat(4300)}`)],
      ["truncated", line.slice(0, -1)],
      ["BOM", "\ufeff" + line],
    ];
    for (const [name, variant] of forms) {
      assert.notEqual(variant, line, `${name}: the test did not change the line`);
      assert.equal(fast(variant), null, `${name} must take the full path`);
    }
  });

  it("accepts a rewritten line only in exact form: a changed value keeps it canonical, with the recomputed hash", () => {
    const [line] = ledger([
      [
        "update_task_status",
        new Map<string, PyValue>([
          ["status", "coded"],
          ["task_id", "1.1"],
        ]),
      ],
    ]);
    const edited = line.replace('"coded"', '"in_progress"');
    const f = fast(edited)!;
    assert.ok(f);
    assert.notEqual(f.computedHash, f.selfHash);
    assert.equal(f.computedHash, computeEntryHash(full(edited)));
  });

  it("proves exact plans and returns their task ids and statuses, reusing the previous plan's bytes", () => {
    const statuses = ["pending", "in_progress", "complete"];
    const lines = ledger([
      ["init_plan", new Map([["plan", plan(statuses)]])],
      ["snapshot", new Map([["plan", plan(statuses)]])],
      ["snapshot", new Map([["plan", plan(["pending", "coded", "complete"])]])],
      ["snapshot", new Map([["plan", plan(["pending", "coded", "bogus"])]])], // invalid status: canonical line, no skeleton
      ["snapshot", new Map([["plan", plan(["pending", "coded", "complete"], { retry_count: "2" })]])], // coercible
      ["snapshot", new Map([["plan", plan(["pending", "coded", "complete"], { extra: 1 })]])], // extra key
      ["snapshot", new Map<string, PyValue>([["plan", null]])],
      ["snapshot", new Map<string, PyValue>([["other", 1]])],
      ["snapshot", new Map([["plan", plan(["pending", "coded", "complete"])]])],
    ]);
    const skeleton = (k: PlanSkeleton | null) =>
      k && k.ids.map((id, i) => `${id}=${TASK_STATUSES[k.statuses[i]]}`).join(",");
    const flat = (p: Plan) => p.phases.flatMap((ph) => ph.tasks.map((t) => `${t.id}=${t.status}`)).join(",");
    const want = [
      "1.1=pending,1.2=in_progress,1.3=complete",
      "1.1=pending,1.2=in_progress,1.3=complete",
      "1.1=pending,1.2=coded,1.3=complete",
      null,
      null,
      null,
      null,
      null,
      "1.1=pending,1.2=coded,1.3=complete",
    ];
    lines.forEach((line, i) => {
      const f = fast(line);
      assert.ok(f, `line ${i + 1} is canonical`);
      assert.equal(skeleton(f.skeleton), want[i], `line ${i + 1}`);
      if (f.skeleton) {
        const v = validatePlan(full(line).payload.get("plan")!);
        assert.ok(v.ok);
        assert.equal(flat(v.value), want[i]);
        assert.equal(f.skeleton.positions.get("1.2"), 1);
        assert.deepEqual(exactPlanFromCanonical(line.slice(f.planStart, f.planEnd), f.skeleton), v.value);
        assert.equal(line.slice(f.planStart, f.planEnd), dumpsSorted(planToPy(v.value)));
      }
    });
    assert.equal(fast(lines[6])!.planIsNull, true);
    assert.equal(fast(lines[7])!.planStart, -1);
    // Without replay, no skeleton is built (but the line is still proven).
    assert.equal(fast(lines[2], false)!.skeleton, null);
  });

  it("does not let a remembered task vouch for bytes that merely start like it", () => {
    const [a, b] = ledger([
      ["snapshot", new Map([["plan", plan(["pending", "pending"])]])],
      ["snapshot", new Map([["plan", plan(["pending", "pending"])]])],
    ]);
    assert.ok(fast(a)!.skeleton);
    // Same first task bytes, then garbage where the separator should be.
    const broken = b.replace('"title": "T0"}, {"acceptance"', '"title": "T0"},{"acceptance"');
    assert.notEqual(broken, b);
    assert.equal(fast(broken), null);
    assert.ok(fast(b)!.skeleton);
  });
});

describe("planOfCanonicalLine", () => {
  it("is validatePlan's model of the payload plan, for every plan-carrying line Python wrote", () => {
    let plans = 0;
    for (const name of ["python-small", "python-evidence", "python-unicode"]) {
      const file = path.join(FIXTURES, name, ".autodev/plan-ledger.jsonl");
      if (!fs.existsSync(file)) continue;
      for (const line of fs.readFileSync(file, "utf8").split("\n").filter(Boolean)) {
        const plan = full(line).payload.get("plan");
        const got = planOfCanonicalLine(Buffer.from(line, "utf8"));
        if (plan === undefined) {
          assert.equal(got, null);
          continue;
        }
        const v = validatePlan(plan);
        assert.ok(v.ok);
        assert.deepEqual(got, v.value);
        plans++;
      }
    }
    assert.ok(plans > 10);
  });
});

describe("exactPlanModel", () => {
  it("is validatePlan's model for plans in exact form, and null for anything else", () => {
    const exact = plan(["pending", "coded"]);
    const v = validatePlan(exact);
    assert.ok(v.ok);
    assert.deepEqual(exactPlanModel(exact), v.value);
    const variants: PyObject[] = [
      plan(["pending"], { retry_count: "1" }),
      plan(["pending"], { escalated: 0 }),
      plan(["pending"], { extra: true }),
      plan(["bogus"]),
      plan(["pending"], { title: "\ud800" }),
    ];
    const noContentHash = plan(["pending"]);
    noContentHash.delete("content_hash");
    variants.push(noContentHash);
    for (const variant of variants) assert.equal(exactPlanModel(variant), null);
  });
});
