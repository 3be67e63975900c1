/**
 * config.json as AutodevConfig validates it: differential against pydantic (the real AutoDev model's
 * answers: live with AUTODEV_PY_SRC, else recorded in test/fixtures/autodev-oracle/, see helpers/autodevOracle.ts) over the python-full fixture's config and mutations of
 * it (unknown keys at every level, missing and mistyped fields, pydantic's lax coercions, a missing role,
 * broken JSON); then the error lines that Problems shows, and the settings kept from a broken file.
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { readConfig, resolveHivePath, retryLabel } from "../../../src/core/sources/autodev/config/configReader";
import { copyFullFixture, askOracle } from "../helpers/autodevOracle";

type Json = Record<string, unknown>;
const clone = (o: Json): Json => JSON.parse(JSON.stringify(o)) as Json;

function mutations(base: Json): Array<[string, string]> {
  const out: Array<[string, string]> = [["fixture", JSON.stringify(base, null, 2)]];
  const add = (name: string, f: (c: Json) => void) => {
    const c = clone(base);
    f(c);
    out.push([name, JSON.stringify(c, null, 2)]);
  };
  const t = (c: Json) => c.tournaments as Json;
  const plan = (c: Json) => t(c).plan as Json;
  add("extra root key", (c) => (c.colour = "blue"));
  add("extra nested key", (c) => (plan(c).judges = 3));
  add(
    "extra agent key",
    (c) => ((c.agents as Json).developer = { ...((c.agents as Json).developer as Json), temperature: 0.2 }),
  );
  add("missing hive", (c) => delete c.hive);
  add("missing hive.path", (c) => delete (c.hive as Json).path);
  add("missing num_judges", (c) => delete plan(c).num_judges);
  add("lax int string", (c) => (c.qa_retry_limit = "5"));
  add("lax int float", (c) => (c.qa_retry_limit = 4.0));
  add("int with fraction", (c) => (c.qa_retry_limit = 2.5));
  add("int from junk string", (c) => (c.qa_retry_limit = "three"));
  add("lax bool yes", (c) => (plan(c).enabled = "yes"));
  add("lax bool 0", (c) => (plan(c).enabled = 0));
  add("bool 2", (c) => (plan(c).enabled = 2));
  add("str from number", (c) => ((c.agents as Json).judge = { model: 5 }));
  add("null model ok", (c) => ((c.agents as Json).judge = { model: null }));
  add("bad platform", (c) => (c.platform = "vim"));
  add("bad schema_version", (c) => (c.schema_version = "2.0.0"));
  add("float from string", (c) => (c.knowledge = { dedup_threshold: "0.75" }));
  add("cost budget null", (c) => (c.guardrails = { cost_budget_usd_per_plan: null }));
  add("cost budget junk", (c) => (c.guardrails = { cost_budget_usd_per_plan: "lots" }));
  add("missing role", (c) => delete (c.agents as Json).synthesizer);
  add("agents not an object", (c) => (c.agents = []));
  add("list of str with int", (c) => (t(c).auto_disable_for_models = ["opus", 3]));
  add("two errors", (c) => {
    c.extra = 1;
    delete c.tournaments;
  });
  out.push(["syntax error", JSON.stringify(base, null, 2).replace('"platform": "inline",', '"platform": "inline"')]);
  out.push(["not an object", "[1, 2]"]);
  out.push(["NaN number", JSON.stringify(base, null, 2).replace('"qa_retry_limit": 3', '"qa_retry_limit": NaN')]);
  return out;
}

function pathsOf(errors: ReadonlyArray<{ path: string }>): string[] {
  return errors.map((e) => e.path).sort();
}

describe("autodev config.json (AutodevConfig)", function () {
  this.timeout(120_000);
  let ws = "";
  let base: Json = {};
  before(() => {
    ws = copyFullFixture().ws;
    base = JSON.parse(fs.readFileSync(path.join(ws, ".autodev/config.json"), "utf8")) as Json;
  });

  it("accepts and rejects exactly what pydantic does, with the same error paths @slow", async () => {
    const docs = mutations(base);
    const answers = askOracle<{
      ok: boolean;
      locs: Array<Array<string | number>>;
      roles_missing?: boolean;
      qa_retry_limit?: number;
    }>(docs.map(([, text]) => ({ op: "config", text })));
    for (let i = 0; i < docs.length; i++) {
      const [name, text] = docs[i];
      fs.writeFileSync(path.join(ws, ".autodev/config.json"), text);
      const ours = await readConfig(ws);
      const py = answers[i];
      const pyOk = py.ok && !py.roles_missing;
      assert.equal(ours.ok, pyOk, `${name}: ok (ours ${JSON.stringify(ours.errors)}, pydantic ${JSON.stringify(py)})`);
      if (!py.ok && name !== "syntax error" && name !== "NaN number") {
        const pyPaths = py.locs.map((l) => (l.length ? l.join(".") : "(root)")).sort();
        assert.deepEqual(pathsOf(ours.errors), pyPaths, `${name}: error paths`);
      }
      if (py.ok && py.roles_missing) {
        assert.deepEqual(pathsOf(ours.errors), ["agents"], `${name}: missing roles at agents`);
      }
      if (py.ok) assert.equal(ours.qaRetryLimit, py.qa_retry_limit, `${name}: qa_retry_limit`);
    }
    // The corpus puts both sides of pydantic's line to the test.
    assert.ok(answers.some((x) => x.ok && !x.roles_missing) && answers.some((x) => !x.ok), JSON.stringify(answers));
  });

  it("puts each error at the line of its key (or the nearest parent for a missing key)", async () => {
    const c = clone(base);
    c.colour = "blue";
    ((c.tournaments as Json).plan as Json).num_judges = "many";
    delete (c.hive as Json).path;
    const text = JSON.stringify(c, null, 2);
    fs.writeFileSync(path.join(ws, ".autodev/config.json"), text);
    const lines = text.split("\n");
    const lineOf = (needle: string, after = 0) => lines.findIndex((l, i) => i >= after && l.includes(needle)) + 1;
    const r = await readConfig(ws);
    const at = (p: string) => r.errors.find((e) => e.path === p)?.line;
    assert.equal(at("colour"), lineOf('"colour"'));
    assert.equal(at("tournaments.plan.num_judges"), lineOf('"num_judges"', lineOf('"plan"') - 1));
    assert.equal(at("hive.path"), lineOf('"hive"'), "a missing key is placed at its parent");
    assert.equal(r.errors.find((e) => e.path === "hive.path")?.message, "Field required");
  });

  it("reports a JSON syntax error at the line where parsing stopped", async () => {
    fs.writeFileSync(path.join(ws, ".autodev/config.json"), '{\n  "platform": "inline",\n  "agents": {,\n}\n');
    const r = await readConfig(ws);
    assert.equal(r.ok, false);
    assert.equal(r.errors[0].path, "(json)");
    assert.equal(r.errors[0].line, 3);
  });

  it("keeps qa_retry_limit and hive.path from a config that is otherwise invalid", async () => {
    const c = clone(base);
    c.qa_retry_limit = 7;
    (c.hive as Json).path = "/srv/hive.jsonl";
    c.colour = "blue";
    fs.writeFileSync(path.join(ws, ".autodev/config.json"), JSON.stringify(c, null, 2));
    const r = await readConfig(ws);
    assert.equal(r.ok, false);
    assert.equal(r.qaRetryLimit, 7);
    assert.equal(r.hivePath, "/srv/hive.jsonl");
    assert.equal(retryLabel(2, r.qaRetryLimit), "retry 2/7");
  });

  it("refuses a config.json that is a FIFO or a link out of the workspace, without hanging", async () => {
    const file = path.join(ws, ".autodev/config.json");
    fs.rmSync(file);
    fs.symlinkSync("/etc/hostname", file);
    const link = await readConfig(ws);
    assert.equal(link.ok, false);
    assert.match(link.errors[0].message, /outside the workspace/);
    fs.rmSync(file);
    const { spawnSync } = await import("node:child_process");
    assert.equal(spawnSync("mkfifo", [file]).status, 0);
    const fifo = await readConfig(ws);
    assert.equal(fifo.ok, false);
    assert.match(fifo.errors[0].message, /FIFO/);
  });

  it("resolves the hive path as Python does: ~ under the home folder, default when unset", () => {
    assert.equal(resolveHivePath("/ws", null, "/home/u"), "/home/u/.local/share/autodev/shared-learnings.jsonl");
    assert.equal(resolveHivePath("/ws", "~/h.jsonl", "/home/u"), "/home/u/h.jsonl");
    assert.equal(resolveHivePath("/ws", "/abs/h.jsonl", "/home/u"), "/abs/h.jsonl");
    assert.equal(resolveHivePath("/ws", "rel/h.jsonl", "/home/u"), path.join("/ws", "rel/h.jsonl"));
  });
});
