/**
 * `autodev-state report [DIR] [--format md|html|json] [--out FILE]`: the run report of `.autodev/`
 * — the plan, each task's status history from the ledger, evidence and diffs, tournaments,
 * knowledge counts and the verified head with the verdict. A broken ledger still gets its report
 * (the verdict says so) and the command exits 1, as `verify` does.
 */
import * as path from "node:path";
import { ParsedArgs, UsageError, withOptionalDir } from "../../cliArgs";
import { eprintln } from "../../cliOutput";
import { requireLedger } from "./cliPreflight";
import { refuseStateFolderOut, writeReportFile } from "../../reportOut";
import { autodevRoot } from "../../../core/sources/autodev/autodevPaths";
import { collectRunReport } from "../../../core/sources/autodev/report/reportCollect";
import { reportHtmlChunks } from "../../../core/sources/autodev/report/reportHtml";
import { reportJsonChunks } from "../../../core/sources/autodev/report/reportJson";
import { reportMarkdownChunks } from "../../../core/sources/autodev/report/reportMarkdown";
import type { RunReport } from "../../../core/sources/autodev/report/reportTypes";

const FORMATS = ["md", "html", "json"] as const;
type ReportFormat = (typeof FORMATS)[number];

/** The report in one of the formats, in pieces (the CLI writes them as they come). */
export function reportChunks(r: RunReport, format: ReportFormat): Iterable<string> {
  if (format === "html") return reportHtmlChunks(r);
  if (format === "json") return reportJsonChunks(r);
  return reportMarkdownChunks(r);
}

/** Writes the pieces to stdout, waiting whenever the pipe is full (a slow reader never makes us buffer it all). */
async function toStdout(chunks: Iterable<string>): Promise<void> {
  for (const chunk of chunks) {
    if (!process.stdout.write(chunk)) await new Promise((resolve) => process.stdout.once("drain", resolve));
  }
}

function formatOf(args: ParsedArgs): ReportFormat {
  const raw = args.options.get("format");
  if (raw === undefined) {
    const out = args.options.get("out");
    const ext = out === undefined ? "" : path.extname(out).toLowerCase();
    return ext === ".html" || ext === ".htm" ? "html" : ext === ".json" ? "json" : "md";
  }
  if (!(FORMATS as readonly string[]).includes(raw)) {
    throw new UsageError(`--format must be one of ${FORMATS.join(", ")}, got ${JSON.stringify(raw).slice(0, 60)}`);
  }
  return raw as ReportFormat;
}

/** `report [DIR] …`: exit 0 on a verified ledger, 1 on a broken one or an unreadable tournament file, as `tournaments` (the report is written either way). */
export async function cmdReport(args: ParsedArgs): Promise<number> {
  const { dir } = withOptionalDir(args.positionals, []);
  const format = formatOf(args);
  const out = args.options.get("out");
  requireLedger(dir);
  if (out !== undefined) await refuseStateFolderOut(out, [autodevRoot(dir)]);
  const report = await collectRunReport(dir, { hive: args.options.get("hive") });
  const chunks = reportChunks(report, format);
  if (out === undefined) await toStdout(chunks);
  else {
    await writeReportFile(path.resolve(out), chunks);
    const unread = report.tournamentErrors > 0 ? `, ${report.tournamentErrors} tournament read errors` : "";
    eprintln(`report written to ${out} (${report.ok ? "verified" : "ledger BROKEN"}${unread}, ${format})`);
  }
  return report.ok && report.tournamentErrors === 0 ? 0 : 1;
}
