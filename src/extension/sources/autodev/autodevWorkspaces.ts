/**
 * Tracks every workspace folder (multi-root) that has a `.autodev/` folder,
 * keeps an {@link AutodevFolder} for each, and watches `.autodev/**` for
 * external changes: Python replaces the ledger by rename on every append, so
 * create, change and delete events all count. Bursts are debounced.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import { AUTODEV_DIR, autodevRoot, ledgerPath } from "../../../core/sources/autodev/autodevPaths";
import { AutodevFolder } from "./autodevFolder";
import { Disposable } from "../../disposable";
import { LedgerWorkerClient } from "../../ledgerWorkerClient";
import { OutputLog } from "../../outputLog";
import { Settings } from "../../settings";

/** All AutoDev folders of the window. */
export class AutodevWorkspaces extends Disposable {
  private readonly byUri = new Map<string, AutodevFolder>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly changed = this.register(new vscode.EventEmitter<AutodevFolder | undefined>());
  /** Fires with the folder that changed (undefined = the set of folders changed). */
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly worker: LedgerWorkerClient,
    private readonly memento: vscode.Memento,
    private readonly log: OutputLog,
    private readonly settings: Settings,
  ) {
    super();
    this.register(vscode.workspace.onDidChangeWorkspaceFolders(() => this.sync()));
    this.register(vscode.workspace.onDidGrantWorkspaceTrust(() => this.sync()));
    const watcher = this.register(vscode.workspace.createFileSystemWatcher(`**/${AUTODEV_DIR}/**`));
    const onEvent = (uri: vscode.Uri) => this.onFileEvent(uri);
    this.register(watcher.onDidCreate(onEvent), watcher.onDidChange(onEvent), watcher.onDidDelete(onEvent));
  }

  /** Folders with `.autodev/`, in workspace order. */
  get folders(): AutodevFolder[] {
    return (vscode.workspace.workspaceFolders ?? [])
      .map((f) => this.byUri.get(f.uri.toString()))
      .filter((f): f is AutodevFolder => !!f);
  }

  /** The folder state for a workspace folder, if it has `.autodev/`. */
  get(folder: vscode.WorkspaceFolder): AutodevFolder | undefined {
    return this.byUri.get(folder.uri.toString());
  }

  /** The folder state whose `.autodev/` contains `uri`. */
  forUri(uri: vscode.Uri): AutodevFolder | undefined {
    const wf = vscode.workspace.getWorkspaceFolder(uri);
    return wf ? this.get(wf) : undefined;
  }

  /** Adds folders that gained `.autodev/`, drops those that lost it. */
  sync(): void {
    const seen = new Set<string>();
    for (const wf of vscode.workspace.workspaceFolders ?? []) {
      if (wf.uri.scheme !== "file") continue;
      const key = wf.uri.toString();
      if (!fs.existsSync(autodevRoot(wf.uri.fsPath))) continue;
      seen.add(key);
      let f = this.byUri.get(key);
      const refusal = linkRefusal(wf.uri.fsPath);
      if (!f) {
        f = new AutodevFolder(wf, this.worker, this.memento, this.log);
        const created = f;
        this.byUri.set(key, f);
        f.onDidChange(() => this.changed.fire(created));
        this.log.info(`watching ${wf.uri.fsPath}/${AUTODEV_DIR}`);
        f.setReadRefusal(refusal);
        if (!refusal) void f.loadTail().then(() => created.refresh());
      } else if (f.readRefusal !== refusal) {
        f.setReadRefusal(refusal);
        if (!refusal) void f.loadTail().then(() => f!.refresh());
      }
      if (refusal) this.log.warn(`${wf.name}: ${refusal}`);
    }
    for (const [key, f] of this.byUri) {
      if (!seen.has(key)) {
        this.byUri.delete(key);
        void this.worker.request({ type: "dispose", cwd: f.cwd }).catch(() => undefined);
        f.dispose();
      }
    }
    this.changed.fire(undefined);
  }

  private onFileEvent(uri: vscode.Uri): void {
    if (uri.fsPath.includes(`${path.sep}${AUTODEV_DIR}${path.sep}`) && /\.tmp$/.test(uri.fsPath)) return; // writers' temp files
    const wf = vscode.workspace.getWorkspaceFolder(uri);
    if (!wf) return;
    const key = wf.uri.toString();
    clearTimeout(this.timers.get(key));
    this.timers.set(
      key,
      setTimeout(() => {
        this.timers.delete(key);
        const known = this.byUri.get(key);
        const exists = fs.existsSync(autodevRoot(wf.uri.fsPath));
        if (!known || !exists) return this.sync();
        if (this.settings.verifyOnChange) void known.refresh();
        else void known.loadTail();
      }, this.settings.debounceMs),
    );
  }

  /** Refreshes every folder. */
  async refreshAll(): Promise<void> {
    this.sync();
    await Promise.all(this.folders.map((f) => f.refresh()));
  }

  override dispose(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    for (const f of this.byUri.values()) f.dispose();
    this.byUri.clear();
    super.dispose();
  }
}

/**
 * In an untrusted workspace, a `.autodev/` (or ledger) that resolves outside
 * the workspace folder is not read at all: a cloned repository must not make
 * us read files elsewhere on the machine. Trusted: read (never written; the
 * core's PlanManager refuses writes through such links).
 */
function linkRefusal(folder: string): string | null {
  if (vscode.workspace.isTrusted) return null;
  try {
    const root = fs.realpathSync(folder);
    for (const p of [autodevRoot(folder), ledgerPath(folder)]) {
      if (!fs.existsSync(p)) continue;
      const rel = path.relative(root, fs.realpathSync(p));
      if (rel.startsWith("..") || path.isAbsolute(rel)) {
        return vscode.l10n.t(
          "{0} links outside this workspace folder; it is not read in an untrusted workspace. Trust the workspace to read it (it is never written through the link).",
          path.relative(folder, p),
        );
      }
    }
  } catch (e) {
    return vscode.l10n.t("cannot resolve .autodev/: {0}", e instanceof Error ? e.message : String(e));
  }
  return null;
}
