/**
 * The graph, the run report and the language-model tools are requests of the one state worker,
 * started by the host's client with the user's settings: `autodev.maxLineMB` reaches them. (Before,
 * they ran in a graph worker of their own that never got the setting, so they read with the 256 MiB
 * default whatever the user set.) The built worker (dist/stateWorker.js) runs in a real thread.
 */
import { fakeVscode } from "../helpers/fakeVscode";
import { registeredTools } from "../helpers/fakeLanguageModel";
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as path from "node:path";
import { PlanManager } from "../../../src/core/sources/autodev/ledger/planManager";
import { registerLanguageModelTools } from "../../../src/extension/agentTools/languageModelTools";
import { OutputLog } from "../../../src/extension/outputLog";
import { StateWorkerClient } from "../../../src/extension/stateWorkerClient";
import { copyFixture, REPO_ROOT } from "../fixtures";

const MIB = 1024 * 1024;
const WORKER = path.join(REPO_ROOT, "dist", "stateWorker.js");

describe("autodev.maxLineMB reaches the graph, the report and the language-model tools @slow", () => {
  let workspace: string;
  const clients: StateWorkerClient[] = [];

  before(async () => {
    assert.ok(fs.existsSync(WORKER), `${WORKER} is missing: npm run pretest builds it`);
    workspace = path.join(copyFixture("autodev-real-run/09-1.1-complete"), "workspace");
    // An entry of 2 MiB, chained as AutoDev appends: over a 1 MiB limit, under the 256 MiB default.
    await new PlanManager(workspace, { sessionId: "long-line" }).ledgerAppend(
      "append_evidence",
      new Map<string, string>([
        ["task_id", "1.1"],
        ["text", "x".repeat(2 * MIB)],
      ]),
    );
  });

  after(() => {
    for (const c of clients) c.dispose();
  });

  /** What the three answer with the host's client started at `limitMB`. */
  async function answers(limitMB: number): Promise<{ tool: string; report: string; graphVerified: boolean | null }> {
    const client = new StateWorkerClient(new OutputLog(), () => limitMB * MIB, WORKER);
    clients.push(client);
    registeredTools.clear();
    registerLanguageModelTools({ subscriptions: [] } as never, client);
    const result = await registeredTools.get("autodev_state_check")!.invoke({ input: {} });
    const report = await client.request({ type: "report", cwd: workspace, format: "json" });
    const graph = await client.request({ type: "graph", cwd: workspace });
    return { tool: result.content[0].value, report: report.text, graphVerified: graph.views[0].graph.verified };
  }

  it("a 1 MiB limit skips the 2 MiB line in all three; the default reads it", async function () {
    this.timeout(60_000);
    (fakeVscode.workspace as { workspaceFolders?: unknown }).workspaceFolders = [
      { uri: fakeVscode.Uri.file(workspace), name: "ws", index: 0 },
    ];
    const limited = await answers(1);
    const byDefault = await answers(256);
    assert.match(limited.tool, /line_too_long/, "the check tool read with the user's 1 MiB limit");
    assert.match(limited.report, /line_too_long|line-length limit/, "the report read with the user's limit");
    assert.equal(limited.graphVerified, false, "the graph read with the user's limit (the ledger does not verify)");
    assert.doesNotMatch(byDefault.tool, /line_too_long/, "with the default limit the tool reads the line");
    assert.doesNotMatch(byDefault.report, /line_too_long|line-length limit/);
    assert.equal(byDefault.graphVerified, true, "with the default limit the ledger verifies");
  });
});
