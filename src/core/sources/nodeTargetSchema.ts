/**
 * The strict zod schema of a `NodeTarget` (stateSource.ts): what a tree node's click does,
 * as a command argument the editor validates (command arguments can come from anywhere). The
 * extension host loads it on the first command, never while it starts: zod and its schemas cost
 * the host's activation several milliseconds to build.
 */
import * as z from "zod";

const text = z.string().max(10_000_000);
const relFile = z.string().min(1).max(4096);
const DiffSideSchema = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("file"), file: relFile }),
  z.strictObject({ kind: z.literal("text"), name: z.string().min(1).max(200), text }),
]);
/** Schema of {@link NodeTarget}. */
export const NodeTargetSchema = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("file"), file: relFile, line: z.number().int().min(1).optional() }),
  z.strictObject({ kind: z.literal("reveal"), nodeId: z.string().min(1).max(4096) }),
  z.strictObject({ kind: z.literal("diff"), title: z.string().max(500), left: DiffSideSchema, right: DiffSideSchema }),
  z.strictObject({ kind: z.literal("text"), title: z.string().max(500), language: z.string().max(64), text }),
  z.strictObject({
    kind: z.literal("action"),
    action: z.string().min(1).max(200),
    args: z.array(z.string().max(4096)).max(32),
  }),
  z.strictObject({ kind: z.literal("choose"), action: z.string().min(1).max(200) }),
]);
