/**
 * Python's int(x) and bool(x) as replay applies them to payload values
 * (retry_count, escalated), checked against python3 itself; and the task FSM.
 */
import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import { PyIntError, pyIntCall, pyTruthy } from "../../../src/core/pyjson/pyBuiltins";
import { parsePyJson } from "../../../src/core/pyjson/pyJsonParse";
import { PyValue } from "../../../src/core/pyjson/pyValue";
import { TASK_TRANSITIONS, assertTransition, canTransition } from "../../../src/core/sources/autodev/plan/taskFsm";
import { InvalidTransitionError } from "../../../src/core/errors";

const INPUTS = [
  "0",
  "7",
  "-3",
  "123456789012345678901234567890",
  "2.7",
  "-2.7",
  "1e300",
  "NaN",
  "Infinity",
  "true",
  "false",
  "null",
  '"5"',
  '" 5 "',
  '"+5"',
  '"-0"',
  '"1_000"',
  '"1__0"',
  '"_1"',
  '"1_"',
  '"5.0"',
  '"x"',
  '""',
  '"\\u0665"',
  '"\\uff15"',
  '"\\u00a05\\u3000"',
  '"\\ud835\\udfd3"',
  "[]",
  "[0]",
  "{}",
  '{"a": 1}',
  '"false"',
  "0.0",
  "-0.0",
];

describe("Python builtins used by replay", () => {
  it("int(x) and bool(x) agree with python3 on odd inputs", () => {
    const script = `
import json, sys
for line in sys.stdin:
    v = json.loads(line)
    try:
        r = ["ok", str(int(v))]
    except Exception as e:
        r = ["err", type(e).__name__]
    print(json.dumps([r, bool(v)]))
`;
    const out = execFileSync("python3", ["-c", script], { input: INPUTS.join("\n") + "\n", encoding: "utf8" })
      .trim()
      .split("\n");
    INPUTS.forEach((input, i) => {
      const [[tag, value], truthy] = JSON.parse(out[i]) as [[string, string], boolean];
      const v = parsePyJson(input) as PyValue;
      let ours: [string, string];
      try {
        ours = ["ok", String(pyIntCall(v))];
      } catch (e) {
        assert.ok(e instanceof PyIntError);
        ours = ["err", e.message.split(":")[0]];
      }
      assert.deepEqual(ours, [tag, value], `int(${input})`);
      assert.equal(pyTruthy(v), truthy, `bool(${input})`);
    });
  });

  it("the FSM has Python AutoDev's edges, and refuses others with the allowed list", () => {
    assert.equal(Object.keys(TASK_TRANSITIONS).length, 10);
    assert.ok(canTransition("pending", "skipped"));
    assert.ok(canTransition("blocked", "in_progress"));
    assert.ok(canTransition("in_progress", "in_progress"));
    assert.ok(!canTransition("coded", "coded"));
    assert.ok(!canTransition("complete", "in_progress"));
    assert.ok(!canTransition("bogus", "pending"));
    assert.throws(
      () => assertTransition("tournamented", "tested"),
      (e: Error) =>
        e instanceof InvalidTransitionError &&
        e.message ===
          "invalid task transition 'tournamented' -> 'tested'; allowed from 'tournamented': ['blocked', 'complete']",
    );
  });
});
