/**
 * Talks to dist/graphWorker.js: reads, analyses and lays out a folder's graphs in a worker thread
 * (a 500-task layout takes a second; the extension host never waits on it). The worker keeps its
 * layout cache between requests, so it lives as long as the graph panel; a crashed or stuck
 * worker is replaced on the next request.
 */
import type { FolderReviewMarks } from "../../core/sources/reviewMarkSchema";
import * as path from "node:path";
import { Worker } from "node:worker_threads";
import type { GraphViewsResult } from "../../core/graph/graphViewTypes";
import type { ReportAnswer } from "../../core/graph/graphWorker";
import type { SourceSettings } from "../../core/sources/stateSource";
import * as vscode from "vscode";
import { Disposable } from "../disposable";

/** A request that takes longer than this fails (and the worker is replaced). */
const REQUEST_TIMEOUT_MS = 120_000;

type Pending = { resolve: (r: unknown) => void; reject: (e: Error) => void; timer: NodeJS.Timeout };

/** The graph worker, started on first use. */
export class GraphWorkerClient extends Disposable {
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();

  constructor(private readonly file = path.join(__dirname, "graphWorker.js")) {
    super();
    this.register({ dispose: () => this.stop(new Error(vscode.l10n.t("the graph worker was stopped"))) });
  }

  /** The graph views of the workspace folder at `workspace` (a file system path). */
  views(workspace: string, settings: Record<string, SourceSettings> = {}): Promise<GraphViewsResult> {
    return this.request({ op: "graph", workspace, settings }) as Promise<GraphViewsResult>;
  }

  /** The run report of the workspace folder at `workspace`, rendered in `format`, with the editor's reviewed marks by source kind. */
  report(
    workspace: string,
    format: "md" | "html" | "json",
    reviewMarks?: Record<string, FolderReviewMarks>,
  ): Promise<ReportAnswer> {
    return this.request({ op: "report", workspace, format, reviewMarks }) as Promise<ReportAnswer>;
  }

  /** The answer (JSON text) of a language-model tool over `folders`. */
  tool(tool: "status" | "check" | "task", folders: { name: string; path: string }[], input: unknown): Promise<string> {
    return this.request({ op: "tool", tool, folders, input }) as Promise<string>;
  }

  private request(body: Record<string, unknown>): Promise<unknown> {
    const w = this.ensure();
    const id = this.nextId++;
    return new Promise<unknown>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.stop(
          new Error(vscode.l10n.t("the worker took more than {0} s; it was stopped", REQUEST_TIMEOUT_MS / 1000)),
        );
      }, REQUEST_TIMEOUT_MS);
      this.pending.set(id, { resolve, reject, timer });
      w.postMessage({ id, ...body });
    });
  }

  private ensure(): Worker {
    if (this.worker) return this.worker;
    const w = new Worker(this.file);
    w.on("message", (m: { id: number; ok: boolean; result?: unknown; error?: string }) => {
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      clearTimeout(p.timer);
      if (m.ok && m.result !== undefined) p.resolve(m.result);
      else p.reject(new Error(m.error ?? vscode.l10n.t("the graph worker failed")));
    });
    w.on("error", (e) => this.stop(e instanceof Error ? e : new Error(String(e))));
    w.on("exit", () => {
      if (this.worker === w) this.stop(new Error(vscode.l10n.t("the graph worker exited")));
    });
    this.worker = w;
    return w;
  }

  private stop(reason: Error): void {
    const w = this.worker;
    this.worker = null;
    for (const p of this.pending.values()) {
      clearTimeout(p.timer);
      p.reject(reason);
    }
    this.pending.clear();
    void w?.terminate();
  }
}
