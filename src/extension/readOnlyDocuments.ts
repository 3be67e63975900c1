/**
 * Read-only virtual documents on the `autodev-view` scheme: replayed plans,
 * ledger entries pretty-printed, reports. Content is set by the extension,
 * never read from a path in the URI, so a hostile `.autodev/` cannot make it
 * read files.
 */
import * as vscode from "vscode";
import { Disposable } from "./disposable";

/** The URI scheme of these documents. */
export const VIEW_SCHEME = "autodev-view";

/** A TextDocumentContentProvider backed by an in-memory map. */
export class ReadOnlyDocuments extends Disposable implements vscode.TextDocumentContentProvider {
  private readonly docs = new Map<string, string>();
  private readonly changed = this.register(new vscode.EventEmitter<vscode.Uri>());
  readonly onDidChange = this.changed.event;
  private counter = 0;

  constructor() {
    super();
    this.register(vscode.workspace.registerTextDocumentContentProvider(VIEW_SCHEME, this));
  }

  /** Stores `text` under a new URI ending in `name` (its extension picks the language). */
  put(name: string, text: string): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: VIEW_SCHEME, path: `/${++this.counter}/${name}` });
    this.docs.set(uri.toString(), text);
    return uri;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.docs.get(uri.toString()) ?? vscode.l10n.t("This view has expired; run the command again.");
  }
}
