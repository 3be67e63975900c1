// Guard, at runtime: the `autodev.*` commands VS Code knows after activation are exactly the
// ones package.json contributes (besides the ones VS Code itself derives from view ids).
import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import { extension } from "./helpers";

/** Commands the workbench generates for every contributed view, e.g. `autodev.plan.focus`. */
const VIEW_COMMAND_SUFFIXES = ["focus", "resetViewLocation", "toggleVisibility", "removeView", "open"];

describe("command registry", () => {
  it("registers every contributed command and contributes every registered one", async () => {
    const ext = extension();
    await ext.activate();
    const contributes = ext.packageJSON.contributes;
    const contributed = new Set<string>((contributes.commands as Array<{ command: string }>).map((c) => c.command));
    const viewIds = Object.values(contributes.views as Record<string, Array<{ id: string }>>)
      .flat()
      .map((v) => v.id);
    const derived = new Set(viewIds.flatMap((id) => VIEW_COMMAND_SUFFIXES.map((s) => `${id}.${s}`)));

    const registered = new Set(
      (await vscode.commands.getCommands(true)).filter((id) => id.startsWith("autodev.") && !derived.has(id)),
    );
    const notRegistered = [...contributed].filter((id) => !registered.has(id)).sort();
    const notContributed = [...registered].filter((id) => !contributed.has(id)).sort();
    assert.deepEqual(notRegistered, [], `contributed but not registered: ${notRegistered.join(", ")}`);
    assert.deepEqual(notContributed, [], `registered but not contributed: ${notContributed.join(", ")}`);
  });
});
