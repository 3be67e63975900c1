/**
 * "Recover from checkpoint" on the torn fixture (state.json and the newest checkpoint cut short
 * by a crash): the preview names the newest checkpoint that parses, the run writes exactly its
 * state without `_checkpoint` (as the hooks format it) and appends one log line; it is refused
 * when state.json parses, and nothing is appended after a torn log tail.
 */
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as path from "node:path";
import { planRecovery, RECOVER_ACTION } from "../../../src/core/sources/agloop/agloopRecovery";
import { agloopSource } from "../../../src/core/sources/agloop/agloopSource";
import { loadAgloopSnapshot } from "../../../src/core/sources/agloop/agloopSnapshot";
import { copiedLocation } from "../helpers/agloopFixtures";

const NO_WAIT = { delayMs: 1, retries: 1 };

describe("agloop recovery from checkpoint", function () {
  this.timeout(30_000);

  it("preview names the newest checkpoint that parses; run writes exactly that state and one log line", async () => {
    const loc = copiedLocation("agloop-torn");
    const cpDir = path.join(loc.dir, "checkpoints");
    const names = fs.readdirSync(cpDir);
    const torn =
      names
        .filter((n) => n.startsWith("pre-compact-"))
        .sort()
        .at(-1) ?? "";
    const good =
      names
        .filter((n) => n.startsWith("pre-compact-"))
        .sort()
        .at(-2) ?? "";
    assert.throws(
      () => JSON.parse(fs.readFileSync(path.join(cpDir, torn), "utf8")),
      "the newest pre-compact checkpoint is torn",
    );

    const preview = await agloopSource.previewAction?.(loc, RECOVER_ACTION, []);
    assert.ok(preview);
    assert.equal(preview.title, `Recover .agloop/state.json from ${good}`);
    assert.deepEqual(preview.writes, [".agloop/state.json", ".agloop/log.json"]);
    const plan = await planRecovery(loc, undefined, NO_WAIT);
    assert.equal(plan.checkpoint, good);

    const logBefore = fs.readFileSync(path.join(loc.dir, "log.json"), "utf8");
    const report = await agloopSource.runAction?.(loc, RECOVER_ACTION, [good]);
    assert.match(report ?? "", new RegExp(good.replace(/\./g, "\\.")));

    const expected = JSON.parse(fs.readFileSync(path.join(cpDir, good), "utf8"));
    delete expected._checkpoint;
    const written = fs.readFileSync(path.join(loc.dir, "state.json"), "utf8");
    assert.equal(written, JSON.stringify(expected, null, 2), "byte for byte what the hooks would write");
    assert.equal(written, plan.stateText, "exactly what the preview planned");

    const logAfter = fs.readFileSync(path.join(loc.dir, "log.json"), "utf8");
    assert.ok(logAfter.startsWith(logBefore), "the log is only appended to");
    const added = logAfter
      .slice(logBefore.length)
      .split("\n")
      .filter((l) => l);
    assert.equal(added.length, 1);
    const entry = JSON.parse(added[0]);
    assert.deepEqual(Object.keys(entry), [
      "timestamp",
      "agent",
      "action",
      "task_id",
      "phase",
      "input_summary",
      "output_summary",
      "status",
      "metadata",
    ]);
    assert.equal(entry.action, "state_recovered");
    assert.equal(entry.phase, expected.current_phase);
    assert.equal(entry.task_id, expected.current_task_id);
    assert.deepEqual(entry.metadata, { checkpoint: good });

    const after = await agloopSource.check(loc);
    assert.equal(after.filter((p) => p.file === ".agloop/state.json").length, 0, "the recovered state checks clean");
    await assert.rejects(
      agloopSource.previewAction?.(loc, RECOVER_ACTION, []) ?? Promise.resolve(),
      /exists and parses/,
    );
  });

  it("the tree offers recovery only while state.json does not parse", async () => {
    const loc = copiedLocation("agloop-torn");
    const tree = await agloopSource.tree(loc);
    const node = tree.find((n) => n.id === "agloop/state-unusable");
    assert.deepEqual(
      node?.target,
      { kind: "choose", action: RECOVER_ACTION },
      "the click lets the user choose the checkpoint (not always the newest)",
    );
    // Every checkpoint offers "Recover from this checkpoint", listed by type, trigger, time and summary.
    const checkpoints = tree.find((n) => n.id === "agloop/checkpoints")?.children ?? [];
    const offers = checkpoints.flatMap((c) => c.actions ?? []);
    const plan = await planRecovery(loc, undefined, NO_WAIT);
    const newest = offers.find((o) => o.args[0] === plan.checkpoint);
    assert.ok(newest, `${plan.checkpoint} offers recovery`);
    assert.equal(newest.action, RECOVER_ACTION);
    assert.match(newest.label, /^[\w-]+ checkpoint/);
    assert.match(newest.description ?? "", /^trigger: /);
    assert.ok(newest.time && !Number.isNaN(Date.parse(newest.time)), "a time to show");
    const legacy = offers.find((o) => o.args[0].startsWith("reset-"));
    assert.match(legacy?.label ?? "", /^reset checkpoint \(older format\)$/);
    assert.equal(agloopSource.commands?.[0].action, RECOVER_ACTION, "a palette command runs it");
    const clean = await agloopSource.tree(copiedLocation("agloop-clean"));
    assert.equal(
      clean.some((n) => n.id === "agloop/state-unusable"),
      false,
    );
  });

  it("a legacy checkpoint is unwrapped from `state`", async () => {
    const loc = copiedLocation("agloop-torn");
    const legacy = fs.readdirSync(path.join(loc.dir, "checkpoints")).find((n) => n.startsWith("reset-")) ?? "";
    const plan = await planRecovery(loc, legacy, NO_WAIT);
    const raw = JSON.parse(fs.readFileSync(path.join(loc.dir, "checkpoints", legacy), "utf8"));
    assert.equal(plan.stateText, JSON.stringify(raw.state, null, 2));
  });

  it("refuses (writing nothing) when log.json ends in a torn line, or the name leaves the folder", async () => {
    const loc = copiedLocation("agloop-torn");
    fs.appendFileSync(path.join(loc.dir, "log.json"), '{"timestamp": "2026');
    const before = fs.readFileSync(path.join(loc.dir, "state.json"));
    await assert.rejects(agloopSource.runAction?.(loc, RECOVER_ACTION, []) ?? Promise.resolve(), /partial line/);
    assert.deepEqual(fs.readFileSync(path.join(loc.dir, "state.json")), before);
    const ok = copiedLocation("agloop-torn");
    await assert.rejects(
      agloopSource.runAction?.(ok, RECOVER_ACTION, ["../state.json"]) ?? Promise.resolve(),
      /not a checkpoint name/,
    );
    await assert.rejects(agloopSource.runAction?.(ok, "rm -rf", []) ?? Promise.resolve(), /no action/);
  });

  it("missing state.json is recoverable too", async () => {
    const loc = copiedLocation("agloop-clean");
    fs.unlinkSync(path.join(loc.dir, "state.json"));
    const preview = await agloopSource.previewAction?.(loc, RECOVER_ACTION, []);
    assert.match(preview?.title ?? "", /^Recover \.agloop\/state\.json from reset-/);
  });
});

describe("agloop live state.json rewrites", () => {
  it("a state.json caught half-written is re-read before it is reported", async () => {
    const loc = copiedLocation("agloop-clean");
    const p = path.join(loc.dir, "state.json");
    const full = fs.readFileSync(p, "utf8");
    fs.writeFileSync(p, full.slice(0, full.length >> 1)); // a hook's writeFile in progress
    let retries = 0;
    const snapshot = await loadAgloopSnapshot(loc, {
      retry: {
        delayMs: 1,
        retries: 2,
        onRetry: () => {
          retries++;
          fs.writeFileSync(p, full); // the hook finishes its write
        },
      },
    });
    assert.equal(retries, 1);
    assert.deepEqual(snapshot.problems, []);
    assert.equal(snapshot.state.kind, "ok");
  });

  it("a state.json that stays cut is invalid_json after every retry", async () => {
    const loc = copiedLocation("agloop-clean");
    const p = path.join(loc.dir, "state.json");
    fs.writeFileSync(p, fs.readFileSync(p, "utf8").slice(0, 100));
    let retries = 0;
    const snapshot = await loadAgloopSnapshot(loc, {
      retry: { delayMs: 1, retries: 2, onRetry: () => void retries++ },
    });
    assert.equal(retries, 2);
    assert.deepEqual(
      snapshot.problems.map((x) => x.code),
      ["invalid_json"],
    );
  });
});
