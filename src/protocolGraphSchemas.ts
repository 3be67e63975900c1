/**
 * The strict zod schemas of every plan-graph webview → host message (protocolGraph.ts holds the
 * types). Loaded by the host on the first message, never while it starts: zod and its schemas
 * cost the extension host's activation several milliseconds to build.
 */
import * as z from "zod";

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
