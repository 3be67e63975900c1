/**
 * Task rows carry nothing hidden from a plan's text: a plan whose phase and task titles, task ids,
 * criteria, dependencies and files hold bidi overrides, terminal escapes and other controls,
 * zero-width characters and newlines (written through AutoDev's commit path, so the ledger
 * verifies) shows every row of the editor's AutoDev tree — label, description and the spoken
 * label — as one plain line, and the hovers without any of those characters (line breaks the
 * Markdown itself makes aside).
 */
import "../helpers/fakeVscode";
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type * as vscode from "vscode";
import { PlanManager } from "../../../src/core/sources/autodev/ledger/planManager";
import { isHiddenCodePoint } from "../../../src/core/text/untrustedText";
import type { StateNode } from "../../../src/extension/sources/sourceAdapter";
import { EditorSession, openEditor } from "../helpers/editorSession";
import { copyFixture } from "../fixtures";

/** Bidi override, OSC/CSI escapes, BEL, zero-width space and joiner, a newline, a CR, a tag character. */
const HOSTILE = "\u202Eevil\u001b]8;;https://x\u0007\u001b[2J\u200b\u200d\nsecond line\r\u{E0041}";

function hidden(s: string, allowNewlines = false): string[] {
  return [...s]
    .map((c) => c.codePointAt(0)!)
    .filter((cp) => isHiddenCodePoint(cp) && !(allowNewlines && cp === 0x0a))
    .map((cp) => `U+${cp.toString(16).toUpperCase().padStart(4, "0")}`);
}

describe("hostile plan text in the editor's AutoDev tree", function () {
  this.timeout(60_000);
  let ws = "";
  let editor: EditorSession | undefined;

  before(async () => {
    ws = fs.realpathSync(copyFixture("python-small"));
    const pm = new PlanManager(ws, { sessionId: "hostile" });
    const plan = (await pm.load())!;
    for (const phase of plan.phases) {
      phase.title = `${phase.title}${HOSTILE}`;
      for (const t of phase.tasks) {
        t.title = `${t.title}${HOSTILE}`;
        t.description = `${t.description}${HOSTILE}`;
        t.files = [...t.files, `src/${HOSTILE}.py`];
        for (const c of t.acceptance) c.description = `${c.description}${HOSTILE}`;
      }
    }
    const first = plan.phases[0].tasks[0];
    first.id = `${first.id}${HOSTILE}`;
    plan.phases[0].tasks[1]?.depends_on.push(first.id);
    await pm.save(plan);
    editor = await openEditor([ws]);
  });

  after(() => {
    editor?.dispose();
    // copyFixture made `ws` itself under the temp folder: remove that folder, nothing above it.
    if (ws && path.dirname(ws) === fs.realpathSync(os.tmpdir())) fs.rmSync(ws, { recursive: true, force: true });
  });

  it("every row is one plain line; hovers hold no hidden characters", async () => {
    const folder = editor!.folders.all.find((f) => f.kind === "autodev")!;
    const tree = editor!.adapterOf("autodev").tree;
    const bad: string[] = [];
    let rows = 0;
    let tasks = 0;
    const walk = async (nodes: StateNode[], depth: number): Promise<void> => {
      for (const n of nodes) {
        const item = tree.item(n, false);
        rows++;
        if (String(item.contextValue).startsWith("autodevTask")) tasks++;
        const parts: Array<[string, string, boolean]> = [
          ["label", String(typeof item.label === "object" ? item.label.label : item.label), false],
          ["description", String(item.description ?? ""), false],
          ["spoken", item.accessibilityInformation?.label ?? "", false],
          ["tooltip", (item.tooltip as vscode.MarkdownString | undefined)?.value ?? String(item.tooltip ?? ""), true],
        ];
        for (const [what, text, md] of parts) {
          const found = hidden(text, md);
          if (found.length) bad.push(`${what} of ${item.id}: ${found.join(" ")} in ${JSON.stringify(text)}`);
        }
        if (depth < 4) await walk(await tree.children(n), depth + 1);
      }
    };
    await walk(await tree.children(tree.roots(folder)[0]), 0);
    assert.ok(tasks >= 3 && rows >= 20, `walked ${rows} rows, ${tasks} tasks`);
    assert.deepEqual(bad, []);
  });
});
