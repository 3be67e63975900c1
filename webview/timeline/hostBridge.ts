/**
 * The webview's typed channel to the extension host: posts
 * {@link WebviewToHost} messages, receives {@link HostToWebview} ones, and
 * keeps the page's saved state (getState/setState survive hide/show).
 */
import type { HostToWebview, WebviewToHost } from "../../src/protocolTimeline";

/** What VS Code's `acquireVsCodeApi()` returns. */
interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

const HOST_TYPES: ReadonlySet<string> = new Set([
  "init",
  "page",
  "details",
  "sourceChanged",
  "sources",
  "treeTask",
  "reveal",
  "notice",
  "error",
]);

/** Typed wrapper over the VS Code webview API. */
export class HostBridge<State> {
  private readonly api: VsCodeApi;
  private nextRequest = 1;

  constructor() {
    this.api = acquireVsCodeApi();
  }

  /** Sends a message to the host. */
  post(message: WebviewToHost): void {
    this.api.postMessage(message);
  }

  /** A new request id (responses carry it back). */
  requestId(): number {
    return this.nextRequest++;
  }

  /** Calls `handler` for every message from the host (anything malformed is ignored). */
  listen(handler: (m: HostToWebview) => void): void {
    window.addEventListener("message", (ev: MessageEvent) => {
      const data: unknown = ev.data;
      if (!data || typeof data !== "object") return;
      const type = (data as { type?: unknown }).type;
      if (typeof type !== "string" || !HOST_TYPES.has(type)) return;
      handler(data as HostToWebview);
    });
  }

  /** The state saved before the webview was last hidden, if any. */
  loadState(): Partial<State> {
    const s = this.api.getState();
    return s && typeof s === "object" ? (s as Partial<State>) : {};
  }

  /** Saves state for the next time the webview is shown. */
  saveState(state: State): void {
    this.api.setState(state);
  }
}
