/**
 * Host side of the state worker thread (dist/stateWorker.js), the one worker of every source and of
 * the graph, the run report and the language-model tools:
 * typed request/response over postMessage, progress events, and restart on crash (pending
 * requests fail with a clear error instead of hanging).
 */
import * as path from "node:path";
import { Worker } from "node:worker_threads";
import * as vscode from "vscode";
import type { WorkerStartOptions } from "../core/sources/sourceWorker";
import { l10nBundle } from "../core/text/coreL10n";
import type { LiveFileEvent } from "../core/worker/liveWatch";
import { DistributiveOmit, WorkerMessage, WorkerRequest, WorkerResults } from "../core/worker/workerProtocol";
import { Disposable } from "./disposable";
import { OutputLog } from "./outputLog";

type Pending = { resolve: (v: unknown) => void; reject: (e: Error) => void };

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
  ) {
    super();
  }

  private ensure(): Worker {
    if (this.worker) return this.worker;
    // The line-length limit (autodev.maxLineMB) is read when the worker starts.
    const start: WorkerStartOptions = { maxLineBytes: this.maxLineBytes(), l10nBundle: l10nBundle() };
    const w = new Worker(this.file, { workerData: start });
    w.on("message", (m: WorkerMessage) => this.onMessage(m));
    w.on("error", (e) => this.log.error("state worker failed", e));
    w.on("exit", (code) => {
      if (this.worker === w) this.worker = null;
      const err = new Error(
        vscode.l10n.t("the state worker stopped (exit code {0}); it restarts on the next request", String(code)),
      );
      for (const p of this.pending.values()) p.reject(err);
      this.pending.clear();
    });
    w.unref();
    this.worker = w;
    if (this.started++ > 0) queueMicrotask(() => this.restartEmitter.fire());
    return w;
  }

  private onMessage(m: WorkerMessage): void {
    if (m.kind === "progress") {
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
    return new Promise<WorkerResults[R["type"]]>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.ensure().postMessage({ ...req, id });
    });
  }

  override dispose(): void {
    super.dispose();
    void this.worker?.terminate();
    this.worker = null;
  }
}
