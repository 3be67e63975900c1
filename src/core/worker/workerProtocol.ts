/**
 * Messages between the extension host and the state worker thread, where every read, check,
 * verification and write runs so the extension host is never blocked. Requests are keyed by
 * (workspace folder, source kind) and source-neutral; what one source needs beyond them travels
 * as `{ type: "source", kind, request }` to that source's {@link SourceWorkerHandler}, whose
 * request and result types live in the source's folder. Values cross by structured clone.
 */
import type {
  ActionPreview,
  SourceKind,
  SourceProblem,
  SourceSettings,
  SourceTreeNode,
  SourceWaiting,
} from "../sources/stateSource";
import type { TimelineEntryDetail } from "../timeline/timelineDetailTypes";
import type { TimelineFeatures } from "../timeline/timelineFeatureTypes";
import type { TimelinePage, TimelinePageRequest, TimelineRowRef } from "../timeline/timelineTypes";
import type { LiveFileEvent } from "./liveWatch";
import type { GraphViewsResult } from "../graph/graphViewTypes";
import type { FolderReviewMarks } from "../sources/reviewMarkSchema";

/** A source found in a workspace folder, as the host learns it. */
export interface DetectedSource {
  readonly kind: string;
  readonly displayName: string;
  /** The state folder relative to the workspace folder (".agloop"). */
  readonly relDir: string;
  readonly dir: string;
  /** Globs relative to the workspace folder to watch (a change refreshes this source only). */
  readonly watchGlobs: readonly string[];
  /** Files in the state folder the worker watches itself (`StateSource.liveFiles`); absent: none. */
  readonly liveFiles?: readonly string[];
  /** True when the source has a timeline. */
  readonly hasTimeline: boolean;
  /** What its timeline rows are (their parts, grouping and words), when it has one. */
  readonly timelineFeatures: TimelineFeatures | null;
}

/** What one refresh of a source gives the host. */
export interface SourceSnapshot {
  readonly problems: readonly SourceProblem[];
  readonly tree: readonly SourceTreeNode[];
  /** Rows in the source's timeline, or null when it has none. */
  readonly timelineRows: number | null;
  /** Whom the run waits on (`StateSource.waiting`), or null. */
  readonly waiting: SourceWaiting | null;
  /** Milliseconds the worker spent. */
  readonly ms: number;
}

/** The fields that name one source of one workspace folder. */
interface SourceAddress {
  readonly id: number;
  /** The workspace folder. */
  readonly cwd: string;
  readonly kind: SourceKind;
  /** The source's settings for this folder (see `StateSource.settings`). */
  readonly settings?: SourceSettings;
}

/** A source action and its arguments (`StateSource.previewAction` / `runAction`). */
interface ActionRequest {
  readonly action: string;
  readonly args: readonly string[];
}

/** The answer to a "report" request: the rendered text and the verdict. */
export interface ReportAnswer {
  readonly text: string;
  readonly ok: boolean;
  readonly verdict: string;
  /** The source whose report it is. */
  readonly kind: string;
}

/** The language-model tools the worker answers (package.json `languageModelTools`). */
export type AgentTool = "status" | "check" | "task";

/** Requests, discriminated by `type`. */
export type WorkerRequest =
  | {
      readonly id: number;
      readonly type: "detect";
      readonly cwd: string;
      /** Each source's settings for this folder, by kind. */
      readonly settings?: Readonly<Record<string, SourceSettings>>;
    }
  | (SourceAddress & { readonly type: "refresh" })
  | (SourceAddress & { readonly type: "timelinePage" } & TimelinePageRequest)
  | (SourceAddress & { readonly type: "timelineDetail"; readonly rowId: number })
  | (SourceAddress & { readonly type: "timelineRef"; readonly rowId: number })
  | (SourceAddress & { readonly type: "previewAction" } & ActionRequest)
  | (SourceAddress & { readonly type: "runAction" } & ActionRequest)
  | (SourceAddress & { readonly type: "source"; readonly request: unknown })
  | { readonly id: number; readonly type: "cancel"; readonly cwd: string; readonly target: number }
  | {
      readonly id: number;
      /** Each file's signature now (fileSignature.ts: an lstat, never a read), for the editor's watcher. */
      readonly type: "signatures";
      /** The workspace folder the files are watched for (a timeout names it). */
      readonly cwd: string;
      /** Absolute paths. */
      readonly files: readonly string[];
    }
  | {
      readonly id: number;
      readonly type: "linksOut";
      readonly cwd: string;
      /** A path relative to `cwd` (the host opens it only when it does not resolve outside). */
      readonly file: string;
    }
  | {
      readonly id: number;
      /**
       * A workspace file's text (a side of a diff), read by the worker with every state file's
       * checks: inside `cwd` with links resolved, a regular file, at most `maxBytes`.
       */
      readonly type: "fileText";
      readonly cwd: string;
      /** A path relative to `cwd`. */
      readonly file: string;
      readonly maxBytes: number;
    }
  | (SourceAddress & {
      readonly type: "liveWatch";
      /** The state folder, relative to the workspace folder. */
      readonly relDir: string;
      /** The names in it to watch (`StateSource.liveFiles`). */
      readonly files: readonly string[];
    })
  | {
      readonly id: number;
      /** The plan graphs of every source of the folder that has one, analysed and laid out. */
      readonly type: "graph";
      readonly cwd: string;
      /** Each source's settings for this folder, by kind. */
      readonly settings?: Readonly<Record<string, SourceSettings>>;
    }
  | {
      readonly id: number;
      /** The run report of the folder's first source that has one. */
      readonly type: "report";
      readonly cwd: string;
      readonly format: "md" | "html" | "json";
      /** The editor's reviewed marks, by source kind. */
      readonly reviewMarks?: Readonly<Record<string, FolderReviewMarks>>;
      readonly settings?: Readonly<Record<string, SourceSettings>>;
    }
  | {
      readonly id: number;
      /** A language-model tool's answer over the workspace folders; `input` is the model's, unchecked. */
      readonly type: "tool";
      /** The queue it runs in (the first folder, or "" without one). */
      readonly cwd: string;
      readonly tool: AgentTool;
      readonly folders: readonly { readonly name: string; readonly path: string }[];
      readonly input: unknown;
    }
  | {
      readonly id: number;
      /** The worker thread's own heap (for the soak bench: the host's memory figures cover the process). */
      readonly type: "memory";
      /** Collects garbage first when the thread may (`--expose-gc`), so the figure is what stays. */
      readonly collect?: boolean;
    }
  | {
      readonly id: number;
      readonly type: "dispose";
      readonly cwd: string;
      /** The source to forget; every source of the folder when absent. */
      readonly kind?: SourceKind;
    };

/** The result type of each request type. */
export interface WorkerResults {
  /** Every source found in the folder. */
  detect: DetectedSource[];
  /** Problems, tree and timeline size of one source, read once. */
  refresh: SourceSnapshot;
  /** A page of timeline rows (filtered, grouped, newest first) with totals. */
  timelinePage: TimelinePage;
  /** The details pane of one row. */
  timelineDetail: TimelineEntryDetail | null;
  /** Where one row came from, and what may be copied from it. */
  timelineRef: TimelineRowRef | null;
  previewAction: ActionPreview;
  /** A one-line report of what was written. */
  runAction: string;
  /** Whatever the source's own request returns (typed in the source's folder). */
  source: unknown;
  /** True when the request was still running and is now cancelled. */
  cancel: boolean;
  /** True when `file` exists and resolves (links followed) outside `cwd`. */
  linksOut: boolean;
  /** The file's text (UTF-8); null when it does not exist. A refused file is an error saying why. */
  fileText: string | null;
  /** One signature per file asked, in order ("absent" when not there). */
  signatures: string[];
  /** True when the worker watches the files itself (false: the editor's watcher alone). */
  liveWatch: boolean;
  dispose: null;
  memory: WorkerMemory;
  graph: GraphViewsResult;
  report: ReportAnswer;
  /** The tool's answer, JSON text (an invalid input is answered as `{ "error": … }`). */
  tool: string;
}

/** The worker thread's V8 heap, in bytes (`v8.getHeapStatistics()` of its own isolate). */
export interface WorkerMemory {
  readonly heapUsed: number;
  readonly heapTotal: number;
  /** Memory V8 holds for the heap, committed by the OS (what the thread adds to the process's RSS). */
  readonly physical: number;
  readonly external: number;
  /** Whether garbage was collected first. */
  readonly collected: boolean;
}

/** Where a request's time went in the worker (ms): waiting in its queue, then being served. */
export interface AnswerTiming {
  readonly waitMs: number;
  readonly runMs: number;
}

/** Messages from the worker. */
export type WorkerMessage =
  | {
      readonly kind: "result";
      readonly id: number;
      readonly ok: true;
      readonly result: unknown;
      readonly timing?: AnswerTiming;
    }
  | {
      readonly kind: "result";
      readonly id: number;
      readonly ok: false;
      readonly error: string;
      readonly errorName: string;
      readonly errorKind?: string;
      readonly timing?: AnswerTiming;
    }
  | { readonly kind: "progress"; readonly cwd: string; readonly bytes: number; readonly total: number }
  | ({ readonly kind: "liveFile" } & { readonly event: LiveFileEvent });

/** Distributes `Omit` over a union (so each request variant keeps its own fields). */
export type DistributiveOmit<T, K extends keyof never> = T extends unknown ? Omit<T, K> : never;
