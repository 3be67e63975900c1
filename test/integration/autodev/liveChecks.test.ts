/**
 * Checks that stay live, and one state shown the same everywhere (issue 22 items 5, 6 and 16), on
 * the first folder (python-small): an edited plan.json shows its drift in Problems without a
 * Verify and a restored one clears it (the time from the write to the Problems change is
 * printed); a ledger cut back to an earlier head reads "history rewritten" in the status bar, on
 * the tree's root and in Problems, restoring the identical file clears all three, and accepting
 * asks first, saying what is accepted; Verify's message counts what Problems lists and never
 * reads "0.0 s"; a ledger line without its newline written just now (an append in place, half
 * done) is not shown as an error at once, and shows as one once nobody finished it.
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import type { StateApi } from "../../../src/extension/extension";
import type { AutodevFolder } from "../../../src/extension/sources/autodev/folder/autodevFolder";
import { autodevOf, childrenOf, eventually, report, stateApi, awaitAutodevVerified } from "../helpers";

describe("live checks and one state everywhere", function () {
  this.timeout(120_000);
  let a: StateApi;
  let f: AutodevFolder;

  before(async () => {
    a = await stateApi();
    await awaitAutodevVerified(a);
    f = autodevOf(a).folders.folders[0];
  });

  const planFile = () => path.join(f.cwd, ".autodev", "plan.json");
  const codes = (file: string) => a.diagnostics.get(vscode.Uri.file(file)).map((d) => String(d.code));
  const rootDescription = async () => {
    const root = (await childrenOf(a)).find((n) => n.kind === "root" && n.folder === f)!;
    return String(a.tree.getTreeItem(root).description);
  };
  /** Waits for `check`, returning how long it took (ms) or failing with `what`. */
  async function timed(check: () => boolean, what: string): Promise<number> {
    const t0 = Date.now();
    assert.ok(await eventually(check, 15_000), what);
    return Date.now() - t0;
  }

  it("plan.json drift shows in Problems when the file is edited and clears when it is restored", async () => {
    const original = fs.readFileSync(planFile());
    assert.ok(!codes(planFile()).includes("plan_json_mismatch"), "plan.json matches the ledger to begin with");
    try {
      fs.writeFileSync(planFile(), original.toString("utf8").replace(/"status": "(\w+)"/, '"status": "edited"'));
      const shown = await timed(
        () => codes(planFile()).includes("plan_json_mismatch"),
        "the drift never showed without a Verify",
      );
      const d = a.diagnostics.get(vscode.Uri.file(planFile())).find((x) => x.code === "plan_json_mismatch")!;
      assert.match(d.message, /plan\.json does not match the plan in the ledger/);
      fs.writeFileSync(planFile(), original);
      const cleared = await timed(
        () => !codes(planFile()).includes("plan_json_mismatch"),
        "the drift stayed after plan.json was restored",
      );
      report(`plan.json edit → Problems: ${shown} ms; restore → cleared: ${cleared} ms`);
    } finally {
      fs.writeFileSync(planFile(), original);
    }
  });

  it("a ledger cut back reads 'history rewritten' in the status bar, the root and Problems; the identical file clears it", async () => {
    const original = fs.readFileSync(f.ledgerFile);
    const lines = original.toString("utf8").split("\n").filter(Boolean);
    assert.ok(lines.length > 6);
    assert.equal(f.rewriteFinding, null);
    try {
      fs.writeFileSync(f.ledgerFile, lines.slice(0, lines.length - 5).join("\n") + "\n");
      await timed(() => f.rewriteFinding !== null, "the rollback was never noticed");
      assert.equal(f.report?.ok, true, "a prefix of a valid chain verifies");
      const status = a.statusBar.text ?? "";
      assert.match(status, /history rewritten/);
      assert.doesNotMatch(status, /ledger broken|ledger ok/, status);
      assert.match(await rootDescription(), /history rewritten/);
      assert.doesNotMatch(await rootDescription(), /ledger ok/);
      await timed(() => codes(f.ledgerFile).includes("history_rewritten"), "Problems never said so");
      const d = a.diagnostics.get(vscode.Uri.file(f.ledgerFile)).find((x) => x.code === "history_rewritten")!;
      assert.equal(d.severity, vscode.DiagnosticSeverity.Warning);
      assert.equal(d.range.start.line, lines.length - 6, "at the ledger's last line");

      // Accepting asks first and says what is accepted; declining changes nothing.
      const asked: string[] = [];
      const declined = await autodevOf(a).ledger.acceptHistory(f.folder.uri.toString(), async (m, detail) => {
        asked.push(`${m}\n${detail}`);
        return false;
      });
      assert.equal(declined, false);
      assert.equal(asked.length, 1);
      assert.match(asked[0], new RegExp(`seq ${lines.length}\\b[\\s\\S]*now ends at seq ${lines.length - 5}\\b`));
      assert.notEqual(f.rewriteFinding, null, "declining keeps the warning");

      // The identical file again: the known head is back, the warning goes everywhere.
      fs.writeFileSync(f.ledgerFile, original);
      await timed(() => f.rewriteFinding === null, "restoring the known head did not clear the warning");
      await timed(() => !codes(f.ledgerFile).includes("history_rewritten"), "Problems kept the warning");
      assert.match(a.statusBar.text ?? "", /ledger ok/);
      assert.match(await rootDescription(), /ledger ok/);
    } finally {
      fs.writeFileSync(f.ledgerFile, original);
    }
    await timed(() => f.rewriteFinding === null && f.entries === lines.length, "the ledger did not come back");
  });

  it("accepting a rewritten history after the question remembers the new head", async () => {
    const original = fs.readFileSync(f.ledgerFile);
    const lines = original.toString("utf8").split("\n").filter(Boolean);
    try {
      fs.writeFileSync(f.ledgerFile, lines.slice(0, lines.length - 2).join("\n") + "\n");
      await timed(() => f.rewriteFinding !== null, "the rollback was never noticed");
      const accepted = await autodevOf(a).ledger.acceptHistory(f.folder.uri.toString(), async () => true);
      assert.equal(accepted, true);
      assert.equal(f.rewriteFinding, null);
      assert.ok(!codes(f.ledgerFile).includes("history_rewritten"));
    } finally {
      fs.writeFileSync(f.ledgerFile, original); // extends the accepted head: no rewrite
    }
    await timed(() => f.entries === lines.length, "the ledger did not come back");
    assert.equal(f.rewriteFinding, null);
  });

  it("a ledger line still without its newline is no error while just written; left cut off, it is one", async () => {
    const original = fs.readFileSync(f.ledgerFile);
    const tails = () => (f.report?.errors ?? []).filter((e) => e.kind === "truncated_tail").length;
    assert.equal(tails(), 0, "no cut-off line to begin with");
    try {
      fs.appendFileSync(f.ledgerFile, '{"seq": 99999, "op": "update_task_status", "payl'); // an append in place, half done
      await f.refreshLedger(); // a live refresh just after the write (the watcher's comes at once too)
      assert.equal(tails(), 0, "half an append showed as a cut-off line");
      assert.ok(!codes(f.ledgerFile).includes("truncated_tail"), "Problems showed half an append as an error");
      // Nobody finishes it: once the grace is over the same bytes are the error they are, with no new event.
      await timed(
        () => tails() === 1 && codes(f.ledgerFile).includes("truncated_tail"),
        "the cut-off line never showed",
      );
    } finally {
      fs.writeFileSync(f.ledgerFile, original);
    }
    await timed(
      () => tails() === 0 && !codes(f.ledgerFile).includes("truncated_tail"),
      "the restored ledger kept the error",
    );
  });

  it("Verify's message counts what Problems lists for the folder and says milliseconds, not 0.0 s", async () => {
    const original = fs.readFileSync(f.ledgerFile);
    const lines = original.toString("utf8").split("\n");
    lines[2] = lines[2].replace(/"status": "(\w+)"/, '"status": "tampered"');
    lines[4] = lines[4].replace(/"status": "(\w+)"/, '"status": "tampered"');
    try {
      fs.writeFileSync(f.ledgerFile, lines.join("\n"));
      assert.equal(await vscode.commands.executeCommand("autodev.verify", f.folder.uri.toString()), false);
      const text = autodevOf(a).ledger.lastOutcome ?? "";
      const inFolder = vscode.languages
        .getDiagnostics()
        .filter(([uri]) => uri.fsPath.startsWith(f.cwd + path.sep))
        .flatMap(([, ds]) => ds.filter((d) => String(d.source).startsWith("AutoDev")));
      const n = (sev: vscode.DiagnosticSeverity) => inFolder.filter((d) => d.severity === sev).length;
      const errors = n(vscode.DiagnosticSeverity.Error);
      assert.ok(errors >= 2, `${errors} errors`);
      assert.match(text, new RegExp(`\\(${errors} errors`), text);
      const warnings = n(vscode.DiagnosticSeverity.Warning);
      if (warnings) assert.match(text, new RegExp(`${warnings} warnings?`), text);
      else assert.doesNotMatch(text, /warning/, text);
    } finally {
      fs.writeFileSync(f.ledgerFile, original);
    }
    assert.equal(await vscode.commands.executeCommand("autodev.verify", f.folder.uri.toString()), true);
    const ok = autodevOf(a).ledger.lastOutcome ?? "";
    assert.match(ok, /verified in (\d+ ms|\d+\.\d s)/, ok);
    assert.doesNotMatch(ok, /0\.0 s/);
  });
});
