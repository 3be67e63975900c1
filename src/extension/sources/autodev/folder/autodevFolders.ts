/**
 * AutoDev's view of the one folder registry: the workspace folders whose source is AutoDev, as
 * {@link AutodevFolder}s, and an event for their changes. It watches nothing and detects nothing
 * itself: the registry does both for every source.
 */
import * as vscode from "vscode";
import { Disposable } from "../../../disposable";
import type { StateFolders } from "../../stateFolders";
import { AutodevFolder } from "./autodevFolder";

/** Every AutoDev folder of the window. */
export class AutodevFolders extends Disposable {
  private readonly changed = this.register(new vscode.EventEmitter<AutodevFolder | undefined>());
  /** Fires with the folder that changed (undefined: the set of folders may have changed). */
  readonly onDidChange = this.changed.event;

  constructor(private readonly registry: StateFolders) {
    super();
    this.register(
      registry.onDidChange((s) => {
        if (s === undefined) this.changed.fire(undefined);
        else if (s instanceof AutodevFolder) this.changed.fire(s);
      }),
    );
  }

  /** Folders with `.autodev/`, in workspace order. */
  get folders(): AutodevFolder[] {
    return this.registry.ofKind("autodev").filter((f): f is AutodevFolder => f instanceof AutodevFolder);
  }

  /** The folder state for a workspace folder, if it has `.autodev/`. */
  get(folder: vscode.WorkspaceFolder): AutodevFolder | undefined {
    return this.byUri(folder.uri.toString());
  }

  /** The folder state of a workspace folder's URI string. */
  byUri(uri: string): AutodevFolder | undefined {
    return this.folders.find((f) => f.folder.uri.toString() === uri);
  }
}
