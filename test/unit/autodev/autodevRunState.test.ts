/**
 * The run around the plan, on the python-full fixture: "is AutoDev running" with a real Python holder of
 * .autodev/.lock (test/python/tools/hold_lock.py takes it as filelock does), spec drift, plan-phase evidence
 * names, the evidence coded / tournamented imply, and the CLI: evidence DIR plan, tournaments, knowledge,
 * status --json.
 */
import * as assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { probeAutodevRunning } from "../../../src/core/sources/autodev/run/runningProbe";
import { checkSpecDrift, specHash } from "../../../src/core/sources/autodev/run/specDrift";
import { listEvidence, listEvidenceTasks } from "../../../src/core/sources/autodev/evidence/evidenceStore";
import { missingEvidenceWarnings } from "../../../src/core/sources/autodev/historyChecks";
import { loadPlan } from "../../../src/core/sources/autodev/ledger/ledgerReader";
import { expectationsFrom, requiredEvidenceKinds } from "../../../src/core/sources/autodev/evidence/requiredEvidence";
import { readConfig } from "../../../src/core/sources/autodev/config/configReader";
import { REPO_ROOT } from "../fixtures";
import { copyFullFixture } from "../helpers/autodevOracle";

const CLI = path.join(REPO_ROOT, "out/src/cli/main.js");
function cli(env: NodeJS.ProcessEnv, ...args: string[]): { code: number; out: string; err: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8", env: { ...process.env, ...env } });
  return { code: r.status ?? -1, out: r.stdout, err: r.stderr };
}

/** Starts hold_lock.py holding `lockFile`; resolves once it printed ACQUIRED. Close stdin to release. */
function holdLock(lockFile: string): Promise<{ release: () => Promise<void> }> {
  const child = spawn(
    "python3",
    [path.join(REPO_ROOT, "test/python/tools/hold_lock.py"), "hold", lockFile, "--seconds", "60"],
    { stdio: ["pipe", "pipe", "inherit"] },
  );
  const exited = new Promise<void>((r) => child.on("exit", () => r()));
  return new Promise((resolve, reject) => {
    child.stdout.on("data", (d: Buffer) => {
      if (String(d).startsWith("ACQUIRED")) resolve({ release: async () => (child.stdin.end(), await exited) });
    });
    child.on("exit", (code) => reject(new Error(`hold_lock.py exited ${code}`)));
  });
}

describe("autodev run state: running, spec, evidence, CLI", function () {
  this.timeout(120_000);

  it("says running while a Python process holds .autodev/.lock, and not running once it releases @slow", async () => {
    const { ws } = copyFullFixture();
    assert.equal((await probeAutodevRunning(ws)).running, false);
    const holder = await holdLock(path.join(ws, ".autodev/.lock"));
    try {
      assert.equal((await probeAutodevRunning(ws)).running, true);
      assert.equal(JSON.parse(cli({}, "status", ws, "--json").out).running, true);
    } finally {
      await holder.release();
    }
    assert.equal((await probeAutodevRunning(ws)).running, false);
  });

  it("never creates the lock file and does not open a FIFO in its place", async () => {
    const { ws } = copyFullFixture();
    const lock = path.join(ws, ".autodev/.lock");
    fs.rmSync(lock);
    assert.equal((await probeAutodevRunning(ws)).running, false);
    assert.equal(fs.existsSync(lock), false, "the probe created .autodev/.lock");
    assert.equal(spawnSync("mkfifo", [lock]).status, 0);
    const fifo = await probeAutodevRunning(ws);
    assert.equal(fifo.running, null);
    assert.match(fifo.detail, /not a regular file/);
  });

  it("spots spec drift: spec.md = intent.strip() + newline, spec_hash = sha256(intent)[:16] @slow", async () => {
    const { ws } = copyFullFixture();
    const { plan } = await loadPlan(ws);
    const drift = await checkSpecDrift(ws, plan!.spec_hash);
    assert.ok(drift?.state === "checked" && drift.matches, JSON.stringify(drift));
    const spec = path.join(ws, ".autodev/spec.md");
    fs.writeFileSync(spec, fs.readFileSync(spec, "utf8").replace("tests", "docs"));
    const edited = await checkSpecDrift(ws, plan!.spec_hash);
    assert.ok(edited?.state === "checked" && !edited.matches);
    assert.equal(
      specHash("abc"),
      spawnSync("python3", ["-c", "import hashlib; print(hashlib.sha256(b'abc').hexdigest()[:16])"], {
        encoding: "utf8",
      }).stdout.trim(),
    );
    assert.equal(JSON.parse(cli({}, "status", ws, "--json").out).spec.matches, false);
  });

  it("lists the plan phase's bundles under task plan with their content's kind @slow", async () => {
    const { ws } = copyFullFixture();
    const items = await listEvidence(ws, "plan");
    assert.deepEqual(
      items.map((i) => [i.file, i.kind, i.ok]),
      [
        ["plan-domain_expert-domain_expert.json", "domain_expert", true],
        ["plan-explore-explore.json", "explore", true],
      ],
    );
    const tasks = await listEvidenceTasks(ws);
    assert.ok(tasks.ok && tasks.tasks.get("plan")?.length === 2, "grouped under plan");
    const r = cli({}, "evidence", ws, "plan", "--json");
    assert.equal(r.code, 0, r.err);
    const out = JSON.parse(r.out) as { ok: boolean; bundles: Array<{ kind: string; ok: boolean }> };
    assert.equal(out.ok, true);
    assert.deepEqual(
      out.bundles.map((b) => [b.kind, b.ok]),
      [
        ["domain_expert", true],
        ["explore", true],
      ],
    );
  });

  it("warns when coded lacks developer evidence or its patch, and tournamented lacks tournament evidence", async () => {
    const { ws } = copyFullFixture();
    const { plan } = await loadPlan(ws);
    assert.deepEqual(
      (await missingEvidenceWarnings(ws, plan!, [])).map((w) => w.kind),
      ["evidence_bundle_dangling"],
      "the fixture as Python left it: only the evidence_bundle AutoDev names (1.1-coder.json) but never writes",
    );
    fs.rmSync(path.join(ws, ".autodev/evidence/1.2.patch"));
    fs.rmSync(path.join(ws, ".autodev/evidence/1.1-tournament.json"));
    let msgs = (await missingEvidenceWarnings(ws, plan!, [])).map((w) => w.message).join("\n");
    assert.doesNotMatch(msgs, /tournament evidence/, "config.json says inline: no impl tournament can run there");
    const cfgFile = path.join(ws, ".autodev/config.json");
    fs.writeFileSync(
      cfgFile,
      fs.readFileSync(cfgFile, "utf8").replace('"platform": "inline"', '"platform": "claude_code"'),
    );
    msgs = (await missingEvidenceWarnings(ws, plan!, [])).map((w) => w.message).join("\n");
    assert.match(msgs, /task 1\.1 is 'complete' but has no valid tournament evidence/);
    assert.match(msgs, /task 1\.2 is 'auto_gated' .*1\.2\.patch .* missing/);
    fs.rmSync(path.join(ws, ".autodev/evidence/1.2-developer.json"));
    assert.match(
      (await missingEvidenceWarnings(ws, plan!, [])).map((w) => w.message).join("\n"),
      /task 1\.2 is 'auto_gated' but has no valid developer evidence/,
    );
    const cfg = await readConfig(ws);
    assert.deepEqual(requiredEvidenceKinds("tournamented", expectationsFrom(cfg.config)), [
      "developer",
      "review",
      "test",
      "tournament",
    ]);
    assert.deepEqual(requiredEvidenceKinds("tournamented", { implTournament: false }), ["developer", "review", "test"]);
    const opus = {
      ...cfg.config!,
      agents: { ...cfg.config!.agents, judge: { model: "claude-opus-4", disabled: false, max_turns: null } },
    };
    assert.equal(expectationsFrom(opus).implTournament, false, "an auto-disabled judge model means no tournament");
  });

  it("CLI: tournaments, knowledge and status --json give the documented shapes @slow", () => {
    const { ws, home } = copyFullFixture();
    const t = cli({}, "tournaments", ws, "--json");
    assert.equal(t.code, 0, t.err);
    const ts = JSON.parse(t.out) as Array<Record<string, unknown>>;
    assert.deepEqual(
      ts.map((x) => [x.phase, x.task_id, x.passes, x.winner, x.converged]),
      [
        ["impl", "1.1", 2, "A", true],
        ["plan", null, 3, "A", true],
      ],
    );
    const pass1 = (ts[1].pass_results as Array<Record<string, unknown>>)[0];
    assert.deepEqual(Object.keys(pass1).slice(0, 6), [
      "pass",
      "winner",
      "scores",
      "valid_judges",
      "elapsed_s",
      "judges",
    ]);
    assert.deepEqual(pass1.scores, { A: 4, B: 2, AB: 6 });
    assert.ok((ts[1].files as string[]).includes("initial_a.md"));
    const k = cli({ HOME: home }, "knowledge", ws, "--json");
    assert.equal(k.code, 0, k.err);
    const kj = JSON.parse(k.out) as {
      swarm: unknown[];
      hive: unknown[];
      hive_path: string;
      rejected: Array<Record<string, unknown>>;
    };
    assert.deepEqual([kj.swarm.length, kj.hive.length, kj.rejected.length], [3, 1, 1]);
    assert.deepEqual(Object.keys(kj.swarm[0] as object).slice(0, 7), [
      "id",
      "text",
      "role_source",
      "confidence",
      "confirmations",
      "applied_count",
      "timestamp",
    ]);
    assert.deepEqual(Object.keys(kj.rejected[0]), ["id", "text", "reason", "rejected_at"]);
    const s = JSON.parse(cli({}, "status", ws, "--json").out) as Record<string, unknown>;
    for (const key of ["plan_id", "tasks", "totals", "ledger"]) assert.ok(key in s, `existing field ${key} kept`);
    assert.equal(s.running, false);
    assert.deepEqual((s.waiting as Record<string, unknown>).response, "missing");
    assert.deepEqual(
      Object.keys(s.waiting as object).filter((x) =>
        [
          "task_id",
          "role",
          "step",
          "retry_count",
          "last_issues",
          "delegation_path",
          "response_path",
          "response",
        ].includes(x),
      ).length,
      8,
    );
    assert.deepEqual(s.config, { ok: true, errors: [], qa_retry_limit: 3, platform: "inline" });
    assert.deepEqual((s.spec as { matches: boolean }).matches, true);
    fs.writeFileSync(path.join(ws, ".autodev/config.json"), "{}");
    const broken = JSON.parse(cli({}, "status", ws, "--json").out) as {
      config: { ok: boolean; errors: Array<{ path: string }> };
    };
    assert.equal(broken.config.ok, false);
    assert.deepEqual(broken.config.errors.map((e) => e.path).sort(), ["agents", "hive", "tournaments"]);
  });
});
