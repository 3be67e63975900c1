// PLACEHOLDER (foundation harness): the lead replaces this with the real extension.
// Registers `autodev.refresh` and a trivial Plan tree that shows the folder name
// for every workspace folder holding `.autodev/plan-ledger.jsonl`.
import * as vscode from "vscode";

class PlaceholderPlanProvider implements vscode.TreeDataProvider<string> {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;

  refresh(): void {
    this.changed.fire();
  }

  getTreeItem(label: string): vscode.TreeItem {
    return new vscode.TreeItem(label);
  }

  async getChildren(): Promise<string[]> {
    const names: string[] = [];
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      const ledger = vscode.Uri.joinPath(folder.uri, ".autodev", "plan-ledger.jsonl");
      try {
        await vscode.workspace.fs.stat(ledger);
        names.push(folder.name);
      } catch {
        // no AutoDev state in this folder
      }
    }
    return names;
  }
}

export function activate(context: vscode.ExtensionContext): void {
  const provider = new PlaceholderPlanProvider();
  context.subscriptions.push(
    vscode.window.registerTreeDataProvider("autodev.plan", provider),
    vscode.commands.registerCommand("autodev.refresh", () => provider.refresh()),
  );
}

export function deactivate(): void {}
