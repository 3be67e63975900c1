/**
 * The extension side of a state source: one adapter per source kind, and one {@link SourceFolder}
 * per (workspace folder, source) it found. The generic hosts (folder registry, state tree, status
 * bar, Problems, timeline, worker client) talk only to these interfaces and never import a
 * source's folder. A source without special VS Code needs gets the default adapter
 * (defaultAdapter.ts, built on the core `StateSource`); one with more (AutoDev) registers its own
 * adapter in sourceAdapters.ts, one line.
 *
 * What an adapter contributes: tree roots and their children (`tree`), commands and providers
 * (in `activate`), Problems (`SourceFolder.problems`), a status-bar part (`status`), a timeline
 * (`SourceFolder.timeline`: rows, details and actions through the worker's generic requests) and
 * whom the run waits on (`SourceFolder.waiting`).
 */
import type * as vscode from "vscode";
import type { SourceKind, SourceProblem, SourceSettings, SourceWaiting } from "../../core/sources/stateSource";
import type { DetectedSource } from "../../core/worker/workerProtocol";
import type { FolderReviewMarks } from "../../core/sources/reviewMarkSchema";
import type { IntegritySummary } from "../../protocolTimeline";

/** A node of the state tree. Each adapter defines its kinds; the tree asks the adapter that made it. */
export interface StateNode {
  /** Unique in the window and stable across refreshes (expansion and `reveal` key on it). */
  readonly id: string;
  /** The adapter's name for what the node is ("task", "sourceNode"). */
  readonly kind: string;
  /** The parent node; absent or null for a root. */
  readonly parent?: StateNode | null;
}

/** A problem as an adapter hands it to Problems: a core problem plus what only the editor shows. */
export interface FolderProblem extends SourceProblem {
  /** Shown as the diagnostic's source (default: the source's display name). */
  readonly origin?: string;
  /** Related places (file relative to the workspace folder, 1-based line). */
  readonly related?: readonly { readonly file: string; readonly line: number; readonly message: string }[];
}

/** Whom a run waits on: a person, or an agent the user must start. */
export interface WaitingOn extends SourceWaiting {
  /** What the person can do about it (the notification's buttons), each a command with its arguments. */
  readonly actions?: readonly {
    readonly title: string;
    readonly command: string;
    readonly arguments?: readonly unknown[];
  }[];
}

/** A source's timeline as the timeline host shows it; rows and details come from the worker. */
export interface FolderTimeline {
  /** The name in the timeline's source picker; `crowded` when several sources or folders are offered. */
  label(crowded: boolean): string;
  /** Rows the timeline holds now (a change makes open timelines page again). */
  readonly rows: number;
  /** Integrity at a glance (null while unknown). */
  readonly integrity: IntegritySummary | null;
  /** The row the tree shows the state as of (time travel), or null. */
  readonly travelRowId: number | null;
  /** Shows the state as of a row in the tree (null: back to live); absent when the source cannot. */
  travel?(rowId: number | null): Promise<void>;
  /** Reveals a task of this source in the tree (`focus`: move the focus there too); true when the selection changed. */
  revealTask?(taskId: string, focus: boolean): Promise<boolean>;
  /** What the editor knows of a row's task beyond the file (AutoDev: "1/2 reviewed", its diffs' reviewed marks), or null. */
  taskNote?(taskId: string): Promise<string | null>;
}

/** One source in one workspace folder, as its adapter keeps it. */
export interface SourceFolder extends vscode.Disposable {
  readonly kind: SourceKind;
  readonly displayName: string;
  readonly folder: vscode.WorkspaceFolder;
  /** `<folder uri>|<kind>`: unique in the window (timeline key, the prefix of node ids). */
  readonly key: string;
  /** The workspace folder's path. */
  readonly cwd: string;
  /** What detection found last (state folder, watch globs, timeline). */
  readonly source: DetectedSource;
  /** The source's settings for this folder, passed with every worker request about it. */
  readonly settings: SourceSettings;
  /** Fires after anything the hosts show changed (tree, problems, status, timeline, waiting). */
  readonly onDidChange: vscode.Event<void>;
  /** Detection found it again (the state folder or its settings may have changed). */
  redetected(detected: DetectedSource, settings: SourceSettings): void;
  /**
   * True when its writer replaces files atomically and the folder itself holds back what may be
   * half written (AutoDev: a ledger line without its newline): the first change after a quiet
   * spell is then passed on at once, the rest at the spell's end. Absent: after the spell only
   * (agloop's hooks truncate state.json and write it again; a read between the two would be an error).
   */
  readonly readsAtOnce?: boolean;
  /** Files it watches changed (already debounced); `uris` lists them. */
  filesChanged(uris: readonly vscode.Uri[]): void;
  /** Reads everything again (the Refresh command). */
  refresh(): Promise<void>;
  /** What Problems shows for it; null before the first read. */
  readonly problems: readonly FolderProblem[] | null;
  /** Its timeline, when the source has one. */
  readonly timeline: FolderTimeline | null;
  /** Whom the run waits on; null when nobody. */
  readonly waiting: WaitingOn | null;
  /** The reviewed marks a person set on this folder's evidence (passed to the run report); absent when the source has none. */
  readonly reviewMarks?: FolderReviewMarks;
}

/** The roots a source adds to the state tree, and how its nodes render. */
export interface SourceTree {
  /** The roots of one folder's source. */
  roots(folder: SourceFolder): StateNode[];
  /** The children of one of this adapter's nodes. */
  children(node: StateNode): Promise<StateNode[]> | StateNode[];
  /** The tree item of one of this adapter's nodes (`multiFolder`: the window has several folders). */
  item(node: StateNode, multiFolder: boolean): vscode.TreeItem;
  /** The source and task a node stands for (the timeline follows the tree's selection); null for none. */
  taskOf?(node: StateNode): { readonly folder: SourceFolder; readonly taskId: string } | null;
}

/** A source's part of the status bar item, over every folder of its kind. */
export interface StatusPart {
  /** "AutoDev 3/12 · ledger ok", "agloop 2 errors". */
  readonly text: string;
  /**
   * The part in the compact form (`autodev.statusBar.compact`): only what is not ok ("agloop 2
   * errors", "AutoDev 3/12 · history rewritten"), or null when all is well. Absent: `text` when
   * the part counts errors or warnings, else null.
   */
  readonly compact?: string | null;
  /** Errors it counts (with no primary part, any error turns the item red and opens Problems). */
  readonly errors: number;
  /** Warnings it counts (with no error, the item takes the warning colour). */
  readonly warnings?: number;
  /** Set by a part that decides the item's icon, colour, tooltip and click (the first such part wins). */
  readonly primary?: {
    /** A codicon with `$(…)` ("$(checklist)", "$(sync~spin)"). */
    readonly icon: string;
    readonly error: boolean;
    /** Something to look at that is not an error (a rewritten history): the warning colour. */
    readonly warning?: boolean;
    readonly tooltip: string;
    readonly command: string;
  };
}

/** A source's adapter (one per kind, made at activation). */
export interface SourceAdapter {
  readonly kind: SourceKind;
  /** Makes the state of a source the folder registry just found in a workspace folder. */
  createFolder(folder: vscode.WorkspaceFolder, detected: DetectedSource, settings: SourceSettings): SourceFolder;
  readonly tree: SourceTree;
  /** Its part of the status bar item over its folders (none: null). */
  status?(folders: readonly SourceFolder[]): StatusPart | null;
  /** What `activate` returns for this source (tests, other extensions). */
  readonly api?: unknown;
  /** Ends what outlives the extension host's disposables (helper processes). */
  deactivate?(): Promise<void>;
  /**
   * What the editor knows of a folder's tasks beyond the files, by task id (AutoDev: "2/3
   * reviewed" for the tasks with reviewed marks); shown in the plan graph. Absent: none.
   */
  taskNotes?(folder: SourceFolder): Promise<Record<string, string>>;
  /** Fires when {@link taskNotes} may say something else. */
  readonly onDidChangeTaskNotes?: vscode.Event<void>;
}
