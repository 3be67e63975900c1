/**
 * The worker's read-only views of a whole workspace folder, for the editor's heavy panels: the plan
 * graphs (read, analysed, laid out; graphViews.ts keeps the layout cache between requests), the run
 * report (the whole ledger streamed) and the language-model tools' answers. Source-neutral: it
 * reaches the sources through the registry. They run in the state worker with the user's settings
 * (its line limit, `autodev.maxLineMB`, and each source's own), as every other request does.
 */
import { graphViewsOf } from "../graph/graphViews";
import { STATE_SOURCES } from "../sources/sourceRegistry";
import { checkAnswer, FolderInputSchema, statusAnswer, TaskInputSchema, taskAnswer } from "../agentTools/agentAnswers";
import type { ReportAnswer, WorkerRequest, WorkerResults } from "./workerProtocol";

/** The requests this module answers. */
export type ViewRequest = Extract<WorkerRequest, { type: "graph" | "report" | "tool" }>;

/** True for a request this module answers. */
export function isViewRequest(req: WorkerRequest): req is ViewRequest {
  return req.type === "graph" || req.type === "report" || req.type === "tool";
}

/** The run report of the first source of the folder that has one. */
async function reportOf(req: Extract<ViewRequest, { type: "report" }>): Promise<ReportAnswer> {
  for (const source of STATE_SOURCES) {
    if (!source.report) continue;
    const location = await source.detect(req.cwd, { settings: req.settings?.[source.kind] });
    if (!location) continue;
    const marks = req.reviewMarks?.[source.kind];
    return { ...(await source.report(location, req.format, marks)), kind: source.kind };
  }
  throw new Error("this folder has no state folder with a run report (AutoDev's .autodev/)");
}

/**
 * A language-model tool's answer (JSON text). The input comes from a model: checked here, and a bad
 * one is answered with what was wrong, as the tool's result (the model reads it and tries again).
 */
async function toolAnswer(req: Extract<ViewRequest, { type: "tool" }>): Promise<string> {
  const invalid = (error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] }) =>
    JSON.stringify({
      error: `invalid input: ${error.issues.map((i) => `${i.path.join(".") || "input"}: ${i.message}`).join("; ")}`,
    });
  if (req.tool === "task") {
    const task = TaskInputSchema.safeParse(req.input ?? {});
    return task.success ? taskAnswer(req.folders, task.data) : invalid(task.error);
  }
  const folder = FolderInputSchema.safeParse(req.input ?? {});
  if (!folder.success) return invalid(folder.error);
  return req.tool === "status" ? statusAnswer(req.folders, folder.data) : checkAnswer(req.folders, folder.data);
}

/** Answers one view request. */
export async function handleViewRequest(req: ViewRequest): Promise<WorkerResults[ViewRequest["type"]]> {
  if (req.type === "graph") return graphViewsOf(req.cwd, undefined, { settings: req.settings });
  if (req.type === "report") return reportOf(req);
  return toolAnswer(req);
}
