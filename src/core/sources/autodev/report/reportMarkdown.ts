/**
 * The run report as Markdown (`report --format md`, the default): for a pull request, an issue or
 * a wiki. Every value from the state files goes through {@link mdCell} — one line, controls shown
 * as escapes, markup and would-be autolinks escaped — so a title cannot become a heading, a link
 * (bare URLs included), an image or raw HTML, nor break out of a table cell.
 */
import { escapeMarkdown } from "../../../text/markdownText";
import type { ReportTask, ReportTournament, RunReport, StatusChange } from "./reportTypes";
import { retryMarks, statusWord } from "../../../timeline/timelineWords";
import { LEDGER_WORDS } from "../timeline/ledgerTimelineWords";

/**
 * A value from a file for one line of Markdown (a table cell, a list item, a heading): one line,
 * cut at `max`, escaped by the one escaper ({@link escapeMarkdown}: markup, autolinks, hidden
 * characters, and bare domains: a report is read by renderers that link them); "—" when empty.
 */
function mdCell(value: unknown, max = 500): string {
  return escapeMarkdown(String(value), { max, oneLine: true, bareDomains: true }) || "—";
}

/** The note column of a status change: retry, escalation (the timeline's words), chain state. */
export function historyNote(h: StatusChange): string {
  return [...retryMarks(h.retry, h.escalated), h.chain !== "ok" ? `not verified (${h.chain})` : ""]
    .filter(Boolean)
    .join(", ");
}

/** The change column of a status change: "in progress → coded", the statuses as the timeline names them. */
export function statusMove(h: StatusChange): string {
  return `${h.from === null ? "?" : statusWord(LEDGER_WORDS, h.from)} → ${statusWord(LEDGER_WORDS, h.to)}`;
}

/** The Converged column of a tournament: yes, no, unknown, or unreadable (with its error count); "(unfinished)" after. */
export function tournamentConverged(t: ReportTournament): string {
  const converged =
    t.errors.length > 0
      ? `unreadable (${t.errors.length} error${t.errors.length === 1 ? "" : "s"}, see Notes)`
      : t.converged === null
        ? "unknown"
        : t.converged
          ? "yes"
          : "no";
  return t.finished ? converged : `${converged} (unfinished)`;
}

/** "2 retries, escalated, blocked: reason" for a task, or "". */
export function taskFlags(t: ReportTask): string[] {
  return [
    t.retryCount > 0 ? `${t.retryCount} retr${t.retryCount === 1 ? "y" : "ies"}` : "",
    t.escalated ? "escalated" : "",
    t.blockedReason ? `blocked: ${t.blockedReason}` : "",
  ].filter(Boolean);
}

/** How many of a task's diffs are marked reviewed ("2/5 reviewed"), or "" when no mark is known. */
export function reviewedCount(t: ReportTask): string {
  const known = t.diffs.filter((d) => d.reviewed !== undefined);
  return known.length === 0 ? "" : `${known.filter((d) => d.reviewed).length}/${t.diffs.length} reviewed`;
}

function taskSection(t: ReportTask): string[] {
  const out = [`### ${mdCell(t.id)} ${mdCell(t.title)}`, ""];
  out.push(`- Status: **${mdCell(t.status)}**`);
  for (const f of taskFlags(t)) out.push(`- ${mdCell(f)}`);
  if (t.dependsOn.length > 0) out.push(`- Depends on: ${t.dependsOn.map((d) => mdCell(d)).join(", ")}`);
  if (t.missing.length > 0) out.push(`- Missing evidence: ${t.missing.map((m) => mdCell(m)).join(", ")}`);
  out.push("");
  if (t.history.length > 0) {
    out.push("| Seq | Time | Change | Note |", "| ---: | --- | --- | --- |");
    if (t.historyOmitted > 0) out.push(`| … | | ${t.historyOmitted} earlier changes not listed | |`);
    for (const h of t.history) {
      out.push(`| ${h.seq} | ${mdCell(h.timestamp)} | ${mdCell(statusMove(h))} | ${mdCell(historyNote(h) || " ")} |`);
    }
    out.push("");
  } else out.push("No status change in the ledger.", "");
  for (const e of t.evidence) {
    out.push(`- Evidence ${mdCell(e.kind)} (${mdCell(e.file)}): ${e.ok ? "" : "invalid: "}${mdCell(e.summary)}`);
  }
  const reviewed = reviewedCount(t);
  for (const d of t.diffs) {
    const mark = d.reviewed === undefined ? "" : d.reviewed ? " — reviewed" : " — not reviewed";
    out.push(`- Diff ${mdCell(d.source)}: ${d.ok ? "" : "does not parse: "}${mdCell(d.summary)}${mark}`);
  }
  if (reviewed) out.push(`- Diffs reviewed: ${reviewed}`);
  if (t.evidence.length + t.diffs.length > 0) out.push("");
  return out;
}

/** The whole report as Markdown. */
export function reportToMarkdown(r: RunReport): string {
  return [...reportMarkdownChunks(r)].join("");
}

/** The report as Markdown in pieces (one per task), so a long report is written without holding it whole. */
export function* reportMarkdownChunks(r: RunReport): Generator<string> {
  const out: string[] = [`# Run report: ${mdCell(r.title ?? "no plan")}`, ""];
  out.push(
    `Workspace ${mdCell(r.workspace)} · plan ${mdCell(r.planId ?? "—")} · spec ${mdCell(r.specHash ?? "—")} · plan updated ${mdCell(r.updatedAt ?? "—")} · report made ${mdCell(r.generatedAt)}`,
    "",
    "## Verdict",
    "",
    `**${r.ok ? "Verified" : "BROKEN"}** — ${mdCell(r.verdict, 2000)}`,
    "",
  );
  if (r.head) {
    out.push(
      `Head: seq **${r.head.seq}**, self_hash \`${mdCell(r.head.selfHash)}\`. Anchor it in CI with \`autodev-state verify --expect-head ${mdCell(`${r.head.seq}:${r.head.selfHash}`)}\`.`,
      "",
    );
  }
  for (const f of r.findings) {
    out.push(
      `- ${mdCell(f.kind)}${f.line !== null ? ` (line ${f.line})` : ""}${f.seq !== null ? ` seq ${f.seq}` : ""}: ${mdCell(f.message)}`,
    );
  }
  if (r.findings.length > 0) out.push("");
  if (!r.planVerified && r.phases.length > 0) out.push("> The plan below is not verified.", "");
  out.push("## Plan", "");
  if (r.phases.length === 0) out.push("No plan.", "");
  for (const p of r.phases) {
    out.push(
      `### Phase ${mdCell(p.id)}: ${mdCell(p.title)}`,
      "",
      "| Task | Status | Retries | Escalated | Depends on | Evidence |",
      "| --- | --- | ---: | --- | --- | ---: |",
    );
    for (const t of p.tasks) {
      out.push(
        `| ${mdCell(t.id)} ${mdCell(t.title)} | ${mdCell(t.status)} | ${t.retryCount} | ${t.escalated ? "yes" : ""} | ${t.dependsOn.map((d) => mdCell(d)).join(", ")} | ${t.evidence.length} |`,
      );
    }
    out.push("");
  }
  out.push("## Tasks", "");
  yield out.join("\n") + "\n";
  out.length = 0;
  for (const p of r.phases) for (const t of p.tasks) yield taskSection(t).join("\n") + "\n";
  out.push("## Tournaments", "");
  if (r.tournaments.length === 0) out.push("None.", "");
  else {
    out.push("| Tournament | Phase | Task | Passes | Winner | Converged |", "| --- | --- | --- | ---: | --- | --- |");
    for (const t of r.tournaments) {
      out.push(
        `| ${mdCell(t.id)} | ${t.phase} | ${mdCell(t.taskId ?? "—")} | ${t.passes} | ${mdCell(t.winner ?? "—")} | ${tournamentConverged(t)} |`,
      );
    }
    out.push("");
  }
  const k = r.knowledge;
  out.push(
    "## Knowledge",
    "",
    `${k.swarm} swarm lessons, ${k.hive} hive lessons, ${k.rejected} rejected, ${k.skipped} unreadable lines.`,
    "",
  );
  const notes = [...r.notes, ...k.errors];
  if (notes.length > 0) {
    out.push("## Notes", "");
    for (const n of notes) out.push(`- ${mdCell(n, 1000)}`);
    out.push("");
  }
  yield out.join("\n");
}
