/**
 * Every message between the plan-graph webview and the extension host, as discriminated unions
 * on `type`. The data types come from the core (the webview imports this file for TYPES only);
 * the host validates whatever the webview sends with the strict zod schemas of
 * protocolGraphSchemas.ts (loaded on the first message) before acting on it. The webview sends references (a source kind and a task id), never data the host would
 * trust: the host looks the tree node up in the graph it sent.
 */
import type * as z from "zod";
import type * as GraphSchemas from "./protocolGraphSchemas";

import type { GraphNode, GraphEdge, GraphGroup, PlanGraph } from "./core/graph/planGraph";
import type { BlockedChain, GraphAnalysis } from "./core/graph/graphAnalysis";
import type {
  GraphLayout,
  GraphView,
  PlacedEdge,
  PlacedGroup,
  PlacedNode,
  StatusLook,
} from "./core/graph/graphViewTypes";

/** The graph data types, for the webview. */
export type {
  GraphView,
  GraphNode,
  GraphEdge,
  GraphGroup,
  PlanGraph,
  BlockedChain,
  GraphAnalysis,
  GraphLayout,
  PlacedEdge,
  PlacedGroup,
  PlacedNode,
  StatusLook,
};

/** A workspace folder the graph can show. */
export interface GraphFolder {
  readonly uri: string;
  readonly name: string;
}

/** Host → webview: the graphs of one folder (sent on open and on every change of its state). */
export interface GraphsMessage {
  readonly type: "graphs";
  readonly folder: GraphFolder;
  readonly folders: readonly GraphFolder[];
  readonly views: readonly GraphView[];
  readonly errors: readonly { readonly kind: string; readonly message: string }[];
  /** Milliseconds the worker took (shown in the status line). */
  readonly tookMs: number;
  /** What the editor knows of tasks beyond the files (AutoDev: "2/3 reviewed"), by source kind, then task id. */
  readonly taskNotes: Readonly<Record<string, Readonly<Record<string, string>>>>;
}

/** Host → webview: move the focus to a task (from the tree's "Show in Graph"). */
export interface SelectMessage {
  readonly type: "select";
  readonly kind: string;
  readonly taskId: string;
}

/** Host → webview: the graph could not be read. */
export interface GraphErrorMessage {
  readonly type: "error";
  readonly message: string;
}

/** Host → webview: a read is under way (the previous picture stays). */
export interface LoadingMessage {
  readonly type: "loading";
}

/** Everything the host sends. */
export type HostToGraph = GraphsMessage | SelectMessage | GraphErrorMessage | LoadingMessage;

/** Everything the webview may send. */
export type GraphToHost = z.infer<typeof GraphSchemas.GraphToHostSchema>;
