/**
 * The worker's requests about state sources, keyed by (workspace folder,
 * source kind): detect, refresh (check + tree + timeline in one read),
 * check, tree, summarize, timeline pages and details, and actions. Every
 * source of STATE_SOURCES is served the same way; nothing here names a kind.
 */
import type { TimelineEntryDetail, TimelinePage } from "../timeline/timelineTypes";
import { STATE_SOURCES } from "../sources/sourceRegistry";
import {
  ActionPreview,
  DetectOptions,
  SourceLocation,
  SourceProblem,
  SourceTreeNode,
  StateSource,
} from "../sources/stateSource";
import { SourceTimelineService } from "../timeline/sourceTimeline";
import type { TimelinePageRequest } from "../sources/autodev/timeline/ledgerTimelineService";

/** A source found in a workspace folder, as the host learns it. */
export interface DetectedSource {
  readonly kind: string;
  readonly displayName: string;
  /** The state folder relative to the workspace folder (".agloop"). */
  readonly relDir: string;
  readonly dir: string;
  /** Globs relative to the workspace folder to watch (a change refreshes this source only). */
  readonly watchGlobs: readonly string[];
  /** True when the source has a timeline. */
  readonly hasTimeline: boolean;
}

/** What one refresh of a source gives the host. */
export interface SourceSnapshot {
  readonly problems: readonly SourceProblem[];
  readonly tree: readonly SourceTreeNode[];
  /** Rows in the source's timeline, or null when it has none. */
  readonly timelineRows: number | null;
  /** Milliseconds the worker spent. */
  readonly ms: number;
}

/** Fields every source request carries. */
interface SourceRequestBase {
  readonly id: number;
  readonly cwd: string;
  readonly kind: string;
  readonly options?: DetectOptions;
}

/** Requests about one source of one folder (plus detection over all sources). */
export type SourceRequest =
  | { readonly id: number; readonly type: "sourceDetect"; readonly cwd: string; readonly options?: DetectOptions }
  | (SourceRequestBase & { readonly type: "sourceRefresh" | "sourceCheck" | "sourceTree" | "sourceSummarize" })
  | (SourceRequestBase & { readonly type: "sourceTimelinePage" } & TimelinePageRequest)
  | (SourceRequestBase & { readonly type: "sourceTimelineDetail" | "sourceTimelineWhere"; readonly seq: number })
  | (SourceRequestBase & {
      readonly type: "sourcePreviewAction" | "sourceRunAction";
      readonly action: string;
      readonly args: readonly string[];
    });

/** The result type of each source request. */
export interface SourceResults {
  sourceDetect: DetectedSource[];
  sourceRefresh: SourceSnapshot;
  sourceCheck: readonly SourceProblem[];
  sourceTree: readonly SourceTreeNode[];
  sourceSummarize: Record<string, unknown>;
  sourceTimelinePage: TimelinePage;
  sourceTimelineDetail: TimelineEntryDetail | null;
  sourceTimelineWhere: { readonly file: string; readonly line: number } | null;
  sourcePreviewAction: ActionPreview;
  sourceRunAction: string;
}

const timelines = new SourceTimelineService();

function keyOf(cwd: string, kind: string): string {
  return `${kind}\u0000${cwd}`;
}

async function locate(req: SourceRequestBase): Promise<{ source: StateSource; location: SourceLocation }> {
  const source = STATE_SOURCES.find((s) => s.kind === req.kind);
  if (!source) throw new Error(`no state source of kind "${req.kind}" is registered`);
  const location = await source.detect(req.cwd, req.options);
  if (!location) throw new Error(`${source.displayName}: no state folder in ${req.cwd} (any more)`);
  return { source, location };
}

async function loadTimeline(
  req: SourceRequestBase,
  source: StateSource,
  location: SourceLocation,
): Promise<number | null> {
  if (!source.timeline) return null;
  const rows = await source.timeline(location);
  timelines.update(keyOf(req.cwd, req.kind), rows);
  return rows.length;
}

/** Handles one source request. */
export async function handleSourceRequest(req: SourceRequest): Promise<SourceResults[SourceRequest["type"]]> {
  if (req.type === "sourceDetect") {
    const out: DetectedSource[] = [];
    for (const source of STATE_SOURCES) {
      const location = await source.detect(req.cwd, req.options);
      if (!location) continue;
      out.push({
        kind: source.kind,
        displayName: source.displayName,
        relDir: location.relDir,
        dir: location.dir,
        watchGlobs: source.watchGlobs(location),
        hasTimeline: !!source.timeline,
      });
    }
    return out;
  }
  const key = keyOf(req.cwd, req.kind);
  if (req.type.startsWith("sourceTimeline") && !timelines.has(key)) {
    const { source, location } = await locate(req);
    await loadTimeline(req, source, location);
  }
  switch (req.type) {
    case "sourceTimelinePage":
      return timelines.page(key, req);
    case "sourceTimelineDetail":
      return timelines.detail(key, req.seq);
    case "sourceTimelineWhere":
      return timelines.where(key, req.seq);
    default:
      break;
  }
  const { source, location } = await locate(req);
  switch (req.type) {
    case "sourceRefresh": {
      const t0 = performance.now();
      const [problems, tree, timelineRows] = await Promise.all([
        source.check(location),
        source.tree(location),
        loadTimeline(req, source, location),
      ]);
      return { problems, tree, timelineRows, ms: performance.now() - t0 };
    }
    case "sourceCheck":
      return source.check(location);
    case "sourceTree":
      return source.tree(location);
    case "sourceSummarize":
      return source.summarize(location);
    case "sourcePreviewAction":
      if (!source.previewAction) throw new Error(`${source.displayName} has no actions`);
      return source.previewAction(location, req.action, req.args);
    case "sourceRunAction":
      if (!source.runAction) throw new Error(`${source.displayName} has no actions`);
      return source.runAction(location, req.action, req.args);
  }
}

/** Drops what the worker keeps about a folder's sources. */
export function disposeSources(cwd: string): void {
  for (const s of STATE_SOURCES) timelines.drop(keyOf(cwd, s.kind));
}
