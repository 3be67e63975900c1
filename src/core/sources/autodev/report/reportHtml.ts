/**
 * The run report as one self-contained HTML file (`report --format html`, "Export Run Report"):
 * no script, no external resource, a Content-Security-Policy that allows only its own inline
 * stylesheet (by hash), every value from the state files HTML-escaped, and a print stylesheet, so
 * it can be mailed, attached to a ticket or printed to PDF as it is.
 */
import { createHash } from "node:crypto";
import { historyNote, reviewedCount, statusMove, taskFlags, tournamentConverged } from "./reportMarkdown";
import type { ReportTask, RunReport } from "./reportTypes";
import { escapeHidden } from "../../../text/untrustedText";

/** Escapes text for HTML element content and quoted attribute values (controls shown as escapes). */
function htmlEscape(value: unknown, max = 2000): string {
  const s = escapeHidden(String(value));
  const cut = s.length > max ? `${s.slice(0, max - 1)}…` : s;
  return cut.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const CSS = `
:root { color-scheme: light dark; --fg: #1f2328; --muted: #59636e; --line: #d1d9e0; --ok: #1a7f37; --bad: #cf222e; --warn: #9a6700; --bg: #ffffff; --band: #f6f8fa; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6edf3; --muted: #9198a1; --line: #3d444d; --ok: #3fb950; --bad: #f85149; --warn: #d29922; --bg: #0d1117; --band: #151b23; } }
body { font: 14px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); max-width: 72rem; margin: 2rem auto; padding: 0 1rem; }
h1 { font-size: 1.6rem; margin: 0 0 .25rem; } h2 { border-bottom: 1px solid var(--line); padding-bottom: .2rem; margin-top: 2rem; }
h3 { margin: 1.2rem 0 .4rem; } .meta, .muted { color: var(--muted); }
table { border-collapse: collapse; width: 100%; margin: .4rem 0 1rem; } th, td { border: 1px solid var(--line); padding: .25rem .5rem; text-align: left; vertical-align: top; }
th { background: var(--band); } td.num { text-align: right; font-variant-numeric: tabular-nums; }
code, .hash { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: .92em; overflow-wrap: anywhere; }
.verdict { border: 2px solid var(--ok); border-radius: 6px; padding: .6rem .9rem; } .verdict.broken { border-color: var(--bad); }
.verdict strong { color: var(--ok); } .verdict.broken strong { color: var(--bad); }
.status { font-weight: 600; white-space: nowrap; } .status.blocked, .failed { color: var(--warn); } .status.complete { color: var(--ok); }
section.task { border-top: 1px solid var(--line); } h2 + section.task { border-top: none; } ul { margin: .2rem 0 .6rem; padding-left: 1.3rem; }
@media print { body { margin: 0; max-width: none; font-size: 11pt; color: #000; background: #fff; } section.task, table { break-inside: avoid; }
  h2 { break-after: avoid; } .verdict { border-color: #000; } a { color: inherit; } }
`;

/** The Content-Security-Policy of the report: nothing but its own stylesheet. */
function reportCsp(): string {
  const hash = createHash("sha256").update(CSS).digest("base64");
  return `default-src 'none'; style-src 'sha256-${hash}'; img-src 'none'; script-src 'none'; form-action 'none'; base-uri 'none'`;
}

/** A status word with a mark that does not rely on colour. */
function statusHtml(status: string): string {
  const mark: Record<string, string> = { complete: "✓", skipped: "⊘", blocked: "■", pending: "○", in_progress: "▷" };
  const m = Object.prototype.hasOwnProperty.call(mark, status) ? mark[status] : "●";
  const cls = /^[a-z_]{1,20}$/.test(status) ? ` ${status}` : "";
  return `<span class="status${cls}">${m} ${htmlEscape(status)}</span>`;
}

function taskHtml(t: ReportTask): string {
  const out = [
    `<section class="task"><h3 id="task-${htmlEscape(t.id, 200)}">${htmlEscape(t.id)} ${htmlEscape(t.title)}</h3><ul>`,
  ];
  out.push(`<li>Status: ${statusHtml(t.status)}</li>`);
  for (const f of taskFlags(t)) out.push(`<li>${htmlEscape(f)}</li>`);
  if (t.dependsOn.length > 0) out.push(`<li>Depends on: ${t.dependsOn.map((d) => htmlEscape(d)).join(", ")}</li>`);
  if (t.missing.length > 0) {
    out.push(`<li class="failed">Missing evidence: ${t.missing.map((m) => htmlEscape(m)).join(", ")}</li>`);
  }
  for (const e of t.evidence) {
    out.push(
      `<li${e.failed ? ' class="failed"' : ""}>Evidence ${htmlEscape(e.kind)} (<code>${htmlEscape(e.file)}</code>): ${e.ok ? "" : "invalid: "}${htmlEscape(e.summary)}</li>`,
    );
  }
  for (const d of t.diffs) {
    const mark = d.reviewed === undefined ? "" : d.reviewed ? " — ☑ reviewed" : " — ☐ not reviewed";
    out.push(`<li>Diff ${htmlEscape(d.source)}: ${d.ok ? "" : "does not parse: "}${htmlEscape(d.summary)}${mark}</li>`);
  }
  const reviewed = reviewedCount(t);
  if (reviewed) out.push(`<li>Diffs reviewed: ${htmlEscape(reviewed)}</li>`);
  out.push("</ul>");
  if (t.history.length === 0) out.push('<p class="muted">No status change in the ledger.</p>');
  else {
    out.push(
      '<table><thead><tr><th scope="col">Seq</th><th scope="col">Time</th><th scope="col">Change</th><th scope="col">Note</th></tr></thead><tbody>',
    );
    if (t.historyOmitted > 0) {
      out.push(
        `<tr><td class="num">…</td><td></td><td>${t.historyOmitted} earlier changes not listed</td><td></td></tr>`,
      );
    }
    for (const h of t.history) {
      out.push(
        `<tr><td class="num">${h.seq}</td><td>${htmlEscape(h.timestamp)}</td><td>${htmlEscape(statusMove(h))}</td><td>${htmlEscape(historyNote(h))}</td></tr>`,
      );
    }
    out.push("</tbody></table>");
  }
  out.push("</section>");
  return out.join("\n");
}

/** The whole report as an HTML document. */
export function reportToHtml(r: RunReport): string {
  return [...reportHtmlChunks(r)].join("");
}

/** The report as HTML in pieces (one per task), so a long report is written without holding it whole. */
export function* reportHtmlChunks(r: RunReport): Generator<string> {
  const title = `Run report: ${r.title ?? "no plan"}`;
  const out = [
    "<!DOCTYPE html>",
    '<html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${reportCsp()}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="referrer" content="no-referrer">',
    `<title>${htmlEscape(title, 300)}</title>`,
    `<style>${CSS}</style></head><body>`,
    `<header><h1>${htmlEscape(title)}</h1><p class="meta">Workspace ${htmlEscape(r.workspace)} · plan <code>${htmlEscape(r.planId ?? "—")}</code> · spec <code>${htmlEscape(r.specHash ?? "—")}</code> · plan updated ${htmlEscape(r.updatedAt ?? "—")} · report made ${htmlEscape(r.generatedAt)}</p></header>`,
    "<main>",
    `<h2>Verdict</h2><div class="verdict${r.ok ? "" : " broken"}" role="status"><p><strong>${r.ok ? "✓ Verified" : "✗ BROKEN"}</strong> — ${htmlEscape(r.verdict)}</p>`,
  ];
  if (r.head) {
    out.push(
      `<p>Head: seq <strong>${r.head.seq}</strong>, self_hash <span class="hash">${htmlEscape(r.head.selfHash)}</span>. Anchor it in CI: <code>autodev-state verify --expect-head ${htmlEscape(`${r.head.seq}:${r.head.selfHash}`)}</code></p>`,
    );
  }
  if (r.findings.length > 0) {
    out.push("<ul>");
    for (const f of r.findings) {
      out.push(
        `<li><code>${htmlEscape(f.kind)}</code>${f.line !== null ? ` (line ${f.line})` : ""}${f.seq !== null ? ` seq ${f.seq}` : ""}: ${htmlEscape(f.message)}</li>`,
      );
    }
    out.push("</ul>");
  }
  out.push("</div>", "<h2>Plan</h2>");
  if (!r.planVerified && r.phases.length > 0) out.push('<p class="failed">The plan below is not verified.</p>');
  if (r.phases.length === 0) out.push("<p>No plan.</p>");
  for (const p of r.phases) {
    out.push(
      `<h3>Phase ${htmlEscape(p.id)}: ${htmlEscape(p.title)}</h3><table><thead><tr><th scope="col">Task</th><th scope="col">Status</th><th scope="col">Retries</th><th scope="col">Escalated</th><th scope="col">Depends on</th><th scope="col">Evidence</th></tr></thead><tbody>`,
    );
    for (const t of p.tasks) {
      out.push(
        `<tr><td>${htmlEscape(t.id)} ${htmlEscape(t.title)}</td><td>${statusHtml(t.status)}</td><td class="num">${t.retryCount}</td><td>${t.escalated ? "yes" : ""}</td><td>${t.dependsOn.map((d) => htmlEscape(d)).join(", ")}</td><td class="num">${t.evidence.length}</td></tr>`,
      );
    }
    out.push("</tbody></table>");
  }
  out.push("<h2>Tasks</h2>");
  yield out.join("\n") + "\n";
  out.length = 0;
  for (const p of r.phases) for (const t of p.tasks) yield taskHtml(t) + "\n";
  out.push("<h2>Tournaments</h2>");
  if (r.tournaments.length === 0) out.push("<p>None.</p>");
  else {
    out.push(
      '<table><thead><tr><th scope="col">Tournament</th><th scope="col">Phase</th><th scope="col">Task</th><th scope="col">Passes</th><th scope="col">Winner</th><th scope="col">Converged</th></tr></thead><tbody>',
    );
    for (const t of r.tournaments) {
      out.push(
        `<tr><td><code>${htmlEscape(t.id)}</code></td><td>${htmlEscape(t.phase)}</td><td>${htmlEscape(t.taskId ?? "—")}</td><td class="num">${t.passes}</td><td>${htmlEscape(t.winner ?? "—")}</td><td>${tournamentConverged(t)}</td></tr>`,
      );
    }
    out.push("</tbody></table>");
  }
  const k = r.knowledge;
  out.push(
    `<h2>Knowledge</h2><p>${k.swarm} swarm lessons, ${k.hive} hive lessons, ${k.rejected} rejected, ${k.skipped} unreadable lines.</p>`,
  );
  const notes = [...r.notes, ...k.errors];
  if (notes.length > 0) out.push(`<h2>Notes</h2><ul>${notes.map((n) => `<li>${htmlEscape(n)}</li>`).join("")}</ul>`);
  out.push("</main></body></html>", "");
  yield out.join("\n");
}
