/**
 * The contract every state source implements: how a state folder is found in a workspace folder,
 * read, checked, watched, summarised for the CLI and shown as a tree. Plain Node, no `vscode`: the
 * CLI, the worker thread and the tests drive it; the extension renders what it returns.
 *
 * Adding a source = a folder under `src/core/sources/<kind>/` that exports one `SourceManifest` and
 * one `StateSource`, plus one line each in `manifestRegistry.ts` and `sourceRegistry.ts`. Nothing in `src/extension/` names a source kind, except an
 * optional adapter under `src/extension/sources/<kind>/` where VS Code needs something special.
 */
import type { PlanGraph } from "../graph/planGraph";
import type { TimelineFeatures } from "../timeline/timelineFeatureTypes";
import type { TimelineField } from "../timeline/timelineDetailTypes";
import type { SourceWorkerHandler } from "./sourceWorker";

/**
 * The kinds of state folder the product knows. Open-ended (`string & {}`) so a
 * test can register a fake source; the named kinds keep editor completion.
 */
export type SourceKind = "autodev" | "agloop" | "engine_state" | (string & {});

/** How bad a problem is; "error" fails `check` (exit 1), the others do not. */
export type ProblemSeverity = "error" | "warning" | "info";

/** One finding of a check, placed at a file and (where known) a line. Serialisable. */
export interface SourceProblem {
  /** Path relative to the workspace folder, with forward slashes (".agloop/state.json"). */
  readonly file: string;
  /** 1-based line of the offending value, or null when the problem is about the whole file. */
  readonly line: number | null;
  /** 1-based column where known. */
  readonly column?: number;
  readonly severity: ProblemSeverity;
  /** A stable snake_case code ("invalid_json", "dependency_cycle"): tests and filters key on it. */
  readonly code: string;
  /** What was expected, what was found and what to do; quoted values truncated (see `quoteForMessage`). */
  readonly message: string;
}

/** A state folder found in a workspace folder. */
export interface SourceLocation {
  readonly kind: SourceKind;
  /** Absolute path of the workspace folder (the repository root). */
  readonly workspace: string;
  /** Absolute path of the state folder (`<workspace>/.agloop`, or where a setting points). */
  readonly dir: string;
  /** `dir` relative to `workspace`, forward slashes (".agloop", "engine_state"). */
  readonly relDir: string;
}

/**
 * A source's settings as a host read them for one workspace folder: the names the source lists in
 * {@link StateSource.settings} (without the `autodev.` prefix) and their values. The values come
 * from the user's settings files: untrusted, so each source checks what it reads.
 */
export type SourceSettings = Readonly<Record<string, unknown>>;

/** Options a host passes through to detection and every other call (settings, environment). */
export interface DetectOptions {
  /** This source's settings for the workspace folder (the editor reads them; the CLI passes none). */
  readonly settings?: SourceSettings;
  /** The environment to read variables from (defaults to `process.env`). */
  readonly env?: NodeJS.ProcessEnv;
}

/** Where a click on a tree node goes. All paths are relative to the workspace folder. */
export type NodeTarget =
  | { readonly kind: "file"; readonly file: string; readonly line?: number }
  | { readonly kind: "reveal"; readonly nodeId: string }
  | {
      readonly kind: "diff";
      readonly title: string;
      readonly left: DiffSide;
      readonly right: DiffSide;
    }
  | { readonly kind: "text"; readonly title: string; readonly language: string; readonly text: string }
  | { readonly kind: "action"; readonly action: string; readonly args: readonly string[] }
  /** Lets the user choose among the nodes of this source that offer `action` (see {@link NodeAction}). */
  | { readonly kind: "choose"; readonly action: string };

/**
 * A write action a node offers: in its context menu (the source's {@link SourceCommand}) and as one
 * item of the picker its palette command shows. Run only after a preview and a confirmation.
 */
export interface NodeAction {
  readonly action: string;
  readonly args: readonly string[];
  /** The picker's line for this node ("reset checkpoint"), its description and detail. */
  readonly label: string;
  readonly description?: string;
  readonly detail?: string;
  /** When the thing was made (ISO); the picker shows it relative and absolute. */
  readonly time?: string;
}

/**
 * A palette command of a source (contributed in package.json with the source's name as its
 * category): it runs `action` on a node the user picks among those that offer it; `nodeCommand`
 * (also contributed, for the nodes' context menu) runs it on the node it is invoked on.
 */
export interface SourceCommand {
  readonly command: string;
  readonly nodeCommand: string;
  readonly action: string;
  /** The picker's placeholder ("Recover .agloop/state.json from which checkpoint?"). */
  readonly placeHolder: string;
  /** Said when no node offers the action ("No checkpoint in .agloop/checkpoints/."). */
  readonly none: string;
}

/** One side of a diff: a file of the workspace, or text the source produced (read-only). */
export type DiffSide =
  | { readonly kind: "file"; readonly file: string }
  | { readonly kind: "text"; readonly name: string; readonly text: string };

/** A codicon and an optional theme colour id ("charts.green", "problemsWarningIcon.foreground"). */
export interface NodeIcon {
  readonly id: string;
  readonly color?: string;
}

/** A serialisable tree node; the extension renders these without knowing the source. */
export interface SourceTreeNode {
  /** Stable within its source across refreshes (expansion state and `reveal` key on it). */
  readonly id: string;
  readonly label: string;
  readonly description?: string;
  /** What a screen reader says for the row, when the label and description say it badly. */
  readonly accessibilityLabel?: string;
  /** Markdown (escaped by the source: it comes from untrusted files). */
  readonly tooltip?: string;
  /**
   * Times the tooltip lists after its text ("created", an ISO 8601 text as the file has it): the
   * host shows each relative and absolute in the user's language ("3 hours ago (Nov 30, 2026,
   * 09:47)"), which a tooltip fixed when the tree was built could not keep current.
   */
  readonly tooltipTimes?: readonly { readonly label: string; readonly time: string }[];
  readonly icon?: NodeIcon;
  /** Children; undefined = a leaf. */
  readonly children?: readonly SourceTreeNode[];
  /** Expanded on first show. */
  readonly expanded?: boolean;
  readonly target?: NodeTarget;
  /** `viewItem` for menus ("agloop.checkpoint"). */
  readonly contextValue?: string;
  /** Write actions the node offers (its context menu and the source's palette commands). */
  readonly actions?: readonly NodeAction[];
}

/** A row of the timeline, source-neutral. */
export interface SourceTimelineRow {
  /** 1-based position in the source's log (line number for JSONL logs). */
  readonly index: number;
  readonly time: string | null;
  /** Who acted (agent, session). */
  readonly actor: string | null;
  /** What was done (op, action). */
  readonly action: string;
  readonly taskId: string | null;
  readonly status: string | null;
  readonly summary: string;
  /** The file and line the row came from. */
  readonly file: string;
  readonly line: number;
  /** What the details pane shows, in order (default: time, agent, action, task, status and the summary). */
  readonly fields?: readonly TimelineField[];
}

/** What a source action would write, shown to the user before it runs. */
export interface ActionPreview {
  readonly title: string;
  /** One paragraph: what will be written where, and why. */
  readonly detail: string;
  /** Files that will be created or replaced, relative to the workspace folder. */
  readonly writes: readonly string[];
}

/** What the editor's refresh shows of a source, from one read ({@link StateSource.readView}). */
export interface SourceView {
  readonly problems: readonly SourceProblem[];
  readonly tree: readonly SourceTreeNode[];
  readonly waiting: SourceWaiting | null;
}

/** Whom a run waits on (a person's decision or answer): the hosts count it in "waits on you" and notify it. */
export interface SourceWaiting {
  /** Who must act ("you", "reviewer"). */
  readonly who: string;
  /** One line that says what is awaited. */
  readonly what: string;
  /** The task waited on, when there is one. */
  readonly taskId?: string;
  /** Files to open, relative to the workspace folder. */
  readonly files: readonly string[];
}

/**
 * What a host needs to know of a source without its engine: its kind, name, the files that may make
 * it appear, the settings it reads, its palette commands and what its timeline rows are. Plain data,
 * in the source's own `<kind>Manifest.ts`, listed in src/core/sources/manifestRegistry.ts: the
 * extension host imports these, never a {@link StateSource} (whose readers only the worker and the CLI load).
 */
export interface SourceManifest {
  readonly kind: SourceKind;
  /** "AutoDev", "agloop", "engine_state". */
  readonly displayName: string;
  /**
   * Globs relative to a workspace folder whose creation or deletion can change what `detect` finds
   * (".agloop/state.json"). The extension watches them in every folder to notice a source appear or go.
   * Optional: without it a source is (re)detected only when folders change or on Refresh.
   */
  readonly detectGlobs?: readonly string[];
  /**
   * Names of files directly in the state folder that the writer replaces atomically and whose
   * change means "read now" (AutoDev: `plan-ledger.jsonl`). The state worker watches them itself
   * (src/core/worker/liveWatch.ts) besides the editor's watcher, so an append shows sooner.
   */
  readonly liveFiles?: readonly string[];
  /**
   * The settings this source reads (`autodev.<name>`, contributed in package.json), e.g.
   * `["engineStateDir"]`. The editor reads them with each workspace folder's scope and passes
   * them in {@link DetectOptions.settings}.
   */
  readonly settings?: readonly string[];
  /** Palette commands that run an action on a node the user picks (contributed in package.json). */
  readonly commands?: readonly SourceCommand[];
  /** What its timeline rows are (default: a log of agents' actions, no chain, no status changes, by day). */
  readonly timelineFeatures?: TimelineFeatures;
}

/**
 * A state source: its {@link SourceManifest} and its engine. Every method is safe on hostile input:
 * it returns problems, it never throws for bad data.
 */
export interface StateSource extends SourceManifest {
  /** The source's part of the state worker thread (its own requests, its own timeline). */
  readonly worker?: SourceWorkerHandler;
  /** The state folder in `workspace`, or null when there is none (a missing folder is not an error). */
  detect(workspace: string, options?: DetectOptions): Promise<SourceLocation | null>;
  /** Globs relative to the workspace folder whose changes mean "read again". */
  watchGlobs(location: SourceLocation): readonly string[];
  /** Every problem, errors and warnings, in file then line order. */
  check(location: SourceLocation): Promise<readonly SourceProblem[]>;
  /** The CLI `sources` summary (plain JSON; its first two keys are `kind` and `path`). */
  summarize(location: SourceLocation): Promise<Record<string, unknown>>;
  /** The tree under this source's root node. */
  tree(location: SourceLocation): Promise<readonly SourceTreeNode[]>;
  /** The source's log as timeline rows, oldest first; omitted when the source has no history. */
  timeline?(location: SourceLocation): Promise<readonly SourceTimelineRow[]>;
  /** Whom the run waits on now, or null; omitted when the source's state never waits on a person. */
  waiting?(location: SourceLocation): Promise<SourceWaiting | null>;
  /**
   * Problems, tree and wait from one read of the state files (what the editor's refresh shows),
   * for a source whose `check`, `tree` and `waiting` would each read the same files; without it
   * the refresh calls the three. Must equal what they return.
   */
  readView?(location: SourceLocation): Promise<SourceView>;
  /** For an agent (language-model tools): the run's state beyond `summarize` (waiting, next steps); plain JSON. */
  runStatus?(location: SourceLocation): Promise<Record<string, unknown>>;
  /** For an agent: one task in full (history, evidence), or null when there is no such task; plain JSON. */
  taskDetail?(location: SourceLocation, taskId: string): Promise<Record<string, unknown> | null>;
  /**
   * The run report, rendered (the editor's "Export Run Report"); omitted when the source has none.
   * `reviewMarks`: the editor's reviewed marks of this folder's evidence (the source's own keys,
   * each with the sha256 of the content that was reviewed), absent when there are none to give
   * (the CLI has no workspace state).
   */
  report?(
    location: SourceLocation,
    format: "md" | "html" | "json",
    reviewMarks?: Readonly<Record<string, { readonly hash: string; readonly at: number }>>,
  ): Promise<{ readonly text: string; readonly ok: boolean; readonly verdict: string }>;
  /** The plan as a graph (tasks and their dependencies); omitted when the source has no plan. */
  graph?(location: SourceLocation): Promise<PlanGraph>;
  /** What `runAction` would write (for a confirmation), or a reason it cannot run. */
  previewAction?(location: SourceLocation, action: string, args: readonly string[]): Promise<ActionPreview>;
  /** Runs a write action (never called in an untrusted workspace); returns a one-line report. */
  runAction?(location: SourceLocation, action: string, args: readonly string[]): Promise<string>;
}
