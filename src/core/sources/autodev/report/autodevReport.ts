/**
 * AutoDev's `StateSource.report`: the run report of `.autodev/`, rendered whole in one of its
 * formats, for the editor's "Export Run Report" (the CLI streams the same renderers itself).
 */
import type { SourceLocation } from "../../stateSource";
import type { FolderReviewMarks } from "../../reviewMarkSchema";
import { collectRunReport } from "./reportCollect";
import { reportToHtml } from "./reportHtml";
import { reportJsonChunks } from "./reportJson";
import { reportToMarkdown } from "./reportMarkdown";

/** The rendered report with the ledger's verdict. */
export async function autodevReport(
  location: SourceLocation,
  format: "md" | "html" | "json",
  reviewMarks?: FolderReviewMarks,
): Promise<{ text: string; ok: boolean; verdict: string }> {
  const r = await collectRunReport(location.workspace, { reviewMarks });
  const text =
    format === "html" ? reportToHtml(r) : format === "md" ? reportToMarkdown(r) : [...reportJsonChunks(r)].join("");
  return { text, ok: r.ok, verdict: r.verdict };
}
