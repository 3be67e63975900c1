/**
 * Read-only virtual documents on the `autodev-view` scheme: replayed plans,
 * ledger entries pretty-printed, reports, the sides of state diffs. Content is set by the extension,
 * never read from a path in the URI, so a hostile `.autodev/` cannot make it
 * read files.
 */
import * as vscode from "vscode";
import { Disposable } from "./disposable";

/**
 * The `$schema` of a JSON text when it names a sibling file rather than a schema URL (agloop's
 * state.json says "agloop-state-v1", a version word). The JSON extension resolves such a name next
 * to the document and reports it as a schema it cannot load; next to these documents an empty
 * schema is served under that name, so opening one adds nothing to Problems.
 */
function siblingSchema(text: string): string | null {
  const m = /^\s*\{\s*"\$schema"\s*:\s*"([A-Za-z0-9][A-Za-z0-9._-]{0,99})"/.exec(text);
  return m && !m[1].includes("..") ? m[1] : null;
}

/** The URI scheme of these documents. */
const VIEW_SCHEME = "autodev-view";

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
    const dir = `/${++this.counter}`;
    const uri = vscode.Uri.from({ scheme: VIEW_SCHEME, path: `${dir}/${name}` });
    this.docs.set(uri.toString(), text);
    const schema = name.endsWith(".json") ? siblingSchema(text) : null;
    if (schema) this.docs.set(vscode.Uri.from({ scheme: VIEW_SCHEME, path: `${dir}/${schema}` }).toString(), "{}");
    return uri;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.docs.get(uri.toString()) ?? vscode.l10n.t("This view has expired; run the command again.");
  }
}
