/**
 * AutoDev's evidence requests to the state worker (part of {@link AutodevRequest}): what the
 * editor's evidence documents, diffs and pickers show (evidenceViews.ts), read in the worker so
 * the extension host reads no evidence file.
 */
import type { PatchSource } from "../evidence/evidenceNames";
import {
  evidenceTaskList,
  readBundleView,
  readPatchView,
  readRawEvidence,
  rebuildDiff,
  referencedFileRefusal,
  type BundleView,
  type PatchView,
  type RebuiltDiff,
} from "../evidence/evidenceViews";

/** One evidence request about a folder. */
export type EvidenceRequest =
  | { readonly type: "evidenceDiff"; readonly taskId: string; readonly source: PatchSource }
  | { readonly type: "evidenceBundle"; readonly taskId: string; readonly kind: string }
  | { readonly type: "evidencePatch"; readonly taskId: string }
  | { readonly type: "evidenceRaw"; readonly file: string }
  | { readonly type: "evidenceTasks" }
  | { readonly type: "referencedFile"; readonly rel: string };

/** The result type of each evidence request. */
export interface EvidenceResults {
  /** The diff rebuilt against the workspace, or null when the task has none of that source. */
  evidenceDiff: RebuiltDiff | null;
  evidenceBundle: BundleView;
  evidencePatch: PatchView;
  evidenceRaw: Awaited<ReturnType<typeof readRawEvidence>>;
  evidenceTasks: Awaited<ReturnType<typeof evidenceTaskList>>;
  /** Null when the file may be opened, else why not. */
  referencedFile: string | null;
}

/** The evidence request types, to tell them from AutoDev's other requests. */
const EVIDENCE_TYPES: ReadonlySet<string> = new Set<EvidenceRequest["type"]>([
  "evidenceDiff",
  "evidenceBundle",
  "evidencePatch",
  "evidenceRaw",
  "evidenceTasks",
  "referencedFile",
]);

/** True when `req` is an evidence request. */
export function isEvidenceRequest(req: { readonly type: string }): req is EvidenceRequest {
  return EVIDENCE_TYPES.has(req.type);
}

/** Answers one evidence request about the folder `cwd`. */
export async function handleEvidenceRequest(
  cwd: string,
  req: EvidenceRequest,
): Promise<EvidenceResults[EvidenceRequest["type"]]> {
  switch (req.type) {
    case "evidenceDiff":
      return rebuildDiff(cwd, req.taskId, req.source);
    case "evidenceBundle":
      return readBundleView(cwd, req.taskId, req.kind);
    case "evidencePatch":
      return readPatchView(cwd, req.taskId);
    case "evidenceRaw":
      return readRawEvidence(cwd, req.file);
    case "evidenceTasks":
      return evidenceTaskList(cwd);
    case "referencedFile":
      return referencedFileRefusal(cwd, req.rel);
  }
}
