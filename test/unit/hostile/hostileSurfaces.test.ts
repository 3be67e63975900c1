// One hostile text, every surface (issue 33 "untrusted text"; issue 32 items 8 and 9): a plan whose
// ids, titles, descriptions, dependencies and blocked reasons hold C0/C1 controls, ESC and OSC 52,
// bidi overrides and isolates, zero-width characters, tag characters and forged lines, shown through
// the CLI's every command, the report (Markdown and HTML), the graph (text, DOT, Mermaid), the tree
// and its hovers, the timeline rows, the Problems messages and the language-model tool answers.
// Nothing hidden may reach any of them raw, and no output line may be one the state forged.
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as path from "node:path";
import { FORGED, HOSTILE_ALL, HOSTILE_STRINGS, forgedLines, rawHidden } from "../../helpers/hostileText";
import { HostileRoot, REPO, hostileRoot, runCliBounded } from "../../helpers/hostileWorkspace";
import { appendEntry } from "../../../src/core/sources/autodev/ledger/ledgerWriter";
import { UNTRUSTED_NOTE, checkAnswer, statusAnswer, taskAnswer } from "../../../src/core/agentTools/agentAnswers";
import { STATE_SOURCES } from "../../../src/core/sources/sourceRegistry";
import type { SourceTreeNode } from "../../../src/core/sources/stateSource";
import { displayLine } from "../../../src/core/text/displayText";
import { labelText } from "../../../src/core/text/untrustedText";

/** Task ids: one per hostile string, the one that forges lines first. */
const IDS = [HOSTILE_STRINGS.length - 1, ...HOSTILE_STRINGS.keys()]
  .slice(0, HOSTILE_STRINGS.length)
  .map((k, i) => `${i + 1}.${i + 1} ${HOSTILE_STRINGS[k]}`);

/** A python-small plan rewritten so that every task and phase carries hostile text. */
function hostilePlan(): unknown {
  const plan = JSON.parse(fs.readFileSync(path.join(REPO, "test/fixtures/python-small/.autodev/plan.json"), "utf8"));
  const tasks: { id: string; title: string; description: string; depends_on: string[]; phase_id: string }[] = [];
  for (const p of plan.phases) {
    p.title = HOSTILE_ALL;
    for (const t of p.tasks) tasks.push(t);
  }
  const last = plan.phases[plan.phases.length - 1];
  while (tasks.length < IDS.length) {
    const copy = { ...last.tasks[0], id: `extra-${tasks.length}`, depends_on: [] };
    last.tasks.push(copy);
    tasks.push(copy);
  }
  const rename = new Map<string, string>();
  tasks.forEach((t, i) => rename.set(t.id, IDS[i % IDS.length] + (i >= IDS.length ? ` #${i}` : "")));
  for (const t of tasks) {
    t.id = rename.get(t.id)!;
    t.title = HOSTILE_STRINGS[(tasks.indexOf(t) + 3) % HOSTILE_STRINGS.length];
    t.description = HOSTILE_ALL;
    t.depends_on = t.depends_on.map((d) => rename.get(d) ?? d).concat([`ghost ${HOSTILE_ALL}`]);
  }
  return plan;
}

/** Keys of one-word free text (engine_state's chain words and tokens). */
const FREE_TEXT_KEYS = new Set(["subject", "object", "token", "connective"]);

/** A copy of a fixture under `root` whose every prose string (one with a space, or under {@link FREE_TEXT_KEYS}) in its JSON and JSON-lines files is a hostile string. */
function hostileCopy(fixture: string, root: string): string {
  const dir = path.join(root, fixture);
  fs.cpSync(path.join(REPO, "test/fixtures", fixture), dir, { recursive: true });
  let k = 0;
  const poison = (v: unknown, key = ""): unknown =>
    typeof v === "string" && (v.includes(" ") || FREE_TEXT_KEYS.has(key))
      ? `${v} ${HOSTILE_STRINGS[k++ % HOSTILE_STRINGS.length]}`
      : Array.isArray(v)
        ? v.map((x) => poison(x))
        : v !== null && typeof v === "object"
          ? Object.fromEntries(Object.entries(v).map(([name, x]) => [name, poison(x, name)]))
          : v;
  /** `text` with its JSON made hostile; a file that is not JSON (a fixture's own damage) stays as it is. */
  const poisonJson = (text: string): string => {
    try {
      return JSON.stringify(poison(JSON.parse(text)));
    } catch {
      return text;
    }
  };
  const visit = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const f = path.join(d, e.name);
      const text = e.isFile() ? fs.readFileSync(f, "utf8") : "";
      if (e.isDirectory()) visit(f);
      else if (e.name.endsWith(".json")) fs.writeFileSync(f, poisonJson(text));
      else if (e.name.endsWith(".jsonl")) {
        fs.writeFileSync(
          f,
          text
            .split("\n")
            .map((l) => (l.trim() ? poisonJson(l) : l))
            .join("\n"),
        );
      }
    }
  };
  visit(dir);
  assert.ok(k >= 5, `${fixture}: ${k} strings made hostile`);
  return dir;
}

/** Asserts that `text` of `surface` carries no hidden character raw (newline and tab allowed with `layout`) and no forged line. */
function assertClean(surface: string, text: string, layout = true): void {
  const raw = rawHidden(text, layout);
  assert.equal(raw, null, `${surface}: a hidden character reached the output raw: ${raw}`);
  assert.deepEqual(forgedLines(text), [], `${surface}: state text forged an output line`);
}

describe("hostile text on every surface", function () {
  this.timeout(120_000);
  let h: HostileRoot;
  let ws: string;
  let ids: string[];

  before(async () => {
    h = hostileRoot();
    ws = path.join(h.root, "evil");
    fs.mkdirSync(ws);
    const planFile = path.join(h.root, "plan-in.json");
    fs.writeFileSync(planFile, JSON.stringify(hostilePlan()));
    const init = runCliBounded(["init", ws, "--plan", planFile]);
    assert.equal(init.code, 0, init.err);
    const plan = JSON.parse(fs.readFileSync(path.join(ws, ".autodev/plan.json"), "utf8"));
    ids = plan.phases.flatMap((p: { tasks: { id: string }[] }) => p.tasks.map((t) => t.id));
    // A warning naming an id (tested without evidence), a blocked reason, an escalation.
    const py = (o: Record<string, unknown>) => new Map(Object.entries(o)) as never;
    await appendEntry(ws, "update_task_status", py({ task_id: ids[0], status: "tested" }), "s1");
    await appendEntry(ws, "mark_blocked", py({ task_id: ids[1], reason: HOSTILE_ALL }), "s1");
  });
  after(() => h.cleanup());

  it("the CLI: every command's text output, stdout and stderr @slow", () => {
    const runs: [string, string[]][] = [
      ["verify", ["verify", ws]],
      ["check", ["check", ws]],
      ["sources", ["sources", ws]],
      ["status", ["status", ws]],
      ["log", ["log", ws]],
      ["replay", ["replay", ws]],
      ["load", ["load", ws]],
      ["tournaments", ["tournaments", ws]],
      ["knowledge", ["knowledge", ws]],
      ["graph text", ["graph", ws]],
      ["graph dot", ["graph", ws, "--format", "dot"]],
      ["graph mermaid", ["graph", ws, "--format", "mermaid"]],
      ["report md", ["report", ws, "--format", "md"]],
      ["report html", ["report", ws, "--format", "html"]],
    ];
    for (const id of ids.filter((x) => !x.includes("\u0000"))) {
      // (an argument cannot hold a NUL)
      runs.push(
        ["evidence", ["evidence", ws, id]],
        ["diff", ["diff", ws, id]],
        ["log --task", ["log", ws, "--task", id]],
      );
      runs.push(["set-status (refused)", ["set-status", ws, id, `bogus ${HOSTILE_ALL.split("\u0000").join("")}`]]);
    }
    const escapedForgery = new Set<string>();
    for (const [name, args] of runs) {
      const r = runCliBounded(args);
      assert.ok(r.code >= 0 && r.code <= 5, `${name}: exit ${r.code}\n${r.err}`);
      assertClean(`${name} stdout`, r.out);
      assertClean(`${name} stderr`, r.err);
      if ((r.out + r.err).includes(`\\n${FORGED}`)) escapedForgery.add(name);
    }
    // Issue 32 item 8: these printed the id's newline raw, as a line of its own.
    for (const name of ["verify", "check", "status", "evidence", "diff", "set-status (refused)"]) {
      assert.ok(escapedForgery.has(name), `${name} showed the forging id escaped`);
    }
  });

  it("the language-model tools: invisible characters stripped, every answer framed as untrusted data", async () => {
    const folders = [{ name: "evil", path: ws }];
    const answers = [
      await statusAnswer(folders, {}),
      await checkAnswer(folders, {}),
      ...(await Promise.all(ids.map((taskId) => taskAnswer(folders, { taskId: taskId.replace(/[^\x20-\x7e]/g, "") })))),
      await taskAnswer(folders, { taskId: ids[5] }),
    ];
    for (const text of answers) {
      assertClean("tool answer", text);
      const j = JSON.parse(text);
      assert.equal(Object.keys(j)[0], "about");
      assert.equal(j.about, UNTRUSTED_NOTE);
    }
    // Issue 32 item 9: the tag characters spelled an instruction the model read and a person could not.
    const task = JSON.parse(answers[answers.length - 1]).tasks[0];
    assert.ok(task, "the tag-character task is found");
    assert.match(task.title ?? task.id, /^[^\u{e0000}-\u{e007f}]*$/u);
    assert.doesNotMatch(JSON.stringify(task), /SYSTEM/, "the hidden instruction is gone");
  });

  it("the tree (labels, descriptions, hovers), the timeline rows and the Problems messages of every source", async () => {
    const agloop = hostileCopy("agloop-clean", h.root);
    const engine = hostileCopy("engine-state-small", h.root);
    const seen = new Map<string, number>();
    for (const folder of [ws, agloop, engine]) {
      for (const source of STATE_SOURCES) {
        const location = await source.detect(folder);
        if (!location) continue;
        const walk = (nodes: readonly SourceTreeNode[]): void => {
          for (const n of nodes) {
            seen.set(source.kind, (seen.get(source.kind) ?? 0) + 1);
            // What src/extension/sources/sourceTreeItems.ts shows of a node.
            assertClean(`${source.kind} tree label`, labelText(n.label, 400), false);
            if (n.description !== undefined) {
              assertClean(`${source.kind} tree description`, labelText(n.description, 400), false);
            }
            // A hover is Markdown whose description keeps its lines: nothing hidden, but lines may be the state's.
            const raw = n.tooltip === undefined ? null : rawHidden(n.tooltip, true);
            assert.equal(raw, null, `${source.kind} tree hover: ${raw}`);
            walk(n.children ?? []);
          }
        };
        walk(await source.tree(location));
        for (const row of (await source.timeline?.(location)) ?? []) {
          for (const f of row.fields ?? []) assertClean(`${source.kind} timeline field`, displayLine(f.value), false);
          assertClean(`${source.kind} timeline summary`, displayLine(row.summary), false);
        }
        for (const p of await source.check(location)) {
          assertClean(`${source.kind} Problems`, displayLine(p.message), false);
        }
      }
    }
    assert.deepEqual([...seen.keys()].sort(), ["agloop", "autodev", "engine_state"]);
    for (const [kind, n] of seen) assert.ok(n > 5, `${kind}: ${n} tree nodes`);
  });
});
