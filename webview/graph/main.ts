/**
 * The plan-graph page (dist/webview/graph.js): a toolbar (folder, source, zoom, refresh), a summary
 * line read out when it changes, a legend, the notes of the readers, and the {@link GraphCanvas}.
 * Talks to the host only through typed messages (src/protocolGraph.ts): it sends references
 * (a source kind and a task id) and draws what the host sends, with text set as text.
 */
import { button, clear, h, icon, option } from "../dom";
import { l10n, loadL10n } from "../l10n";
import type { GraphToHost, GraphView, GraphsMessage, HostToGraph } from "../../src/protocolGraph";
import { GraphCanvas } from "./graphCanvas";
import { modelOf, summaryOf } from "./graphModel";

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const api = acquireVsCodeApi();
const post = (m: GraphToHost): void => api.postMessage(m);
const saved = (api.getState() ?? {}) as { kind?: string };

const root = document.getElementById("graph-root")!;
loadL10n(root);
const folderSelect = h("select", { cls: "graph-folder", attrs: { "aria-label": l10n.t("Workspace folder") } });
const sourceTabs = h("div", { cls: "graph-sources", attrs: { role: "tablist", "aria-label": l10n.t("State source") } });
const summary = h("p", { cls: "graph-summary", attrs: { "aria-live": "polite" } });
const notes = h("ul", { cls: "graph-notes" });
const canvas = new GraphCanvas({
  reveal: (taskId) => current && post({ type: "reveal", kind: current.kind, taskId }),
});
const zoomIn = button("zoom-in", l10n.t("Zoom in"), { iconOnly: true });
const zoomOut = button("zoom-out", l10n.t("Zoom out"), { iconOnly: true });
const zoomFit = button("screen-full", l10n.t("Fit the graph"), { iconOnly: true });
const refresh = button("refresh", l10n.t("Refresh"), { iconOnly: true });
const legend = h("div", { cls: "graph-legend", attrs: { "aria-label": l10n.t("Legend") } }, [
  ...(
    [
      ["pass-filled", l10n.t("done"), "tone-autodevStatus-complete"],
      ["play-circle", l10n.t("in progress"), "tone-autodevStatus-inProgress"],
      ["circle-large-outline", l10n.t("pending"), "tone-autodevStatus-pending"],
      ["stop-circle", l10n.t("blocked"), "tone-autodevStatus-blocked"],
    ] as const
  ).map(([i, label, tone]) => h("span", { cls: "legend-item" }, [icon(i, tone), h("span", { text: label })])),
  h("span", { cls: "legend-item legend-critical", text: l10n.t("★ critical path") }),
  h("span", { cls: "legend-item legend-cyclic", text: l10n.t("⟲ in a cycle") }),
  h("span", { cls: "legend-item legend-waiting", text: l10n.t("waits on a blocked task") }),
  h("span", { cls: "legend-item", text: l10n.t("↻ retries · ⚑ escalated") }),
]);

zoomIn.addEventListener("click", () => canvas.zoom(1.25));
zoomOut.addEventListener("click", () => canvas.zoom(0.8));
zoomFit.addEventListener("click", () => canvas.zoom("fit"));
refresh.addEventListener("click", () => post({ type: "refresh" }));
folderSelect.addEventListener("change", () => post({ type: "folder", uri: folderSelect.value }));

root.append(
  h("div", { cls: "graph-toolbar", attrs: { role: "toolbar", "aria-label": l10n.t("Graph") } }, [
    folderSelect,
    sourceTabs,
    h("span", { cls: "graph-spacer" }),
    zoomOut,
    zoomIn,
    zoomFit,
    refresh,
  ]),
  summary,
  legend,
  notes,
  canvas.element,
);

let last: GraphsMessage | null = null;
let current: GraphView | null = null;

function pick(kind: string | undefined): GraphView | null {
  if (!last || last.views.length === 0) return null;
  return last.views.find((v) => v.kind === kind) ?? last.views[0];
}

function render(): void {
  if (!last) return;
  clear(folderSelect);
  for (const f of last.folders) folderSelect.appendChild(option(f.uri, f.name, f.uri === last.folder.uri));
  folderSelect.hidden = last.folders.length < 2;
  current = pick(saved.kind);
  clear(sourceTabs);
  for (const v of last.views) {
    const tab = h("button", {
      cls: `graph-tab${v === current ? " checked" : ""}`,
      text: `${v.displayName} ${v.graph.path}`,
      attrs: { role: "tab", type: "button", "aria-selected": String(v === current) },
    });
    tab.addEventListener("click", () => {
      saved.kind = v.kind;
      api.setState(saved);
      render();
    });
    sourceTabs.appendChild(tab);
  }
  clear(notes);
  for (const e of last.errors) notes.appendChild(h("li", { cls: "graph-error", text: `${e.kind}: ${e.message}` }));
  if (!current) {
    summary.textContent = l10n.t("No plan to draw: no state folder with tasks in this folder.");
    canvas.element.hidden = true;
    return;
  }
  canvas.element.hidden = false;
  // An unverified graph says so first, in the error style, before any other note.
  if (current.graph.verified === false) {
    notes.appendChild(h("li", { cls: "graph-error", text: l10n.t("NOT verified: run autodev-state verify") }));
  }
  for (const n of current.graph.notes) notes.appendChild(h("li", { text: n }));
  if (current.graph.dangling.length > 0) {
    notes.appendChild(
      h("li", {
        text: l10n.t("{0} dependencies name tasks that do not exist (see Problems).", current.graph.dangling.length),
      }),
    );
  }
  const taskNotes = Object.prototype.hasOwnProperty.call(last.taskNotes, current.kind)
    ? last.taskNotes[current.kind]
    : {};
  summary.textContent = `${current.displayName}: ${summaryOf(modelOf(current, taskNotes))}`;
  canvas.show(current, taskNotes);
  post({ type: "rendered", kind: current.kind, nodes: canvas.cardCount, edges: canvas.edgeCount });
}

window.addEventListener("message", (event: MessageEvent) => {
  const m = event.data as HostToGraph;
  if (!m || typeof m !== "object") return;
  if (m.type === "graphs") {
    last = m;
    root.classList.remove("loading");
    render();
  } else if (m.type === "select") {
    if (current?.kind !== m.kind && last?.views.some((v) => v.kind === m.kind)) {
      saved.kind = m.kind;
      render();
    }
    canvas.focus(m.taskId);
  } else if (m.type === "loading") root.classList.add("loading");
  else if (m.type === "error") {
    root.classList.remove("loading");
    summary.textContent = l10n.t("The graph could not be read: {0}", m.message);
  }
});

post({ type: "ready" });
