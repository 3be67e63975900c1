/**
 * The worker's source-neutral requests, keyed by (workspace folder, source kind): detect,
 * refresh (check + tree + timeline in one read), timeline pages, details and row references,
 * actions, a source's own requests and dispose. Every source of STATE_SOURCES is served the same
 * way; a source with a {@link SourceWorkerHandler} answers its timeline and its own requests
 * itself. Nothing here names a kind.
 */
import type { TimelineEntryDetail } from "../timeline/timelineDetailTypes";
import type { TimelinePage, TimelineRowRef } from "../timeline/timelineTypes";
import { STATE_SOURCES, sourceOfKind } from "../sources/sourceRegistry";
import type { SourceLocation, StateSource } from "../sources/stateSource";
import type { WorkerContext } from "../sources/sourceWorker";
import { SourceTimelineService } from "../timeline/sourceTimeline";
import { LOG_TIMELINE_FEATURES } from "../timeline/logTimelineFeatures";
import type { DetectedSource, DistributiveOmit, WorkerRequest, WorkerResults } from "./workerProtocol";

/** The requests this module answers (all but `cancel`, which the thread handles, `linksOut`, `signatures`, `fileText`, `memory`, and viewRequests.ts' views). */
export type SourceRequest = Exclude<
  DistributiveOmit<WorkerRequest, "id">,
  { type: "cancel" | "graph" | "report" | "tool" | "linksOut" | "signatures" | "fileText" | "memory" }
>;
type Addressed = Extract<SourceRequest, { kind: string }>;

const timelines = new SourceTimelineService();

function keyOf(cwd: string, kind: string): string {
  return `${kind}\u0000${cwd}`;
}

function sourceOf(kind: string): StateSource {
  const source = sourceOfKind(kind);
  if (!source) throw new Error(`no state source of kind "${kind}" is registered`);
  return source;
}

async function locate(req: Addressed): Promise<{ source: StateSource; location: SourceLocation }> {
  const source = sourceOf(req.kind);
  const location = await source.detect(req.cwd, { settings: req.settings });
  if (!location) throw new Error(`${source.displayName}: no state folder in ${req.cwd} (any more)`);
  return { source, location };
}

async function loadTimeline(req: Addressed, source: StateSource, location: SourceLocation): Promise<number | null> {
  if (!source.timeline) return null;
  const rows = await source.timeline(location);
  timelines.update(keyOf(req.cwd, req.kind), rows, source.timelineFeatures);
  return rows.length;
}

async function detectAll(req: Extract<SourceRequest, { type: "detect" }>): Promise<DetectedSource[]> {
  const out: DetectedSource[] = [];
  for (const source of STATE_SOURCES) {
    const location = await source.detect(req.cwd, { settings: req.settings?.[source.kind] });
    if (!location) continue;
    const hasTimeline = !!source.timeline || !!source.worker?.timelinePage;
    out.push({
      kind: source.kind,
      displayName: source.displayName,
      relDir: location.relDir,
      dir: location.dir,
      watchGlobs: source.watchGlobs(location),
      liveFiles: source.liveFiles ?? [],
      hasTimeline,
      timelineFeatures: hasTimeline ? (source.timelineFeatures ?? LOG_TIMELINE_FEATURES) : null,
    });
  }
  return out;
}

/** The generic timeline of a source without one of its own (rows loaded on first use). */
async function genericTimeline(req: Addressed): Promise<string> {
  const key = keyOf(req.cwd, req.kind);
  if (!timelines.has(key)) {
    const { source, location } = await locate(req);
    await loadTimeline(req, source, location);
  }
  return key;
}

async function timelineRequest(
  req: Extract<SourceRequest, { type: "timelinePage" | "timelineDetail" | "timelineRef" }>,
): Promise<TimelinePage | TimelineEntryDetail | TimelineRowRef | null> {
  const own = sourceOf(req.kind).worker;
  switch (req.type) {
    case "timelinePage":
      return own?.timelinePage ? own.timelinePage(req.cwd, req) : timelines.page(await genericTimeline(req), req);
    case "timelineDetail":
      return own?.timelineDetail
        ? own.timelineDetail(req.cwd, req.rowId)
        : timelines.detail(await genericTimeline(req), req.rowId);
    case "timelineRef":
      return own?.timelineRef
        ? own.timelineRef(req.cwd, req.rowId)
        : timelines.ref(await genericTimeline(req), req.rowId);
  }
}

/** Handles one request (see {@link WorkerRequest}); `context` carries cancellation and progress. */
export async function handleSourceRequest(
  req: SourceRequest,
  context: WorkerContext,
): Promise<WorkerResults[SourceRequest["type"]]> {
  switch (req.type) {
    case "detect":
      return detectAll(req);
    case "dispose":
      disposeSources(req.cwd, req.kind);
      return null;
    case "timelinePage":
    case "timelineDetail":
    case "timelineRef":
      return timelineRequest(req);
    case "source": {
      const own = sourceOf(req.kind).worker;
      if (!own) throw new Error(`${sourceOf(req.kind).displayName} has no requests of its own`);
      return own.handle(req.cwd, req.request, context);
    }
    default:
      break;
  }
  const { source, location } = await locate(req);
  switch (req.type) {
    case "refresh": {
      const t0 = performance.now();
      // One read of the state files when the source offers it (agloop's state.json, engine_state's file).
      const view = source.readView
        ? source.readView(location)
        : Promise.all([
            source.check(location),
            source.tree(location),
            source.waiting ? source.waiting(location) : null,
          ]).then(([problems, tree, waiting]) => ({ problems, tree, waiting }));
      const [{ problems, tree, waiting }, timelineRows] = await Promise.all([
        view,
        loadTimeline(req, source, location),
      ]);
      return { problems, tree, timelineRows, waiting, ms: performance.now() - t0 };
    }
    case "previewAction":
      if (!source.previewAction) throw new Error(`${source.displayName} has no actions`);
      return source.previewAction(location, req.action, req.args);
    case "runAction":
      if (!source.runAction) throw new Error(`${source.displayName} has no actions`);
      return source.runAction(location, req.action, req.args);
  }
}

/** Drops what the worker keeps about a folder's sources (one kind, or all). */
function disposeSources(cwd: string, kind?: string): void {
  for (const s of STATE_SOURCES) {
    if (kind !== undefined && s.kind !== kind) continue;
    timelines.drop(keyOf(cwd, s.kind));
    s.worker?.dispose?.(cwd);
  }
}
