/**
 * Host side of the state worker thread (dist/stateWorker.js), the one worker of every source and of
 * the graph, the run report and the language-model tools:
 * typed request/response over postMessage, progress events, and restart on crash (pending
 * requests fail with a clear error instead of hanging). A request the worker does not answer
 * within its time (two minutes by default; each progress report of its folder starts the time
 * again, so a long verification that reports progress never runs out) fails with a
 * {@link WorkerTimeoutError} and is cancelled in the worker.
 */
import * as path from "node:path";
import { Worker } from "node:worker_threads";
import * as vscode from "vscode";
import type { WorkerStartOptions } from "../core/sources/sourceWorker";
import { l10nBundle } from "../core/text/coreL10n";
import type { LiveFileEvent } from "../core/worker/liveWatch";
import {
  AnswerTiming,
  DistributiveOmit,
  WorkerMessage,
  WorkerRequest,
  WorkerResults,
} from "../core/worker/workerProtocol";
import { Disposable } from "./disposable";
import { OutputLog } from "./outputLog";

type Pending = {
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
  readonly type: string;
  readonly cwd: string | undefined;
  /** "refresh", or a source's own request as "kind.type" (what {@link WorkerAnswer} names). */
  readonly label: string;
  /** When it was sent (performance.now()). */
  readonly sentAt: number;
  timer: ReturnType<typeof setTimeout> | undefined;
};

/** One answered request, for the benches: its label, when it was sent and answered, and the worker's timing. */
export interface WorkerAnswer {
  readonly label: string;
  readonly sentAt: number;
  readonly answeredAt: number;
  readonly timing: AnswerTiming | undefined;
}

/** What a request is called in counts and traces: its type, or a source's own request as "kind.type". */
function labelOf(req: { readonly type: string }): string {
  const own = req as { kind?: unknown; request?: { type?: unknown } };
  return req.type === "source" ? `${String(own.kind)}.${String(own.request?.type)}` : req.type;
}

/** How long a request may go without its answer or a progress report of its folder, by default. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 120_000;

/** "120", "0.3": a time limit in seconds as the error says it. */
function seconds(ms: number): string {
  return ms >= 10_000 ? String(Math.round(ms / 1000)) : String(Math.round(ms / 100) / 10);
}

/** The worker did not answer a request in time. */
export class WorkerTimeoutError extends Error {
  constructor(
    readonly requestType: string,
    readonly cwd: string | undefined,
    readonly timeoutMs: number,
  ) {
    super(
      cwd === undefined
        ? vscode.l10n.t(
            "the state worker did not answer {0} within {1} s; it was cancelled (run the command again, or reload the window if this repeats)",
            requestType,
            seconds(timeoutMs),
          )
        : vscode.l10n.t(
            "the state worker did not answer {0} for {1} within {2} s; it was cancelled (run the command again, or reload the window if this repeats)",
            requestType,
            path.basename(cwd),
            seconds(timeoutMs),
          ),
    );
    this.name = "WorkerTimeoutError";
  }
}

/** An error the worker raised while serving a request. */
export class WorkerRequestError extends Error {
  constructor(
    message: string,
    readonly errorName: string,
    readonly errorKind?: string,
  ) {
    super(message);
  }
}

/**
 * The worker thread's young generation, in MB. Left to V8 (Node 24, the editor's), it grows to
 * about 100 MB under a live run's steady allocation and is not given back, so the host's memory
 * climbed for the first half hour of a soak (bench/workerSoak.mjs: the worker's heap 34 → 149 MB in
 * 5 minutes; capped 35 → 37 MB). Capped, the first verify of a 100 MB ledger costs the same
 * (docs/benchmarks.md, "The worker's memory").
 */
const WORKER_YOUNG_MB = 16;

/** Talks to dist/stateWorker.js. */
export class StateWorkerClient extends Disposable {
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly progressEmitter = this.register(
    new vscode.EventEmitter<{ cwd: string; bytes: number; total: number }>(),
  );
  /** Progress of long scans. */
  readonly onProgress = this.progressEmitter.event;
  private readonly answerEmitter = this.register(new vscode.EventEmitter<WorkerAnswer>());
  /** Every answer the worker gave, with its timing (the soak bench's breakdown). */
  readonly onDidAnswer = this.answerEmitter.event;
  private readonly liveFileEmitter = this.register(new vscode.EventEmitter<LiveFileEvent>());
  /** A file the worker watches itself changed (see the `liveWatch` request). */
  readonly onLiveFile = this.liveFileEmitter.event;
  private readonly restartEmitter = this.register(new vscode.EventEmitter<void>());
  /** A new worker started after one stopped (what the old one held, its watches included, is gone). */
  readonly onDidRestart = this.restartEmitter.event;
  private started = 0;

  /**
   * `maxLineBytes`: the longest line a reader keeps in memory (`autodev.maxLineMB`, read once at
   * start); `file`: the worker's bundle (tests start the built one).
   */
  constructor(
    private readonly log: OutputLog,
    private readonly maxLineBytes: () => number,
    private readonly file = path.join(__dirname, "stateWorker.js"),
    private readonly timeoutMs = DEFAULT_REQUEST_TIMEOUT_MS,
  ) {
    super();
  }

  private ensure(): Worker {
    if (this.worker) return this.worker;
    // The line-length limit (autodev.maxLineMB) is read when the worker starts.
    const start: WorkerStartOptions = { maxLineBytes: this.maxLineBytes(), l10nBundle: l10nBundle() };
    const w = new Worker(this.file, {
      workerData: start,
      resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_MB },
    });
    w.on("message", (m: WorkerMessage) => this.onMessage(m));
    w.on("error", (e) => this.log.error("state worker failed", e));
    w.on("exit", (code) => {
      if (this.worker === w) this.worker = null;
      const err = new Error(
        vscode.l10n.t("the state worker stopped (exit code {0}); it restarts on the next request", String(code)),
      );
      for (const p of this.pending.values()) {
        clearTimeout(p.timer);
        p.reject(err);
      }
      this.pending.clear();
    });
    w.unref();
    this.worker = w;
    if (this.started++ > 0) queueMicrotask(() => this.restartEmitter.fire());
    return w;
  }

  private onMessage(m: WorkerMessage): void {
    if (m.kind === "progress") {
      for (const [id, p] of this.pending) if (p.cwd === m.cwd) this.arm(id, p);
      this.progressEmitter.fire({ cwd: m.cwd, bytes: m.bytes, total: m.total });
      return;
    }
    if (m.kind === "liveFile") {
      this.liveFileEmitter.fire(m.event);
      return;
    }
    const p = this.pending.get(m.id);
    if (!p) return;
    this.pending.delete(m.id);
    clearTimeout(p.timer);
    this.answerEmitter.fire({ label: p.label, sentAt: p.sentAt, answeredAt: performance.now(), timing: m.timing });
    if (m.ok) p.resolve(m.result);
    else p.reject(new WorkerRequestError(m.error, m.errorName, m.errorKind));
  }

  /** Sends a request and resolves with its typed result. */
  request<R extends DistributiveOmit<WorkerRequest, "id">>(
    req: R,
    onId?: (id: number) => void,
  ): Promise<WorkerResults[R["type"]]> {
    const id = this.nextId++;
    onId?.(id);
    const cwd = "cwd" in req && typeof req.cwd === "string" ? req.cwd : undefined;
    return new Promise<WorkerResults[R["type"]]>((resolve, reject) => {
      const p: Pending = {
        resolve: resolve as (v: unknown) => void,
        reject,
        type: req.type,
        cwd,
        label: labelOf(req),
        sentAt: performance.now(),
        timer: undefined,
      };
      this.pending.set(id, p);
      // A cancel is answered at once, and a live watch's answer is its start: neither waits on a folder's queue.
      if (req.type !== "cancel") this.arm(id, p);
      this.ensure().postMessage({ ...req, id });
    });
  }

  /** (Re)starts a request's time: when it runs out the request fails and the worker is told to stop it. */
  private arm(id: number, p: Pending): void {
    clearTimeout(p.timer);
    p.timer = setTimeout(() => {
      if (this.pending.get(id) !== p) return;
      this.pending.delete(id);
      const err = new WorkerTimeoutError(p.type, p.cwd, this.timeoutMs);
      this.log.warn(err.message);
      p.reject(err);
      if (this.worker && p.cwd !== undefined) {
        this.worker.postMessage({ type: "cancel", cwd: p.cwd, target: id, id: this.nextId++ });
      }
    }, this.timeoutMs);
    p.timer.unref?.();
  }

  override dispose(): void {
    super.dispose();
    for (const p of this.pending.values()) clearTimeout(p.timer);
    void this.worker?.terminate();
    this.worker = null;
  }
}
