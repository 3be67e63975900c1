// The editor's AutoDev tree on snapshots of the real AutoDev run (test/fixtures/autodev-real-run/,
// AutoDev's own inline-mode run): each snapshot opens as a workspace folder and what the Plan view
// shows is compared with what AutoDev itself said about that state — autodev-answers.json (its
// `list_evidence` per task, `PlanManager.load()`'s tasks, `load_suspend_state()`, and what `resume` and
// `execute --task` did on a copy) and manifest.json (the files AutoDev left). Expected values are
// derived from those records, never written out here.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as vscode from "vscode";
import type { StateApi } from "../../../src/extension/extension";
import type { AutodevFolder } from "../../../src/extension/sources/autodev/folder/autodevFolder";
import type { AutodevNode } from "../../../src/extension/sources/autodev/autodevNodes";
import { type RealRunAnswers, materializeRealRun, realRunAnswers, realRunFiles } from "../../unit/helpers/realRun";
import { type AnyNode, autodevOf, childrenOf, eventually, stateApi } from "../helpers";
import { addWorkspaceFolders, removeWorkspaceFolders } from "../workspaceFolders";

/** Waiting on a reviewer, on the escalated critic, the blocked task, and the run complete. */
const STEPS = [
  "07-1.1-reviewer-waiting",
  "12-1.2-reviewer-waiting",
  "13-1.2-escalated-critic-waiting",
  "14-1.2-blocked",
  "22-run-complete",
];

/** A rendered node: its id, label, description, context value. */
interface Shown {
  readonly node: AnyNode;
  readonly id: string;
  readonly label: string;
  readonly description: string;
  readonly context: string;
}

/** What AutoDev said and left at one step, and the folder the editor opened on it. */
interface Opened {
  readonly step: string;
  readonly dir: string;
  readonly folder: AutodevFolder;
  readonly answers: RealRunAnswers;
  readonly files: readonly string[];
}

function shown(a: StateApi, node: AnyNode): Shown {
  const item = a.tree.getTreeItem(node);
  const label = typeof item.label === "string" ? item.label : (item.label?.label ?? "");
  const id = (node as AutodevNode).id ?? "";
  return { node, id, label, description: String(item.description ?? ""), context: item.contextValue ?? "" };
}

async function shownChildren(a: StateApi, node: AnyNode): Promise<Shown[]> {
  return (await childrenOf(a, node)).map((n) => shown(a, n));
}

/** `{task}-{role}` names of `.autodev/{dir}/` files with extension `ext`, as [task, role] pairs. */
function stepFiles(files: readonly string[], dir: string, ext: string): Array<[string, string]> {
  const re = new RegExp(`^\\.autodev/${dir}/([^/-]+)-([^/]+)\\${ext}$`);
  return files.flatMap((f) => {
    const m = re.exec(f);
    return m ? [[m[1], m[2]] as [string, string]] : [];
  });
}

/** The tasks whose every response AutoDev read again with no one asked: `execute --task` on a copy wrote no delegation. */
function staleByAutodev(o: Opened): Set<string> {
  const out = new Set<string>();
  for (const [name, run] of Object.entries(o.answers.on_copy)) {
    const m = /^execute --task (\S+)$/.exec(name);
    if (!m) continue;
    const asked = run.effects.files_added.some((f) => f.startsWith(`.autodev/delegations/${m[1]}-`));
    const after = run.effects.tasks_after?.find((t) => t.id === m[1])?.status;
    const before = o.answers.recorded.load?.tasks.find((t) => t.id === m[1])?.status;
    if (!asked && after === before) out.add(m[1]);
  }
  return out;
}

describe("The editor's AutoDev tree shows what AutoDev says on the real run", function () {
  this.timeout(180_000);
  let a: StateApi;
  const open: Opened[] = [];
  const opened = (step: string): Opened => open.find((o) => o.step === step)!;

  before(async () => {
    a = await stateApi();
    const dirs = STEPS.map((step) => ({ step, dir: materializeRealRun(step) }));
    await addWorkspaceFolders(dirs.map((d) => ({ dir: d.dir, name: `real-${d.step.slice(0, 2)}` })));
    for (const d of dirs) {
      const find = () => autodevOf(a).folders.folders.find((x) => x.cwd === d.dir);
      assert.ok(
        await eventually(() => !!find()?.live && !!find()?.run && find()!.problems !== null, 60_000),
        `${d.step} never loaded`,
      );
      open.push({ ...d, folder: find()!, answers: realRunAnswers(d.step), files: realRunFiles(d.step) });
    }
  });

  // The suites after this one count waits and folders: these are gone before it ends.
  after(async () => {
    await removeWorkspaceFolders(
      a,
      open.map((o) => o.dir),
    );
    for (const o of open) fs.rmSync(o.dir, { recursive: true, force: true });
  });

  async function rootOf(folder: AutodevFolder): Promise<AnyNode> {
    const root = (await childrenOf(a)).find((n) => n.kind === "root" && n.folder === folder);
    assert.ok(root, "no root node");
    return root;
  }

  async function taskKids(o: Opened, id: string): Promise<Shown[]> {
    const node = await autodevOf(a).findTaskNode(o.folder, id);
    assert.ok(node, `${o.step}: no task ${id}`);
    return shownChildren(a, node);
  }

  for (const step of STEPS) {
    it(`${step}: waits on whom load_suspend_state names, first in the tree and in the badge, or on no one`, async () => {
      const o = opened(step);
      const s = o.answers.recorded.suspend;
      const resume = o.answers.on_copy.resume;
      const top = await shownChildren(a, await rootOf(o.folder));
      const waits = a.folders.waiting.filter((w) => w.folder.folder.uri.fsPath === o.dir);
      if (s && !s.has_pending_response && /^Waiting for agent response/.test(resume.stdout)) {
        assert.equal(top[0].context, "autodevWaiting", `first node: ${top[0].label}`);
        assert.ok(top[0].label.includes(s.pending_role) && top[0].label.includes(s.pending_task_id), top[0].label);
        const delegation = (await shownChildren(a, top[0].node)).find((n) => n.context === "autodevDelegation.pending");
        assert.ok(delegation, "no pending delegation under the waiting node");
        assert.ok(resume.stdout.includes(`Delegation: ${delegation.description}`), delegation.description);
        assert.equal(waits.length, 1, "the badge does not count this folder");
        assert.equal(waits[0].waiting.taskId, s.pending_task_id);
        assert.ok(a.treeView.badge && a.treeView.badge.value >= 1);
      } else {
        assert.deepEqual(
          top.filter((n) => n.context === "autodevWaiting").map((n) => n.label),
          [],
        );
        assert.deepEqual(waits, [], "the badge counts a run that waits on no one");
      }
    });

    it(`${step}: each task's evidence bundles are list_evidence's, the patch apart, evidence_bundle resolved`, async () => {
      const o = opened(step);
      for (const t of o.answers.recorded.load?.tasks ?? []) {
        const kids = await taskKids(o, t.id);
        const listed = o.answers.recorded.evidence[t.id];
        assert.ok(listed, `list_evidence has no ${t.id}`);
        const expected = listed.kinds.map((k) => `${t.id}-${k}.json`).sort();
        for (const f of expected) assert.ok(o.files.includes(`.autodev/evidence/${f}`), `${f} not in the manifest`);
        const bundles = kids.filter((k) => k.id.includes("|ev|b|"));
        const files = bundles.map((b) => b.description.replace(/ ★$/, "")).sort();
        assert.equal(bundles.length, listed.count, `${t.id}: ${files.join(", ")}`);
        assert.deepEqual(files, expected, `${t.id}: bundles`);
        const patches = kids.filter((k) => k.id.includes("|ev|patch|")).map((k) => k.description);
        const patch = `${t.id}.patch`;
        assert.deepEqual(patches, o.files.includes(`.autodev/evidence/${patch}`) ? [patch] : [], `${t.id}: patch`);
        assert.deepEqual(
          kids.filter((k) => /missing/.test(k.label)).map((k) => k.label),
          [],
          `${t.id}`,
        );
        const recorded = t.evidence_bundle?.replace(/^\.autodev\/evidence\//, "") ?? null;
        const ref = kids.find((k) => k.id.endsWith("|ev|ref"));
        const starred = bundles.filter((b) => b.description.endsWith(" ★")).map((b) => b.description.slice(0, -2));
        if (recorded === null || o.files.includes(`.autodev/evidence/${recorded}`)) {
          assert.equal(ref, undefined, `${t.id}: ${ref?.label}`);
          assert.deepEqual(starred, recorded ? [recorded] : []);
          continue;
        }
        // AutoDev recorded a file it never wrote: the node names the bundle list_evidence found instead.
        assert.ok(ref, `${t.id}: nothing says evidence_bundle ${recorded} is not there`);
        assert.ok(ref.description.includes(recorded), ref.description);
        const resolved = expected.find((f) => ref.label.includes(f));
        assert.ok(resolved, `${t.id}: "${ref.label}" names none of ${expected.join(", ")}`);
        assert.deepEqual(starred, [resolved], `${t.id}: the resolved bundle is not starred`);
      }
    });

    it(`${step}: each task's delegation history is the delegations and responses AutoDev left`, async () => {
      const o = opened(step);
      const s = o.answers.recorded.suspend;
      const stale = staleByAutodev(o);
      const steps = [...stepFiles(o.files, "delegations", ".md"), ...stepFiles(o.files, "responses", ".json")];
      for (const t of o.answers.recorded.load?.tasks ?? []) {
        const roles = [...new Set(steps.filter(([id]) => id === t.id).map(([, role]) => role))].sort();
        const history = (await taskKids(o, t.id)).find((k) => k.label === "Delegations");
        assert.equal(!!history, roles.length > 0, `${t.id}: Delegations shown ${!!history}, roles ${roles.join(",")}`);
        if (!history) continue;
        const rows = await shownChildren(a, history.node);
        assert.deepEqual(rows.map((r) => r.label).sort(), roles, `${t.id}: roles`);
        for (const r of rows) {
          const pending = s?.pending_task_id === t.id && s.pending_role === r.label;
          const want = pending
            ? s.has_pending_response
              ? "autodevStep.answered"
              : "autodevStep.waiting"
            : stale.has(t.id)
              ? "autodevStep.stale"
              : null;
          const notPending = !["autodevStep.waiting", "autodevStep.answered"].includes(r.context);
          if (want) assert.equal(r.context, want, `${t.id} ${r.label}`);
          else assert.ok(notPending, `${t.id} ${r.label}: ${r.context}`);
        }
        if (stale.has(t.id)) {
          const files = (o.folder.problems ?? []).filter((p) => p.code === "stale_response").map((p) => p.file);
          const responses = stepFiles(o.files, "responses", ".json").filter(([id]) => id === t.id);
          assert.ok(responses.length > 0, `${t.id}: no response to be stale`);
          for (const [id, role] of responses) {
            assert.ok(files.includes(`.autodev/responses/${id}-${role}.json`), `no Problem for ${id}-${role}.json`);
          }
        }
      }
    });
  }

  it("07-1.1-reviewer-waiting: the pending step opens the delegation in one click, as a Markdown preview", async () => {
    const o = opened("07-1.1-reviewer-waiting");
    const s = o.answers.recorded.suspend!;
    const node = await autodevOf(a).findTaskNode(o.folder, s.pending_task_id);
    const history = (await childrenOf(a, node!)).find((k) => shown(a, k).label === "Delegations")!;
    const pending = (await childrenOf(a, history)).find((k) => shown(a, k).label === s.pending_role)!;
    const item = a.tree.getTreeItem(pending);
    assert.equal(item.command?.command, "autodev.openDelegation");
    const preview = new RegExp(`Preview.*${s.pending_task_id.replace(".", "\\.")}-${s.pending_role}\\.md`);
    const active = () => vscode.window.tabGroups.activeTabGroup.activeTab?.label ?? "";
    await vscode.commands.executeCommand(item.command.command, ...(item.command.arguments ?? []));
    assert.ok(await eventually(() => preview.test(active()), 20_000), `active tab: ${active()}`);
    // The waiting node's own button works from the node (its folder is found through its parents).
    const waiting = (await childrenOf(a, await rootOf(o.folder)))[0];
    await vscode.commands.executeCommand("workbench.action.closeActiveEditor");
    await vscode.commands.executeCommand("autodev.openDelegation", waiting);
    assert.ok(await eventually(() => preview.test(active()), 20_000), `active tab: ${active()}`);
  });
});
