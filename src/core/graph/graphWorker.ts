/**
 * The graph worker thread (dist/graphWorker.js): the editor's heavy, read-only views of a
 * workspace folder, off the extension host's thread — the plan graphs (read, analysed, laid out;
 * the layout cache lives here between requests) and the run report (the whole ledger streamed).
 * Requests `{id, op: "graph", workspace, settings?}` (each source's settings by kind) or `{id, op: "report", workspace,
 * format}`; answers `{id, ok: true, result}` or `{id, ok: false, error}`. One request at a time.
 */
import { parentPort } from "node:worker_threads";
import { z } from "zod";
import { graphViewsOf } from "./graphViews";
import { collectRunReport } from "../sources/autodev/report/reportCollect";
import { reportToHtml } from "../sources/autodev/report/reportHtml";
import { reportToMarkdown } from "../sources/autodev/report/reportMarkdown";
import { reportJsonChunks } from "../sources/autodev/report/reportJson";

const workspace = z.string().min(1).max(4096);

/** A request to the graph worker. */
export const GraphWorkerRequestSchema = z.discriminatedUnion("op", [
  z.strictObject({
    id: z.number().int(),
    op: z.literal("graph"),
    workspace,
    settings: z.record(z.string().max(64), z.record(z.string().max(200), z.unknown())).optional(),
  }),
  z.strictObject({ id: z.number().int(), op: z.literal("report"), workspace, format: z.enum(["md", "html", "json"]) }),
]);
/** A request to the graph worker. */
export type GraphWorkerRequest = z.infer<typeof GraphWorkerRequestSchema>;

/** The answer to a "report" request: the rendered text and the verdict. */
export interface ReportAnswer {
  readonly text: string;
  readonly ok: boolean;
  readonly verdict: string;
}

async function answer(req: GraphWorkerRequest): Promise<unknown> {
  if (req.op === "graph") return graphViewsOf(req.workspace, undefined, { settings: req.settings });
  const r = await collectRunReport(req.workspace);
  const text =
    req.format === "html"
      ? reportToHtml(r)
      : req.format === "md"
        ? reportToMarkdown(r)
        : [...reportJsonChunks(r)].join("");
  const out: ReportAnswer = { text, ok: r.ok, verdict: r.verdict };
  return out;
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
