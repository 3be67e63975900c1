/**
 * Draws one laid-out graph: phase boxes and task cards as positioned elements (text through
 * `textContent` only), dependencies as SVG paths underneath. A task card shows its codicon, id,
 * title and marks (retries, escalation, cycle, critical path) so nothing depends on colour alone;
 * cards are one roving-tabindex group (arrows follow dependencies, Enter reveals the task in the
 * tree). A status-only change (same structure) re-binds the existing cards: no re-layout, no
 * lost focus or scroll position.
 */
import { clear, h, icon, setIcon, setText } from "../dom";
import { l10n } from "../l10n";
import type { GraphView } from "../../src/protocolGraph";
import { modelOf, moveFrom, NodeModel, ViewModel } from "./graphModel";

const NODE_WIDTH = 200;
const NODE_HEIGHT = 52;
const SVG_NS = "http://www.w3.org/2000/svg";

/** What the canvas asks of the page. */
export interface CanvasHost {
  reveal(taskId: string): void;
}

/** The CSS class of a status look's colour ("charts.blue" → "tone-charts-blue"), from a fixed alphabet. */
function toneClass(color: string | null): string {
  return color && /^[a-zA-Z0-9.]{1,60}$/.test(color) ? `tone-${color.replace(/\./g, "-")}` : "tone-none";
}

function svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string>): SVGElementTagNameMap[K] {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  return el;
}

/** One graph on screen. */
export class GraphCanvas {
  private model: ViewModel | null = null;
  private key = "";
  private readonly cards = new Map<string, HTMLElement>();
  private readonly paths: { el: SVGPathElement; from: string; to: string }[] = [];
  private focused: string | null = null;
  private scale = 1;
  readonly element: HTMLElement;
  private readonly sizer: HTMLElement;
  private readonly surface: HTMLElement;

  constructor(private readonly host: CanvasHost) {
    this.surface = h("div", { cls: "graph-surface" });
    this.sizer = h("div", { cls: "graph-sizer" }, [this.surface]);
    this.element = h("div", { cls: "graph-viewport", attrs: { role: "group" } }, [this.sizer]);
    this.element.addEventListener("keydown", (e) => this.onKey(e));
    this.element.addEventListener("click", (e) => {
      const card = (e.target as HTMLElement).closest<HTMLElement>(".graph-node");
      if (card?.dataset.id) {
        this.focus(card.dataset.id);
        this.host.reveal(card.dataset.id);
      }
    });
  }

  /** Shows `view`; when its structure is the one on screen, only statuses and marks are updated. */
  show(view: GraphView, notes: Readonly<Record<string, string>> = {}): void {
    const model = modelOf(view, notes);
    this.element.setAttribute(
      "aria-label",
      l10n.t("Plan graph of {0}: {1} tasks", view.displayName, view.graph.nodes.length),
    );
    if (view.structureKey === this.key && this.model) {
      this.model = model;
      for (const m of model.nodes.values()) this.bind(this.cards.get(m.node.id)!, m);
      this.markEdges();
      return;
    }
    this.model = model;
    this.key = view.structureKey;
    this.build(model);
  }

  /** Task cards on screen. */
  get cardCount(): number {
    return this.cards.size;
  }

  /** Dependency paths on screen. */
  get edgeCount(): number {
    return this.paths.length;
  }

  /** Moves the keyboard focus (and the scroll position) to a task. */
  focus(taskId: string, scroll = true): void {
    const card = this.cards.get(taskId);
    if (!card) return;
    if (this.focused) this.cards.get(this.focused)?.setAttribute("tabindex", "-1");
    card.setAttribute("tabindex", "0");
    this.focused = taskId;
    card.focus({ preventScroll: !scroll });
    if (scroll) card.scrollIntoView({ block: "nearest", inline: "nearest" });
    for (const [id, el] of this.cards) el.classList.toggle("selected", id === taskId);
  }

  /** Zooms by `factor` (1 = reset), or fits the whole graph when `factor` is "fit". */
  zoom(factor: number | "fit"): void {
    const layout = this.model?.view.layout;
    if (!layout) return;
    if (factor === "fit") {
      const w = this.element.clientWidth || 800;
      const hgt = this.element.clientHeight || 600;
      this.scale = Math.max(0.1, Math.min(1, w / Math.max(1, layout.width), hgt / Math.max(1, layout.height)));
    } else this.scale = factor === 1 ? 1 : Math.max(0.1, Math.min(3, this.scale * factor));
    this.applyScale();
  }

  private applyScale(): void {
    const layout = this.model!.view.layout;
    this.surface.style.transform = `scale(${this.scale})`;
    this.sizer.style.width = `${Math.ceil(layout.width * this.scale)}px`;
    this.sizer.style.height = `${Math.ceil(layout.height * this.scale)}px`;
  }

  private build(model: ViewModel): void {
    clear(this.surface);
    this.cards.clear();
    this.paths.length = 0;
    const { layout, graph } = model.view;
    this.surface.style.width = `${layout.width}px`;
    this.surface.style.height = `${layout.height}px`;
    const labels = new Map(graph.groups.map((g) => [g.id, g.label || g.id]));
    for (const g of layout.groups) {
      const box = h("div", { cls: "graph-group", attrs: { "aria-hidden": "true" } }, [
        h("span", { cls: "graph-group-label", text: labels.get(g.id) ?? g.id }),
      ]);
      Object.assign(box.style, { left: `${g.x}px`, top: `${g.y}px`, width: `${g.width}px`, height: `${g.height}px` });
      this.surface.appendChild(box);
    }
    const edges = svg("svg", {
      class: "graph-edges",
      width: String(layout.width),
      height: String(layout.height),
      "aria-hidden": "true",
    });
    const defs = svg("defs", {});
    const marker = svg("marker", {
      id: "arrow",
      viewBox: "0 0 10 10",
      refX: "9",
      refY: "5",
      markerUnits: "userSpaceOnUse",
      markerWidth: "9",
      markerHeight: "9",
      orient: "auto-start-reverse",
    });
    marker.appendChild(svg("path", { d: "M 0 0 L 10 5 L 0 10 z", class: "graph-arrow" }));
    defs.appendChild(marker);
    edges.appendChild(defs);
    for (const e of layout.edges) {
      if (e.points.length === 0) continue;
      const d = e.points.map((p, i) => `${i === 0 ? "M" : "L"} ${p.x} ${p.y}`).join(" ");
      const path = svg("path", { d, class: "graph-edge", "marker-end": "url(#arrow)" });
      edges.appendChild(path);
      this.paths.push({ el: path, from: e.from, to: e.to });
    }
    this.surface.appendChild(edges);
    for (const id of model.order) {
      const m = model.nodes.get(id)!;
      const card = h("div", { cls: "graph-node", attrs: { role: "button", tabindex: "-1", "data-id": id } }, [
        icon("circle-large-outline", "graph-status"),
        h("span", { cls: "graph-id" }),
        h("span", { cls: "graph-title" }),
        h("span", { cls: "graph-marks", attrs: { "aria-hidden": "true" } }),
      ]);
      Object.assign(card.style, {
        left: `${m.at.x - NODE_WIDTH / 2}px`,
        top: `${m.at.y - NODE_HEIGHT / 2}px`,
        width: `${NODE_WIDTH}px`,
        height: `${NODE_HEIGHT}px`,
      });
      this.bind(card, m);
      this.cards.set(id, card);
      this.surface.appendChild(card);
    }
    this.markEdges();
    this.applyScale();
    const first = this.focused && this.cards.has(this.focused) ? this.focused : model.order[0];
    if (first) {
      this.cards.get(first)!.setAttribute("tabindex", "0");
      this.focused = first;
    }
  }

  private bind(card: HTMLElement, m: NodeModel): void {
    const [status, idEl, title, marks] = Array.from(card.children) as HTMLElement[];
    setIcon(
      status,
      /^[a-z0-9-]+$/.test(m.look.icon) ? m.look.icon : "question",
      `graph-status ${toneClass(m.look.color)}`,
    );
    setText(idEl, m.node.id);
    setText(title, m.node.label || m.look.label);
    const markText = [
      m.node.retries > 0 ? `↻${m.node.retries}` : "",
      m.node.escalated ? "⚑" : "",
      m.cyclic ? "⟲" : "",
      m.critical ? "★" : "",
      m.note ? `☑ ${m.note}` : "",
    ]
      .filter(Boolean)
      .join(" ");
    setText(marks, markText);
    card.setAttribute("aria-label", m.ariaLabel);
    card.title = m.ariaLabel;
    const cls = [
      "graph-node",
      m.node.done ? "is-done" : "",
      m.node.blocked ? "is-blocked" : "",
      m.critical ? "is-critical" : "",
      m.cyclic ? "is-cyclic" : "",
      m.waitsOn ? "is-waiting" : "",
      m.node.escalated ? "is-escalated" : "",
      m.node.id === this.focused ? "selected" : "",
    ];
    card.className = cls.filter(Boolean).join(" ");
  }

  private markEdges(): void {
    const nodes = this.model!.nodes;
    const path = this.model!.view.analysis.criticalPath;
    const onPath = new Set(path.slice(1).map((to, i) => `${path[i]}\u0000${to}`));
    for (const p of this.paths) {
      const a = nodes.get(p.from);
      const b = nodes.get(p.to);
      const cls = [
        "graph-edge",
        a?.cyclic && b?.cyclic ? "is-cyclic" : "",
        onPath.has(`${p.from}\u0000${p.to}`) ? "is-critical" : "",
        (a?.node.blocked || a?.waitsOn) && b?.waitsOn ? "is-waiting" : "",
      ];
      p.el.setAttribute("class", cls.filter(Boolean).join(" "));
    }
  }

  private onKey(e: KeyboardEvent): void {
    if (!this.model || !this.focused) return;
    if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      this.host.reveal(this.focused);
      return;
    }
    const next = moveFrom(this.model, this.focused, e.key);
    if (next !== null) {
      e.preventDefault();
      this.focus(next);
    }
  }
}
