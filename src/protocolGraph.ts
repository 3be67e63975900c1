/**
 * Every message between the plan-graph webview and the extension host, as discriminated unions
 * on `type`. The data types come from the core (the webview imports this file for TYPES only);
 * the host validates whatever the webview sends with the strict zod schemas below before acting
 * on it. The webview sends references (a source kind and a task id), never data the host would
 * trust: the host looks the tree node up in the graph it sent.
 */
import * as z from "zod";

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

const kind = z.string().min(1).max(64);
const taskId = z.string().min(1).max(1000);

/** Webview → host: the page is ready for data. */
export const GraphReadySchema = z.strictObject({ type: z.literal("ready") });
/** Webview → host: reveal this task in the Plan tree. */
export const GraphRevealSchema = z.strictObject({ type: z.literal("reveal"), kind, taskId });
/** Webview → host: read the state again. */
export const GraphRefreshSchema = z.strictObject({ type: z.literal("refresh") });
/** Webview → host: show another workspace folder (one the host listed). */
export const GraphFolderSchema = z.strictObject({ type: z.literal("folder"), uri: z.string().min(1).max(4096) });

/** Webview → host: what the page drew (task cards, dependency paths) for a source. */
export const GraphRenderedSchema = z.strictObject({
  type: z.literal("rendered"),
  kind,
  nodes: z.number().int().min(0).max(1_000_000),
  edges: z.number().int().min(0).max(10_000_000),
});

/** Everything the webview may send, validated by the host. */
export const GraphToHostSchema = z.discriminatedUnion("type", [
  GraphReadySchema,
  GraphRenderedSchema,
  GraphRevealSchema,
  GraphRefreshSchema,
  GraphFolderSchema,
]);
/** Everything the webview may send. */
export type GraphToHost = z.infer<typeof GraphToHostSchema>;
