/**
 * A small stand-in for the `vscode` module, enough to run the generic source
 * renderers (tree items, diagnostics) in plain Node: import this file before
 * any module that requires "vscode". It records what the code under test
 * builds; it implements no editor behaviour.
 */
import Module from "node:module";

class ThemeColor {
  constructor(readonly id: string) {}
}
class ThemeIcon {
  static readonly File = new ThemeIcon("file");
  constructor(
    readonly id: string,
    readonly color?: ThemeColor,
  ) {}
}
class MarkdownString {
  constructor(
    readonly value = "",
    readonly supportThemeIcons = false,
  ) {}
  isTrusted = false;
}
class TreeItem {
  id?: string;
  description?: string;
  tooltip?: unknown;
  iconPath?: unknown;
  contextValue?: string;
  command?: { command: string; arguments?: unknown[] };
  constructor(
    readonly label: string,
    readonly collapsibleState: number,
  ) {}
}
class Position {
  constructor(
    readonly line: number,
    readonly character: number,
  ) {}
}
class Range {
  readonly start: Position;
  readonly end: Position;
  constructor(sl: number, sc: number, el: number, ec: number) {
    this.start = new Position(sl, sc);
    this.end = new Position(el, ec);
  }
}
class Diagnostic {
  source?: string;
  code?: string;
  constructor(
    readonly range: Range,
    readonly message: string,
    readonly severity: number,
  ) {}
}
class EventEmitter<T> {
  private listeners: ((e: T) => void)[] = [];
  readonly event = (l: (e: T) => void) => {
    this.listeners.push(l);
    return { dispose: () => (this.listeners = this.listeners.filter((x) => x !== l)) };
  };
  fire(e: T): void {
    for (const l of [...this.listeners]) l(e);
  }
  dispose(): void {
    this.listeners = [];
  }
}
const Uri = {
  file: (fsPath: string) => ({ scheme: "file", fsPath, toString: () => `file://${fsPath}` }),
};

/** Every collection the code under test created, by name. */
export const fakeCollections = new Map<string, Map<string, Diagnostic[]>>();

const languages = {
  createDiagnosticCollection(name: string) {
    const map = new Map<string, Diagnostic[]>();
    fakeCollections.set(name, map);
    return {
      set: (uri: { toString(): string }, diags: Diagnostic[]) => void map.set(uri.toString(), diags),
      delete: (uri: { toString(): string }) => void map.delete(uri.toString()),
      get: (uri: { toString(): string }) => map.get(uri.toString()),
      dispose: () => map.clear(),
    };
  },
};

/** `vscode.l10n` without a bundle, as VS Code runs in English: `{0}`, `{1}`… replaced by the arguments. */
const l10n = {
  t: (message: string, ...args: Array<string | number | boolean>) =>
    message.replace(/\{(\d+)\}/g, (m, i: string) => (Number(i) < args.length ? String(args[Number(i)]) : m)),
};

/** The fake module object. */
export const fakeVscode = {
  ThemeColor,
  ThemeIcon,
  MarkdownString,
  TreeItem,
  TreeItemCollapsibleState: { None: 0, Collapsed: 1, Expanded: 2 },
  Position,
  Range,
  Diagnostic,
  DiagnosticSeverity: { Error: 0, Warning: 1, Information: 2, Hint: 3 },
  EventEmitter,
  Uri,
  languages,
  l10n,
  workspace: { workspaceFolders: [] as unknown[], isTrusted: true },
};

type Loader = (request: string, parent: unknown, isMain: boolean) => unknown;
const mod = Module as unknown as { _load: Loader };
const original = mod._load;
mod._load = function (request: string, parent: unknown, isMain: boolean) {
  return request === "vscode" ? fakeVscode : original.call(this, request, parent, isMain);
};
