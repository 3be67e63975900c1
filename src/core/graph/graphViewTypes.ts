/**
 * The data types of a drawn graph — layout positions, status looks, one source's view — with no
 * runtime code and no Node import, so the webview (which may import only types) can use them.
 */
import type { GraphAnalysis } from "./graphAnalysis";
import type { PlanGraph } from "./planGraph";

/** A laid-out task: its centre. */
export interface PlacedNode {
  readonly id: string;
  readonly x: number;
  readonly y: number;
}

/** A laid-out dependency: the polyline from prerequisite to dependant. */
export interface PlacedEdge {
  readonly from: string;
  readonly to: string;
  readonly points: readonly { readonly x: number; readonly y: number }[];
}

/** A laid-out phase: the box around its tasks (top-left corner and size). */
export interface PlacedGroup {
  readonly id: string;
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/** Positions of everything, in a box of `width` × `height` starting at (0, 0). */
export interface GraphLayout {
  readonly width: number;
  readonly height: number;
  readonly nodes: readonly PlacedNode[];
  readonly edges: readonly PlacedEdge[];
  readonly groups: readonly PlacedGroup[];
}

/** The icon (codicon id), theme colour id and label of a node's status. */
export interface StatusLook {
  readonly icon: string;
  readonly color: string | null;
  readonly label: string;
}

/** One source's graph, analysed and laid out. */
export interface GraphView {
  readonly kind: string;
  /** "AutoDev", "agloop". */
  readonly displayName: string;
  readonly graph: PlanGraph;
  readonly analysis: GraphAnalysis;
  readonly layout: GraphLayout;
  /** Identifies the structure the layout was made for (same key = same positions). */
  readonly structureKey: string;
  /** The icon, colour and word of each status that occurs. */
  readonly looks: Readonly<Record<string, StatusLook>>;
}

/** The graph views of a workspace folder, or the error a source's reader raised. */
export interface GraphViewsResult {
  readonly views: readonly GraphView[];
  /** Sources whose graph could not be read, with why (a view is still given for the others). */
  readonly errors: readonly { readonly kind: string; readonly message: string }[];
}
