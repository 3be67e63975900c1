/**
 * The TreeItems of evidence nodes in the Plan view: a bundle with its icon
 * and one-line summary, a diff's files, review/critic issues, tournament
 * passes, output texts, and error or warning rows that say what is wrong.
 * Clicking runs the evidence commands with plain arguments (folder URI, task
 * id, …), which re-read and re-validate everything.
 */
import * as vscode from "vscode";
import { escapeHidden, labelText } from "../../../../core/text/untrustedText";
import { Evidence } from "../../../../core/sources/autodev/evidence/evidenceSchemas";
import type { PatchSource } from "../../../../core/sources/autodev/evidence/evidenceNames";
import { evidenceFailed, summarizeEvidence } from "../../../../core/sources/autodev/evidence/evidenceSummary";
import { ParsedPatchFile, describePaths, patchStats } from "../../../../core/sources/autodev/evidence/patchModel";
import { TournamentPass, formatScores, passSummary } from "../../../../core/sources/autodev/evidence/tournamentPasses";
import { AutodevFolder } from "../folder/autodevFolder";
import { linesText } from "../../../text/countText";
import { EVIDENCE_SCHEME } from "./evidenceUris";

/** What a node's context-menu commands act on. */
export interface EvidenceTarget {
  readonly folder: AutodevFolder;
  readonly taskId: string;
  /** Evidence kind (or "patch") for the readable view and the output. */
  readonly kind?: string;
  /** Evidence file name, for the raw file. */
  readonly file?: string;
  /** Diff source and, for one file, its index. */
  readonly source?: PatchSource;
  readonly index?: number;
  /** The sha256 of the diff's text when the node stands for a whole diff (its reviewed mark's checkbox). */
  readonly diffHash?: string;
  /** A workspace path the node refers to (explore's files_referenced). */
  readonly relPath?: string;
}

const KIND_ICON: Record<string, string> = {
  developer: "code",
  review: "eye",
  test: "beaker",
  explore: "search",
  domain_expert: "mortar-board",
  critic: "law",
  tournament: "git-compare",
  patch: "diff",
};

const CHANGE_ICON: Record<string, string> = {
  added: "diff-added",
  deleted: "diff-removed",
  renamed: "diff-renamed",
  copied: "diff-added",
  modified: "diff-modified",
  mode: "settings-gear",
};

function icon(id: string, color?: string): vscode.ThemeIcon {
  return new vscode.ThemeIcon(id, color ? new vscode.ThemeColor(color) : undefined);
}

function md(text: string): vscode.MarkdownString {
  const m = new vscode.MarkdownString(undefined, false);
  m.appendText(escapeHidden(text, true));
  return m;
}

/** The colour of a bundle's icon: red for failures and rejections, amber for requested changes, green for passes. */
function bundleColor(e: Evidence): string | undefined {
  if (evidenceFailed(e)) return "testing.iconFailed";
  if ((e.kind === "review" || e.kind === "critic") && e.verdict !== "APPROVED") return "problemsWarningIcon.foreground";
  if (e.kind === "review" || e.kind === "critic" || e.kind === "test" || e.kind === "developer") {
    return "autodevStatus.complete";
  }
  return e.kind === "tournament" && !e.converged ? "charts.orange" : undefined;
}

/** Context value tokens: `autodevEvidence.<kind>[.diff][.output][.raw]`, for menus. */
function evidenceContext(kind: string, flags: { diff?: boolean; output?: boolean; raw?: boolean }): string {
  return ["autodevEvidence", kind, flags.diff ? "diff" : "", flags.output ? "output" : "", flags.raw ? "raw" : ""]
    .filter(Boolean)
    .join(".");
}

/** A valid bundle: icon by kind, the one-line summary as label, the file as description. */
export function bundleItem(
  folder: AutodevFolder,
  file: string,
  e: Evidence,
  hasChildren: boolean,
  starred: boolean,
): vscode.TreeItem {
  const item = new vscode.TreeItem(
    summarizeEvidence(e),
    hasChildren ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None,
  );
  item.iconPath = icon(KIND_ICON[e.kind] ?? "file", bundleColor(e));
  item.description = `${file}${starred ? " ★" : ""}`;
  item.tooltip = md(
    `${summarizeEvidence(e)}\n.autodev/evidence/${file}${starred ? `\n${vscode.l10n.t("(the task's evidence_bundle)")}` : ""}`,
  );
  const diff = (e.kind === "developer" && !!e.diff) || (e.kind === "tournament" && !!e.final_diff);
  const output = "output_text" in e && e.output_text !== "";
  item.contextValue = evidenceContext(e.kind, { diff, output, raw: true });
  const args = [folder.folder.uri.toString(), e.task_id];
  item.command =
    e.kind === "developer" && e.diff
      ? { command: "autodev.openEvidenceDiff", title: vscode.l10n.t("Open Diff"), arguments: [...args, "developer"] }
      : { command: "autodev.openEvidence", title: vscode.l10n.t("Open Evidence"), arguments: [...args, e.kind] };
  return item;
}

/**
 * The task's `.patch`: "patch: 4 files, +17 −8" (", 1 malformed" and a red icon when sections do not
 * parse); `finalDiff` labels a tournament's final diff the same way ("final diff: …").
 */
export function patchItem(
  folder: AutodevFolder,
  taskId: string,
  file: string,
  files: readonly ParsedPatchFile[],
  finalDiff = false,
): vscode.TreeItem {
  const broken = files.filter((f) => f.error).length;
  const stats = broken ? vscode.l10n.t("{0}, {1} malformed", patchStats(files), broken) : patchStats(files);
  const label = finalDiff ? vscode.l10n.t("final diff: {0}", stats) : vscode.l10n.t("patch: {0}", stats);
  const item = new vscode.TreeItem(
    label,
    files.length ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None,
  );
  item.iconPath = broken ? icon("diff", "errorForeground") : icon("diff");
  item.description = file;
  item.tooltip = md(
    `.autodev/evidence/${file}\n${stats}\n${vscode.l10n.t("Click to open the diff; expand for its files.")}`,
  );
  item.contextValue = evidenceContext("patch", { diff: true, raw: true });
  item.command = {
    command: "autodev.openEvidenceDiff",
    title: vscode.l10n.t("Open Diff"),
    arguments: [folder.folder.uri.toString(), taskId, finalDiff ? "tournament" : "patch"],
  };
  return item;
}

/** One file of a diff: click opens that file's side-by-side diff. */
export function diffFileItem(
  folder: AutodevFolder,
  taskId: string,
  source: PatchSource,
  index: number,
  f: ParsedPatchFile,
): vscode.TreeItem {
  const item = new vscode.TreeItem(describePaths(f), vscode.TreeItemCollapsibleState.None);
  if (f.error) {
    item.iconPath = icon("error", "errorForeground");
    item.description = vscode.l10n.t("malformed");
    item.tooltip = md(f.error);
    return item;
  }
  item.iconPath = icon(f.binary ? "file-binary" : (CHANGE_ICON[f.change] ?? "diff"));
  item.description = [
    `${f.change} +${f.added} −${f.removed}`,
    f.noNewlineAtEnd ? vscode.l10n.t("no newline at end") : "",
    f.binary ? vscode.l10n.t("binary") : "",
  ]
    .filter(Boolean)
    .join(" · ");
  item.contextValue = evidenceContext("file", { diff: !f.binary });
  if (!f.binary) {
    item.command = {
      command: "autodev.openEvidenceDiff",
      title: vscode.l10n.t("Open Diff"),
      arguments: [folder.folder.uri.toString(), taskId, source, index],
    };
  }
  return item;
}

/** A bad evidence file or folder: the name, and why, in red (`raw`: its text may be opened as it is). */
export function errorItem(label: string, why: string, raw = false): vscode.TreeItem {
  const item = new vscode.TreeItem(labelText(label, 400), vscode.TreeItemCollapsibleState.None);
  item.iconPath = icon("error", "errorForeground");
  const first = why.split("\n")[0];
  item.description = labelText(first.startsWith(`${label} `) ? first.slice(label.length + 1) : first, 400);
  item.tooltip = md(why);
  item.contextValue = raw ? "autodevEvidenceError.raw" : "autodevEvidenceError";
  return item;
}

/** A warning row (missing evidence, a dangling evidence_bundle, tournament folder problems). */
export function warningItem(
  label: string,
  detail: string,
  tooltip = vscode.l10n.t("{0}: {1}", label, detail),
): vscode.TreeItem {
  const item = new vscode.TreeItem(labelText(label, 400), vscode.TreeItemCollapsibleState.None);
  item.iconPath = icon("warning", "problemsWarningIcon.foreground");
  item.description = labelText(detail, 400);
  item.tooltip = md(tooltip);
  item.contextValue = "autodevEvidenceWarning";
  return item;
}

/** One issue of a review or critic verdict (first line as label, all of it in the tooltip). */
export function issueItem(text: string, n: number): vscode.TreeItem {
  const first = text.split("\n")[0] || vscode.l10n.t("(empty issue)");
  const item = new vscode.TreeItem(
    first.length > 120 ? `${first.slice(0, 119)}…` : first,
    vscode.TreeItemCollapsibleState.None,
  );
  item.iconPath = icon("comment");
  item.description = vscode.l10n.t("issue {0}", n);
  item.tooltip = md(text);
  return item;
}

/** A tournament pass: "pass 2: AB won (A 0.5 · AB 0.5)", judges in the description and tooltip. */
export function passItem(p: TournamentPass, where: string, judges: TournamentPass["judges"]): vscode.TreeItem {
  const item = new vscode.TreeItem(passSummary(p), vscode.TreeItemCollapsibleState.None);
  item.iconPath = icon(p.known ? "milestone" : "question", p.known ? undefined : "problemsWarningIcon.foreground");
  const j = judges.map((x) => `${x.name}: ${formatScores(x.scores)}`).join("; ");
  item.description = j ? vscode.l10n.t("judges {0}", j) : where;
  const lines = [
    `${passSummary(p)} (${where})`,
    j ? vscode.l10n.t("judges: {0}", j) : "",
    p.notes.length ? vscode.l10n.t("notes: {0}", p.notes.join("; ")) : "",
    p.known ? "" : p.rawJson,
  ];
  item.tooltip = md(lines.filter(Boolean).join("\n"));
  return item;
}

/** "output (12 lines)": opens the output text as a read-only document. */
export function outputItem(folder: AutodevFolder, taskId: string, kind: string, text: string): vscode.TreeItem {
  const lines = text.split("\n").length;
  const item = new vscode.TreeItem(vscode.l10n.t("output"), vscode.TreeItemCollapsibleState.None);
  item.iconPath = icon("output");
  item.description = linesText(lines);
  item.tooltip = md(text.length > 500 ? `${text.slice(0, 500)}…` : text);
  item.command = {
    command: "autodev.openEvidenceOutput",
    title: vscode.l10n.t("Show Output"),
    arguments: [folder.folder.uri.toString(), taskId, kind],
  };
  return item;
}

/** A workspace file an explore bundle refers to (opened only after the path is checked). */
export function referencedFileItem(folder: AutodevFolder, rel: string): vscode.TreeItem {
  const item = new vscode.TreeItem(rel, vscode.TreeItemCollapsibleState.None);
  item.iconPath = vscode.ThemeIcon.File;
  item.resourceUri = vscode.Uri.from({
    scheme: EVIDENCE_SCHEME,
    path: `/${rel.replace(/^\/+/, "")}`,
    query: "v=label",
  });
  item.command = {
    command: "autodev.openReferencedFile",
    title: vscode.l10n.t("Open File"),
    arguments: [folder.folder.uri.toString(), rel],
  };
  return item;
}
