/**
 * The state worker thread (bundled as dist/stateWorker.js): answers the host's requests (see
 * workerProtocol.ts) for every source of every workspace folder, so no read, check,
 * verification or write ever runs on the extension host's thread. Requests for one folder run one
 * at a time, the most urgent first (requestScheduler.ts: a refresh before a timeline page; a
 * `cancel` jumps the queue); folders interleave.
 */
import { fileSignature } from "../fs/fileSignature";
import * as fs from "node:fs";
import * as path from "node:path";
import { isInside } from "../fs/pathInside";
import { readRegularText } from "../fs/safeRead";
import * as v8 from "node:v8";
import { parentPort, workerData } from "node:worker_threads";
import { setMaxLineBytes } from "../fs/lineLimit";
import { setL10nBundle } from "../text/coreL10n";
import type { WorkerStartOptions } from "../sources/sourceWorker";
import { LiveWatches } from "./liveWatch";
import { RequestScheduler, type RequestPriority } from "./requestScheduler";
import { sourceOfKind } from "../sources/sourceRegistry";
import { handleSourceRequest } from "./sourceRequests";
import { handleViewRequest, isViewRequest } from "./viewRequests";
import type { WorkerMemory, WorkerMessage, WorkerRequest, WorkerResults } from "./workerProtocol";

setMaxLineBytes(Number(((workerData ?? {}) as WorkerStartOptions).maxLineBytes));
setL10nBundle(((workerData ?? {}) as WorkerStartOptions).l10nBundle);
const running = new Map<number, AbortController>();
let live: LiveWatches | null = null;

/** True when `file` (relative to `cwd`) exists and its real path is outside `cwd`'s. */
async function resolvesOutside(cwd: string, file: string): Promise<boolean> {
  const real = await fs.promises.realpath(path.resolve(cwd, file)).catch(() => null);
  if (real === null) return false;
  return !isInside(await fs.promises.realpath(cwd), real);
}

/** `file`'s text, read with the state files' checks; refuses a path that leaves `cwd` before any look. */
async function fileText(cwd: string, file: string, maxBytes: number): Promise<string | null> {
  const abs = path.resolve(cwd, file);
  if (!isInside(cwd, abs)) throw new Error(`${file} is outside the workspace folder; it is not read`);
  return readRegularText(abs, { root: cwd, maxBytes, what: file });
}

/** This thread's heap, after a collection when `collect` and the process allows it. */
function threadMemory(collect: boolean): WorkerMemory {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (collect && gc) gc();
  const h = v8.getHeapStatistics();
  return {
    heapUsed: h.used_heap_size,
    heapTotal: h.total_heap_size,
    physical: h.total_physical_size,
    external: h.external_memory,
    collected: collect && gc !== undefined,
  };
}

/** Handles one request; exported for tests that run it without a thread. */
export async function handleRequest(
  req: WorkerRequest,
  post: (m: WorkerMessage) => void,
): Promise<WorkerResults[keyof WorkerResults]> {
  if (req.type === "cancel") {
    const ctl = running.get(req.target);
    ctl?.abort();
    return ctl !== undefined;
  }
  if (req.type === "liveWatch") {
    live ??= new LiveWatches((event) => post({ kind: "liveFile", event }));
    return live.watch(req.cwd, req.kind, req.relDir, req.files);
  }
  if (isViewRequest(req)) return handleViewRequest(req);
  if (req.type === "linksOut") return resolvesOutside(req.cwd, req.file);
  if (req.type === "signatures") return req.files.map((f) => fileSignature(f));
  if (req.type === "fileText") return fileText(req.cwd, req.file, req.maxBytes);
  if (req.type === "memory") return threadMemory(req.collect === true);
  if (req.type === "dispose") live?.unwatch(req.cwd, req.kind);
  const ctl = new AbortController();
  running.set(req.id, ctl);
  try {
    const cwd = req.cwd;
    return await handleSourceRequest(req, {
      requestId: req.id,
      signal: ctl.signal,
      progress: (bytes, total) => post({ kind: "progress", cwd, bytes, total }),
    });
  } finally {
    running.delete(req.id);
  }
}

/** How soon a request is served (requestScheduler.ts): what shows a change first, what repaints a panel last. */
export function requestPriority(req: WorkerRequest): RequestPriority {
  switch (req.type) {
    case "refresh":
    case "detect":
    case "signatures":
    case "dispose":
      return "live";
    case "graph":
    case "report":
      return "background";
    case "source":
      return sourceOfKind(req.kind)?.worker?.priorityOf?.(req.request) ?? "normal";
    default:
      return "normal";
  }
}

/**
 * The thread's dispatch: answers each request through `handle` with its timing, in the order the
 * {@link RequestScheduler} gives (exported for tests that drive it with a handler of their own).
 */
export function requestDispatch(
  handle: (req: WorkerRequest) => Promise<unknown>,
  post: (m: WorkerMessage) => void,
  scheduler = new RequestScheduler(),
): (req: WorkerRequest) => void {
  const run = async (req: WorkerRequest, queuedAt: number) => {
    const startedAt = performance.now();
    const timing = () => ({ waitMs: startedAt - queuedAt, runMs: performance.now() - startedAt });
    try {
      const result = await handle(req);
      post({ kind: "result", id: req.id, ok: true, result, timing: timing() });
    } catch (e) {
      const err = e instanceof Error ? e : new Error(String(e));
      const kind = (err as { problem?: { kind?: string } }).problem?.kind;
      const failed = { error: err.message, errorName: err.name, errorKind: kind };
      post({ kind: "result", id: req.id, ok: false, ...failed, timing: timing() });
    }
  };
  return (req) => {
    // A cancel jumps the queue; so do a live watch (no I/O beyond lstat, and a long verify must not
    // delay it) and a memory reading (no I/O; it measures the thread as it is, mid-verify or not).
    if (req.type === "cancel" || req.type === "liveWatch" || req.type === "memory") {
      return void run(req, performance.now());
    }
    // The graph, the report and the tools read a folder on their own: they wait on each other, not on its refreshes.
    const lane = isViewRequest(req) ? `view\u0000${req.cwd}` : req.cwd;
    scheduler.submit(lane, requestPriority(req), (queuedAt) => run(req, queuedAt));
  };
}

if (parentPort) {
  const port = parentPort;
  const post = (m: WorkerMessage) => port.postMessage(m);
  port.on(
    "message",
    requestDispatch((req) => handleRequest(req, post), post),
  );
}
