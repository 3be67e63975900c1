/**
 * The engine_state tree: the manifest (schema version, turn count, the revision it was
 * written at beside the current HEAD, "stale" when they differ), then recognizers and
 * discovery candidates with their counts, one node per line that opens the file at it.
 */
import type { NodeIcon, SourceProblem, SourceTreeNode } from "../stateSource";
import { displayValue } from "../../text/displayText";
import type { EngineStateModel } from "./engineStateModel";
import type { JsonlFileModel, LineEntry } from "./jsonlCheck";
import { escapeMarkdown } from "../../text/markdownText";

const ERROR_ICON: NodeIcon = { id: "error", color: "problemsErrorIcon.foreground" };
const WARNING_ICON: NodeIcon = { id: "warning", color: "problemsWarningIcon.foreground" };

/** The nodes under the source's root. */
export function engineStateTree(model: EngineStateModel): SourceTreeNode[] {
  const base = `engine_state:${model.location.relDir}`;
  if (model.refusal !== null) {
    return [
      {
        id: `${base}:refused`,
        label: "Not read",
        description: displayValue(model.refusal, 120),
        tooltip: escapeMarkdown(model.refusal),
        icon: ERROR_ICON,
      },
    ];
  }
  return [
    manifestNode(model, base),
    fileNode(model, base, "recognizers", "Recognizers", model.files.recognizers, model.recognizers, "symbol-class"),
    fileNode(model, base, "candidates", "Discovery candidates", model.files.candidates, model.candidates, "lightbulb"),
  ];
}

function problemsIn(model: EngineStateModel, file: string): SourceProblem[] {
  return model.problems.filter((p) => p.file === file);
}

function iconFor(problems: readonly SourceProblem[], fallback: NodeIcon): NodeIcon {
  if (problems.some((p) => p.severity === "error")) return ERROR_ICON;
  if (problems.some((p) => p.severity === "warning")) return WARNING_ICON;
  return fallback;
}

function manifestNode(model: EngineStateModel, base: string): SourceTreeNode {
  const m = model.manifest;
  const file = model.files.manifest;
  const target = { kind: "file" as const, file };
  const problems = problemsIn(model, file);
  const head = model.head.sha === null ? `unknown (${model.head.reason ?? "no repository"})` : headText(model);
  let description: string;
  if (m.state === "missing") description = "no manifest.json (not a committed checkpoint)";
  else if (m.state === "empty") description = "empty: the loader treats it as no manifest";
  else if (m.state === "invalid") description = "unreadable";
  else if (model.stale !== null) {
    description = `stale: written at ${short(m.writtenAtRevisionText)}, HEAD is ${short(model.head.sha)}`;
  } else description = `schema ${m.schemaVersionText ?? "—"} · turn ${m.turnCountText ?? "—"}`;
  const children: SourceTreeNode[] =
    m.state !== "ok"
      ? []
      : [
          leaf(
            `${base}:manifest:schema`,
            "Schema version",
            m.schemaVersionText ?? "absent (0)",
            target,
            m.schemaUnsupported ? ERROR_ICON : undefined,
          ),
          leaf(`${base}:manifest:turns`, "Turn count", m.turnCountText ?? "absent", target),
          leaf(
            `${base}:manifest:revision`,
            "Written at revision",
            displayValue(m.writtenAtRevisionText ?? "absent", 60),
            target,
            model.stale ? WARNING_ICON : undefined,
          ),
          leaf(`${base}:manifest:head`, "HEAD", head, undefined, model.stale ? WARNING_ICON : undefined),
        ];
  for (const p of problems) {
    children.push(
      leaf(
        `${base}:manifest:problem:${p.code}:${p.line ?? 0}`,
        p.code,
        displayValue(p.message, 160),
        { kind: "file", file, ...(p.line ? { line: p.line } : {}) },
        p.severity === "error" ? ERROR_ICON : WARNING_ICON,
      ),
    );
  }
  return {
    id: `${base}:manifest`,
    label: "Manifest",
    description,
    tooltip: problems.map((p) => escapeMarkdown(p.message)).join("\n\n") || undefined,
    icon: iconFor(problems, { id: "file-code" }),
    children,
    expanded: true,
    target,
    contextValue: "engineState.manifest",
  };
}

function headText(model: EngineStateModel): string {
  const sha = (model.head.sha ?? "").slice(0, 12);
  return model.head.ref === null
    ? `${sha} (detached)`
    : `${sha} (${displayValue(model.head.ref.replace(/^refs\/heads\//, ""), 60)})`;
}

/** The first 7 characters and an ellipsis, as the stale description shows revisions. */
function short(revision: string | null): string {
  if (revision === null) return "—";
  return revision.length > 7 ? `${displayValue(revision.slice(0, 7))}…` : displayValue(revision);
}

function leaf(
  id: string,
  label: string,
  description: string,
  target?: SourceTreeNode["target"],
  icon?: NodeIcon,
): SourceTreeNode {
  return { id, label, description, ...(target ? { target } : {}), ...(icon ? { icon } : {}) };
}

function fileNode(
  model: EngineStateModel,
  base: string,
  key: string,
  title: string,
  file: string,
  content: JsonlFileModel,
  icon: string,
): SourceTreeNode {
  const problems = problemsIn(model, file);
  const counted = content.state === "missing" ? "no file" : String(content.records);
  const flagged = problems.length > 0 ? ` · ${problems.length} problem${problems.length === 1 ? "" : "s"}` : "";
  const children = content.entries.map((entry) => lineNode(`${base}:${key}`, file, entry));
  if (content.omitted > 0) {
    children.push({
      id: `${base}:${key}:more`,
      label: `… ${content.omitted} more lines`,
      description: "open the file to see them",
      target: { kind: "file", file },
    });
  }
  for (const p of problems.filter((p) => p.line === null)) {
    children.unshift(
      leaf(
        `${base}:${key}:problem:${p.code}`,
        p.code,
        displayValue(p.message, 160),
        undefined,
        p.severity === "error" ? ERROR_ICON : WARNING_ICON,
      ),
    );
  }
  return {
    id: `${base}:${key}`,
    label: title,
    description: counted + flagged,
    icon: iconFor(problems, { id: icon }),
    children,
    target: { kind: "file", file },
    contextValue: `engineState.${key}`,
  };
}

function lineNode(parent: string, file: string, entry: LineEntry): SourceTreeNode {
  const shown = entry.view;
  const label = shown?.label ?? `line ${entry.lineNo}: ${entry.problem === null ? "blank" : "unreadable"}`;
  const description = [`line ${entry.lineNo}`, shown?.description].filter(Boolean).join(" · ");
  const tooltip = [
    ...(entry.problem !== null
      ? [`**${entry.severity === "error" ? "Error" : "Warning"}:** ${escapeMarkdown(entry.problem)}`]
      : []),
    ...(shown?.details ?? []).map((d) => escapeMarkdown(d)),
  ].join("\n\n");
  return {
    id: `${parent}:line:${entry.lineNo}`,
    label,
    description,
    ...(tooltip ? { tooltip } : {}),
    ...(entry.severity !== null ? { icon: entry.severity === "error" ? ERROR_ICON : WARNING_ICON } : {}),
    target: { kind: "file", file, line: entry.lineNo },
    contextValue: "engineState.line",
  };
}
