/**
 * The strict zod schemas of every timeline webview → host message (protocolTimeline.ts holds the
 * types). Loaded by the host on the first message, never while it starts: zod and these schemas
 * cost the extension host's activation several milliseconds to build.
 */
import * as z from "zod";

const rowId = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER);
const requestId = z
  .number()
  .int()
  .min(0)
  .max(2 ** 31);
const sourceKey = z.string().min(1).max(4096);
const shortText = z.string().max(200);

/** Schema of {@link TimelineFilter}. */
export const TimelineFilterSchema = z.strictObject({
  actions: z.array(z.string().max(64)).max(32).readonly(),
  taskId: shortText,
  actor: shortText,
  status: z.string().max(64),
  text: shortText,
  changesOnly: z.boolean(),
});

/** Schema of {@link TimelineQuery}. */
export const TimelineQuerySchema = z.strictObject({
  filter: TimelineFilterSchema,
  foldSnapshots: z.boolean(),
  timeZone: z
    .string()
    .max(64)
    .regex(/^[A-Za-z0-9_+\-/]*$/),
});

/** Schema of every webview → host message (strict: unknown keys are rejected). */
export const WebviewMessageSchema = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("ready"), sourceKey: sourceKey.nullable() }),
  z.strictObject({
    type: z.literal("query"),
    requestId,
    sourceKey,
    query: TimelineQuerySchema,
    offset: z.number().int().min(0).max(1e9),
    limit: z.number().int().min(0).max(500),
    anchorRowId: rowId.nullable(),
    locateRowId: rowId.nullable(),
    facets: z.boolean(),
  }),
  z.strictObject({ type: z.literal("details"), requestId, sourceKey, rowId }),
  z.strictObject({ type: z.literal("setSource"), sourceKey }),
  /** Copy a value of a row by the name its source gives it (a hash): the host looks it up in the row's reference. */
  z.strictObject({
    type: z.literal("copy"),
    sourceKey,
    rowId,
    value: z
      .string()
      .max(64)
      .regex(/^[A-Za-z][A-Za-z0-9_]*$/),
  }),
  z.strictObject({ type: z.literal("openLine"), sourceKey, rowId }),
  /** Show the state as of a row in the tree (time travel). */
  z.strictObject({ type: z.literal("travel"), sourceKey, rowId }),
  z.strictObject({ type: z.literal("backToLive"), sourceKey }),
  z.strictObject({ type: z.literal("revealTask"), sourceKey, taskId: z.string().min(1).max(200), focus: z.boolean() }),
  z.strictObject({
    type: z.literal("rendered"),
    /** The source whose rows these are (null: none chosen). */
    sourceKey: sourceKey.nullable(),
    reason: z.enum(["open", "update"]),
    rows: z.number().int().min(0).max(1e6),
    total: z.number().int().min(0).max(1e9),
    matched: z.number().int().min(0).max(1e9),
    firstRowId: rowId.nullable(),
    ms: z.number().min(0).max(1e7),
  }),
]);

/** Validates a message from the webview; returns null (and why) for anything else. */
export function parseWebviewMessage(
  raw: unknown,
): { ok: true; message: z.output<typeof WebviewMessageSchema> } | { ok: false; error: string } {
  const res = WebviewMessageSchema.safeParse(raw);
  if (res.success) return { ok: true, message: res.data };
  return {
    ok: false,
    error: res.error.issues
      .map((i) => `${i.path.join(".") || "(message)"}: ${i.message}`)
      .join("; ")
      .slice(0, 500),
  };
}
