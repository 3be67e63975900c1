/**
 * A small stand-in for the `vscode` module, enough to run the generic hosts (folder registry,
 * watcher, state tree, Problems, status bar, timeline controller) in plain Node: import this file
 * before any module that requires "vscode". It records what the code under test builds (diagnostics,
 * watchers, commands, context keys) and lets a test fire file events; it implements no editor
 * behaviour. Settings answer with package.json's defaults unless a test sets them.
 */
import { promises as fsp, readFileSync } from "node:fs";
import Module from "node:module";
import { join } from "node:path";

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
    public value = "",
    readonly supportThemeIcons = false,
  ) {}
  isTrusted = false;
  /** Appends Markdown as it is (VS Code's does the same). */
  appendMarkdown(text: string): MarkdownString {
    this.value += text;
    return this;
  }
  /** Appends text, escaped. */
  appendText(text: string): MarkdownString {
    this.value += text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, "\\$&");
    return this;
  }
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
/** A file URI as the code under test uses it. */
export interface FakeUri {
  readonly scheme: string;
  readonly fsPath: string;
  readonly path: string;
  toString(): string;
}
const Uri = {
  file: (fsPath: string): FakeUri => ({ scheme: "file", fsPath, path: fsPath, toString: () => `file://${fsPath}` }),
  joinPath: (base: FakeUri, ...parts: string[]): FakeUri => Uri.file(join(base.fsPath, ...parts)),
  from: (c: { scheme: string; path?: string; query?: string }): FakeUri => ({
    scheme: c.scheme,
    fsPath: c.path ?? "",
    path: c.path ?? "",
    toString: () => `${c.scheme}:${c.path ?? ""}${c.query ? `?${c.query}` : ""}`,
  }),
};
class RelativePattern {
  readonly baseUri: FakeUri;
  constructor(
    base: FakeUri | { uri: FakeUri },
    readonly pattern: string,
  ) {
    this.baseUri = "uri" in base ? base.uri : base;
  }
}

const noEvent = () => ({ dispose: () => undefined });

/** A watcher the code under test created: its pattern, and functions that fire its events. */
export interface FakeWatcher {
  readonly pattern: RelativePattern;
  fire(kind: "create" | "change" | "delete", uri: FakeUri): void;
  disposed: boolean;
}
/** Every watcher created, in order. */
export const fakeWatchers: FakeWatcher[] = [];
/** Every command registered, by id. */
const fakeCommands = new Map<string, (...args: unknown[]) => unknown>();
/** Context keys set with `setContext`. */
export const fakeContext = new Map<string, unknown>();
/** Settings a test set (`autodev.<key>` without the prefix); the rest answer with package.json's defaults. */
export const fakeSettings = new Map<string, unknown>();

const DEFAULTS: Record<string, unknown> = (() => {
  const manifest = JSON.parse(readFileSync(join(__dirname, "../../../..", "package.json"), "utf8")) as {
    contributes: { configuration: { properties: Record<string, { default?: unknown }> } };
  };
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(manifest.contributes.configuration.properties)) {
    out[k.replace(/^autodev\./, "")] = v.default;
  }
  return out;
})();

const workspace = {
  workspaceFolders: [] as unknown[],
  isTrusted: true,
  textDocuments: [] as unknown[],
  onDidChangeWorkspaceFolders: noEvent,
  onDidGrantWorkspaceTrust: noEvent,
  onDidChangeConfiguration: noEvent,
  /** VS Code's file service, as its disk provider answers for the file scheme (`stat` follows links). */
  fs: {
    async stat(uri: FakeUri) {
      const st = await fsp.stat(uri.fsPath);
      return {
        type: st.isDirectory() ? 2 : 1,
        ctime: st.birthtime.getTime(),
        mtime: st.mtime.getTime(),
        size: st.size,
      };
    },
  },
  getConfiguration: () => ({
    get: (key: string) => (fakeSettings.has(key) ? fakeSettings.get(key) : DEFAULTS[key]),
    inspect: (key: string) => ({ defaultValue: DEFAULTS[key] }),
  }),
  createFileSystemWatcher(pattern: RelativePattern) {
    const listeners = {
      create: [] as ((u: FakeUri) => void)[],
      change: [] as ((u: FakeUri) => void)[],
      delete: [] as ((u: FakeUri) => void)[],
    };
    const on = (kind: keyof typeof listeners) => (l: (u: FakeUri) => void) => {
      listeners[kind].push(l);
      return { dispose: () => (listeners[kind] = listeners[kind].filter((x) => x !== l)) };
    };
    const watcher: FakeWatcher = {
      pattern,
      disposed: false,
      fire: (kind, uri) => listeners[kind].forEach((l) => l(uri)),
    };
    fakeWatchers.push(watcher);
    return {
      onDidCreate: on("create"),
      onDidChange: on("change"),
      onDidDelete: on("delete"),
      dispose: () => (watcher.disposed = true),
    };
  },
};

const commands = {
  registerCommand(id: string, run: (...args: unknown[]) => unknown) {
    fakeCommands.set(id, run);
    return { dispose: () => fakeCommands.delete(id) };
  },
  executeCommand(id: string, ...args: unknown[]) {
    if (id === "setContext") fakeContext.set(String(args[0]), args[1]);
    return Promise.resolve(fakeCommands.get(id)?.(...args));
  },
};

const channel = {
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  show: () => undefined,
  dispose: () => undefined,
};
const window = {
  tabGroups: {
    all: [] as unknown[],
    activeTabGroup: { activeTab: undefined },
    onDidChangeTabs: noEvent,
    onDidChangeTabGroups: noEvent,
  },
  state: { focused: true },
  visibleTextEditors: [] as unknown[],
  terminals: [] as unknown[],
  createOutputChannel: () => channel,
  createStatusBarItem: () => ({ show: () => undefined, hide: () => undefined, dispose: () => undefined }),
  /** A tree view that is never shown (the code under test asks its provider itself). */
  createTreeView: () => ({
    visible: false,
    selection: [] as unknown[],
    onDidChangeSelection: noEvent,
    onDidChangeVisibility: noEvent,
    onDidChangeCheckboxState: noEvent,
    onDidExpandElement: noEvent,
    onDidCollapseElement: noEvent,
    reveal: () => Promise.resolve(),
    dispose: () => undefined,
  }),
  showInformationMessage: () => Promise.resolve(undefined),
  showWarningMessage: () => Promise.resolve(undefined),
  showErrorMessage: () => Promise.resolve(undefined),
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

/**
 * Members the code under test only subscribes to or registers with (`onDid…` events,
 * `register…` providers, `create…` handles not modelled above): each answers with a disposable,
 * so a whole adapter can be made; nothing behind them runs.
 */
function withInertMembers<T extends object>(ns: T): T {
  const inert = () => ({ dispose: () => undefined, show: () => undefined, hide: () => undefined });
  return new Proxy(ns, {
    get(target, key, receiver) {
      if (Reflect.has(target, key) || typeof key !== "string") return Reflect.get(target, key, receiver);
      return /^(on[A-Z]|register[A-Z]|create[A-Z])/.test(key) ? inert : undefined;
    },
  });
}

/** Tab inputs the code under test recognises (no tab is ever open here). */
class TabInputText {
  constructor(readonly uri: FakeUri) {}
}
class TabInputTextDiff {
  constructor(
    readonly original: FakeUri,
    readonly modified: FakeUri,
  ) {}
}

/** The fake module object. */
export const fakeVscode = {
  TabInputText,
  TabInputTextDiff,
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
  languages: withInertMembers(languages),
  l10n,
  RelativePattern,
  workspace: withInertMembers(workspace),
  commands,
  window: withInertMembers(window),
  StatusBarAlignment: { Left: 1, Right: 2 },
  env: { language: "en" },
  lm: withInertMembers({}),
  Disposable: { from: (...items: { dispose(): unknown }[]) => ({ dispose: () => items.forEach((d) => d.dispose()) }) },
};

type Loader = (request: string, parent: unknown, isMain: boolean) => unknown;
const mod = Module as unknown as { _load: Loader };
const original = mod._load;
mod._load = function (request: string, parent: unknown, isMain: boolean) {
  return request === "vscode" ? fakeVscode : original.call(this, request, parent, isMain);
};
