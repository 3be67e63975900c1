/**
 * Human views of evidence bundles: one-line summaries for tree items and the
 * CLI ("review APPROVED with 2 issues", "tests 41/42 passed, 87.5% coverage",
 * "impl tournament won by AB after 3 passes, converged"), the evidence a task's
 * status implies, and readable Markdown documents of each bundle. Everything
 * taken from the files is escaped (or fenced), so data never becomes markup.
 */
import { Evidence, TournamentEvidence } from "./evidenceSchemas";
import { describePaths, PatchFile, patchStats } from "./patchModel";
import { DEFAULT_EXPECTATIONS, EvidenceExpectations, requiredEvidenceKinds } from "./requiredEvidence";
import type { TournamentRecord } from "./tournamentStore";
import { TournamentPass, describePass, formatScores } from "./tournamentPasses";
import { escapeMarkdown, markdownFence } from "../../../text/markdownText";

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

function fmtPct(x: number): string {
  return `${Math.round(x * 10) / 10}%`;
}

/** A one-line summary of a bundle. */
export function summarizeEvidence(e: Evidence): string {
  switch (e.kind) {
    case "developer":
      return `developer ${e.success ? "succeeded" : "failed"}: ${plural(e.files_changed.length, "file")} changed${e.duration_s ? ` in ${Math.round(e.duration_s * 10) / 10}s` : ""}${e.diff ? ", with diff" : ""}`;
    case "review":
      return `review ${e.verdict} with ${plural(e.issues.length, "issue")}`;
    case "critic":
      return `critic ${e.verdict} with ${plural(e.issues.length, "issue")}`;
    case "test": {
      const total = Number(e.total);
      const passed = Number(e.passed);
      const cov = e.coverage_pct === null || e.coverage_pct === undefined ? "" : `, ${fmtPct(e.coverage_pct)} coverage`;
      return `tests ${passed}/${total} passed${Number(e.failed) ? `, ${e.failed} failed` : ""}${cov}`;
    }
    case "explore":
      return `explore: ${plural(e.files_referenced.length, "file")} referenced`;
    case "domain_expert":
      return `domain expert${e.topic ? ` on ${e.topic}` : ""} (${e.confidence} confidence)`;
    case "tournament":
      return `${e.phase} tournament won by ${e.winner} after ${Number(e.passes)} pass${Number(e.passes) === 1 ? "" : "es"}, ${e.converged ? "converged" : "not converged"}`;
    default:
      return `unknown evidence kind ${(e as { kind: string }).kind}`;
  }
}

/** True when the bundle reports a failure or a rejection (for red icons). */
export function evidenceFailed(e: Evidence): boolean {
  switch (e.kind) {
    case "developer":
      return !e.success;
    case "review":
    case "critic":
      return e.verdict === "REJECTED";
    case "test":
      return Number(e.failed) > 0;
    default:
      return false;
  }
}

/** The evidence kinds a task in `status` should have but lacks (`have` = kinds with a valid bundle). */
export function missingEvidence(
  status: string,
  have: ReadonlySet<string>,
  expect: EvidenceExpectations = DEFAULT_EXPECTATIONS,
): string[] {
  return requiredEvidenceKinds(status, expect).filter((k) => !have.has(k));
}

/** A value in a line of the view (a heading, a list item): one line, not cut. */
const LINE = { max: Infinity, oneLine: true } as const;
/** A multi-line value (issues, findings, errors): lines kept as hard breaks, not cut. */
const WHOLE = { max: Infinity } as const;

/** One table cell: escaped, on one line. */
function cell(s: string): string {
  return escapeMarkdown(s, { ...LINE, lineStart: false }) || " ";
}

function table(head: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  return (
    [
      `| ${head.map(cell).join(" | ")} |`,
      `|${head.map(() => " --- |").join("")}`,
      ...rows.map((r) => `| ${r.map(cell).join(" | ")} |`),
    ].join("\n") + "\n"
  );
}

const VERDICT_MARK: Record<string, string> = {
  APPROVED: "✅",
  NEEDS_CHANGES: "⚠️",
  NEEDS_REVISION: "⚠️",
  REJECTED: "❌",
};
const TITLES: Record<string, string> = {
  developer: "Developer",
  review: "Review",
  test: "Tests",
  explore: "Exploration",
  domain_expert: "Domain expert",
  critic: "Critic",
  tournament: "Tournament",
};

/** Context for {@link evidenceMarkdown}: where the bundle is and what else is known. */
export interface EvidenceMarkdownContext {
  readonly file: string;
  /** Files of the bundle's diff (developer `diff`, tournament `final_diff`), when it has one. */
  readonly diffFiles?: readonly PatchFile[] | null;
  /** `.autodev/tournaments/{id}/`, for a tournament bundle. */
  readonly tournament?: TournamentRecord | null;
}

/** Longest output shown inside a readable view (the whole text opens as its own document). */
const MAX_OUTPUT_IN_VIEW = 100_000;

function outputSection(text: string): string {
  if (!text) return "";
  const cut = text.length > MAX_OUTPUT_IN_VIEW;
  return `\n## Output\n\n${markdownFence(cut ? text.slice(0, MAX_OUTPUT_IN_VIEW) : text, "text")}${cut ? `\n_…${text.length - MAX_OUTPUT_IN_VIEW} more characters: open the output to see all of it._\n` : ""}`;
}

function issuesSection(issues: readonly string[]): string {
  if (issues.length === 0) return "\n## Issues\n\nNone.\n";
  return `\n## Issues (${issues.length})\n\n${issues.map((i, n) => `${n + 1}. ${escapeMarkdown(i, WHOLE).replace(/ {2}\n/g, "  \n   ")}`).join("\n")}\n`;
}

function diffSection(files: readonly PatchFile[] | null | undefined, title: string): string {
  if (!files || files.length === 0) return "";
  return `\n## ${title} (${escapeMarkdown(patchStats(files), LINE)})\n\n${table(
    ["File", "Change", "Lines"],
    files.map((f) => [
      describePaths(f),
      f.change + (f.binary ? " (binary)" : ""),
      `+${f.added} −${f.removed}${f.noNewlineAtEnd ? " (no newline at end)" : ""}`,
    ]),
  )}`;
}

function passRows(passes: readonly TournamentPass[]): string[][] {
  return passes.map((p) => [
    p.n === null ? "?" : String(p.n),
    p.winner ?? (p.known ? "—" : "unrecognised"),
    formatScores(p.scores) || "—",
    p.judges.length ? p.judges.map((j) => `${j.name}: ${formatScores(j.scores)}`).join("; ") : "—",
    p.converged ? "yes" : p.converged === false ? "no" : "—",
  ]);
}

function rawEntries(passes: readonly TournamentPass[], heading: string): string {
  const unknown = passes.filter((p) => !p.known);
  return unknown.length
    ? `\n### ${heading}: entries shown as written\n\n${unknown.map((p) => markdownFence(p.rawJson, "json")).join("\n")}`
    : "";
}

function tournamentSections(e: TournamentEvidence, rec: TournamentRecord | null | undefined): string {
  let md = `\n## Passes (from the evidence)\n\n`;
  const fromEvidence = e.history.map((h, i) => describePass(h, i + 1));
  md += fromEvidence.length
    ? table(["Pass", "Winner", "Scores", "Judges", "Converged"], passRows(fromEvidence)) +
      rawEntries(fromEvidence, "Evidence history")
    : "No history recorded in the bundle.\n";
  md += `\n## Tournament folder .autodev/tournaments/${escapeMarkdown(e.tournament_id, LINE)}/\n\n`;
  if (!rec || !rec.exists) return md + (rec?.error ? `⚠️ ${escapeMarkdown(rec.error, WHOLE)}\n` : "Not present.\n");
  if (rec.error) md += `⚠️ ${escapeMarkdown(rec.error, WHOLE)}\n\n`;
  if (rec.history === null) md += "No `history.json`.\n";
  else if (!rec.history.ok) {
    md += `⚠️ history.json: ${escapeMarkdown(rec.history.error, WHOLE)}\n\n${rec.history.rawJson ? markdownFence(rec.history.rawJson, "json") : ""}`;
  } else {
    md += `### history.json\n\n${rec.history.value.length ? table(["Pass", "Winner", "Scores", "Judges", "Converged"], passRows(rec.history.value)) : "Empty.\n"}${rawEntries(rec.history.value, "history.json")}`;
  }
  if (rec.results.length) {
    md += `\n### Pass results (judge scores)\n\n`;
    for (const r of rec.results) {
      md += `#### ${escapeMarkdown(r.dir, LINE)}/result.json\n\n`;
      if (!r.file.ok) md += `⚠️ ${escapeMarkdown(r.file.error, WHOLE)}\n\n`;
      else if (!r.file.value.known) {
        md += `Unrecognised shape; as written:\n\n${markdownFence(r.file.rawJson, "json")}\n`;
      } else {
        const p = r.file.value;
        md += `Winner: **${escapeMarkdown(p.winner ?? "—", LINE)}**${p.scores.length ? ` · scores ${escapeMarkdown(formatScores(p.scores), LINE)}` : ""}\n\n`;
        if (p.judges.length) {
          md +=
            table(
              ["Judge", "Scores"],
              p.judges.map((j) => [j.name, formatScores(j.scores) || "—"]),
            ) + "\n";
        }
        if (p.notes.length) md += p.notes.map((n) => `- ${escapeMarkdown(n, WHOLE)}`).join("\n") + "\n\n";
      }
    }
  }
  return md;
}

/** A readable Markdown document of one bundle. */
export function evidenceMarkdown(e: Evidence, ctx: EvidenceMarkdownContext): string {
  let md = `# ${TITLES[e.kind] ?? escapeMarkdown(e.kind, LINE)} — task ${escapeMarkdown(e.task_id, LINE)}\n\n`;
  md += `${escapeMarkdown(summarizeEvidence(e), LINE)}\n\n_${escapeMarkdown(`.autodev/evidence/${ctx.file}`, LINE)}_\n`;
  switch (e.kind) {
    case "review":
    case "critic":
      md += `\n**Verdict:** ${VERDICT_MARK[e.verdict] ?? ""} ${escapeMarkdown(e.verdict, LINE)}\n${issuesSection(e.issues)}${outputSection(e.output_text)}`;
      break;
    case "test": {
      const [p, f, t] = [Number(e.passed), Number(e.failed), Number(e.total)];
      md += `\n${f > 0 ? "❌" : "✅"} ${escapeMarkdown(`${p} passed, ${f} failed, ${t} total`, LINE)}\n\n`;
      md += table(
        ["Passed", "Failed", "Total", "Coverage"],
        [[String(p), String(f), String(t), e.coverage_pct === null ? "—" : fmtPct(e.coverage_pct)]],
      );
      if (p + f !== t) md += `\n⚠️ passed + failed (${p + f}) is not the total (${t}).\n`;
      md += outputSection(e.output_text);
      break;
    }
    case "explore":
      md += `\n## Findings\n\n${escapeMarkdown(e.findings, WHOLE) || "None."}\n\n## Files referenced (${e.files_referenced.length})\n\n${e.files_referenced.map((f) => `- ${escapeMarkdown(f, LINE)}`).join("\n") || "None."}\n`;
      break;
    case "domain_expert":
      md += `\n**Topic:** ${escapeMarkdown(e.topic || "—", LINE)}  \n**Confidence:** ${escapeMarkdown(e.confidence, LINE)}\n\n## Findings\n\n${escapeMarkdown(e.findings, WHOLE) || "None."}\n`;
      break;
    case "developer":
      md += `\n**Result:** ${e.success ? "✅ succeeded" : "❌ failed"}${e.duration_s ? ` in ${escapeMarkdown(String(Math.round(e.duration_s * 100) / 100), LINE)} s` : ""}\n\n## Files changed (${e.files_changed.length})\n\n${e.files_changed.map((f) => `- ${escapeMarkdown(f, LINE)}`).join("\n") || "None."}\n`;
      md += e.diff ? diffSection(ctx.diffFiles, "Diff") : "\nNo diff recorded.\n";
      md += outputSection(e.output_text);
      break;
    case "tournament":
      md += `\n${table(["Phase", "Passes", "Winner", "Converged"], [[e.phase, String(Number(e.passes)), e.winner, e.converged ? "yes" : "no"]])}`;
      md += tournamentSections(e, ctx.tournament);
      md += e.final_diff ? diffSection(ctx.diffFiles, "Final diff") : "";
      break;
  }
  return md;
}

/** A readable Markdown document of a diff: its files, then the diff itself (fenced). */
export function patchMarkdown(
  taskId: string,
  label: string,
  files: readonly PatchFile[] | null,
  text: string,
  error: string | null,
): string {
  let md = `# Diff — task ${escapeMarkdown(taskId, LINE)}\n\n_${escapeMarkdown(label, LINE)}_\n`;
  if (error) md += `\n⚠️ ${escapeMarkdown(error, WHOLE)}\n`;
  md += diffSection(files, "Files");
  return `${md}\n## Patch\n\n${markdownFence(text, "diff")}`;
}
