/**
 * The graph worker thread (dist/graphWorker.js): the editor's heavy, read-only views of a
 * workspace folder, off the extension host's thread — the plan graphs (read, analysed, laid out;
 * the layout cache lives here between requests), the run report (the whole ledger streamed) and
 * the language-model tools' answers. Source-neutral: it reaches sources through the registry.
 * Requests `{id, op: "graph", workspace, settings?}` (each source's settings by kind),
 * `{id, op: "report", workspace, format}` or `{id, op: "tool", tool, folders, input}`; answers
 * `{id, ok: true, result}` or `{id, ok: false, error}`. One request at a time, in order.
 */
import { parentPort } from "node:worker_threads";
import { z } from "zod";
import { graphViewsOf } from "./graphViews";
import { STATE_SOURCES } from "../sources/sourceRegistry";
import { FolderReviewMarksSchema } from "../sources/reviewMarkSchema";
import { checkAnswer, FolderInputSchema, statusAnswer, TaskInputSchema, taskAnswer } from "../agentTools/agentAnswers";

const workspace = z.string().min(1).max(4096);

/** A request to the graph worker. */
export const GraphWorkerRequestSchema = z.discriminatedUnion("op", [
  z.strictObject({
    id: z.number().int(),
    op: z.literal("graph"),
    workspace,
    settings: z.record(z.string().max(64), z.record(z.string().max(200), z.unknown())).optional(),
  }),
  z.strictObject({
    id: z.number().int(),
    op: z.literal("report"),
    workspace,
    format: z.enum(["md", "html", "json"]),
    // The editor's reviewed marks, by source kind.
    reviewMarks: z.record(z.string().max(64), FolderReviewMarksSchema).optional(),
  }),
  z.strictObject({
    id: z.number().int(),
    op: z.literal("tool"),
    tool: z.enum(["status", "check", "task"]),
    folders: z.array(z.strictObject({ name: z.string().max(500), path: workspace })).max(100),
    input: z.unknown(),
  }),
]);
/** A request to the graph worker. */
export type GraphWorkerRequest = z.infer<typeof GraphWorkerRequestSchema>;

/** The answer to a "report" request: the rendered text and the verdict. */
export interface ReportAnswer {
  readonly text: string;
  readonly ok: boolean;
  readonly verdict: string;
  /** The source whose report it is. */
  readonly kind: string;
}

async function answer(req: GraphWorkerRequest): Promise<unknown> {
  if (req.op === "graph") return graphViewsOf(req.workspace, undefined, { settings: req.settings });
  if (req.op === "tool") {
    if (req.tool === "task") return taskAnswer(req.folders, TaskInputSchema.parse(req.input));
    const input = FolderInputSchema.parse(req.input);
    return req.tool === "status" ? statusAnswer(req.folders, input) : checkAnswer(req.folders, input);
  }
  for (const source of STATE_SOURCES) {
    if (!source.report) continue;
    const location = await source.detect(req.workspace);
    if (!location) continue;
    const marks = req.reviewMarks?.[source.kind];
    const out: ReportAnswer = { ...(await source.report(location, req.format, marks)), kind: source.kind };
    return out;
  }
  throw new Error("this folder has no state folder with a run report (AutoDev's .autodev/)");
}

let queue: Promise<void> = Promise.resolve();

parentPort?.on("message", (raw: unknown) => {
  const parsed = GraphWorkerRequestSchema.safeParse(raw);
  if (!parsed.success) {
    const id = typeof (raw as { id?: unknown })?.id === "number" ? (raw as { id: number }).id : -1;
    parentPort!.postMessage({ id, ok: false, error: `bad request: ${parsed.error.issues[0]?.message ?? "invalid"}` });
    return;
  }
  const req = parsed.data;
  queue = queue.then(async () => {
    try {
      parentPort!.postMessage({ id: req.id, ok: true, result: await answer(req) });
    } catch (e) {
      parentPort!.postMessage({ id: req.id, ok: false, error: e instanceof Error ? e.message : String(e) });
    }
  });
});
