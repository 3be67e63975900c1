/**
 * URIs of the `autodev-evidence` scheme: the before/after sides of a diff, a
 * bundle's readable Markdown view, its output text and its raw file. The
 * query says what to show (folder, task, source or kind, file index, side);
 * the path is only a label (it picks the tab title and the language) and is
 * never used to read anything. Parsing validates every field, so a URI made
 * up elsewhere cannot name a file outside `.autodev/evidence/`.
 */
import * as vscode from "vscode";
import { EVIDENCE_KINDS, EvidenceKind } from "../core/evidenceSchemas";
import { PATCH_SOURCES, PatchSource } from "../core/evidenceStore";
import { isSafeSegment } from "../core/paths";

/** The URI scheme of evidence documents. */
export const EVIDENCE_SCHEME = "autodev-evidence";

/** A diff side. */
export type DiffSide = "before" | "after";

/** What an evidence document shows. */
export type EvidenceDocRequest =
  | { readonly view: "side"; readonly folder: string; readonly task: string; readonly source: PatchSource; readonly index: number; readonly side: DiffSide }
  | { readonly view: "bundle"; readonly folder: string; readonly task: string; readonly kind: EvidenceKind | "patch" }
  | { readonly view: "output"; readonly folder: string; readonly task: string; readonly kind: EvidenceKind }
  | { readonly view: "raw"; readonly folder: string; readonly task: string; readonly file: string };

/** A label path segment: no separators or dot-only names, so the path stays a plain label. */
function labelSegments(p: string): string {
  return p
    .split(/[\\/]+/)
    .filter((s) => s !== "")
    .map((s) => (/^\.+$/.test(s) ? s.replace(/\./g, "‥") : s))
    .join("/");
}

/** The URI of an evidence document; `label` becomes the path (tab title, language by extension), after the task id except for diff sides. */
export function evidenceUri(req: EvidenceDocRequest, label: string): vscode.Uri {
  const q = new URLSearchParams({ v: req.view, f: req.folder, t: req.task });
  if (req.view === "side") {
    q.set("s", req.source);
    q.set("i", String(req.index));
    q.set("side", req.side);
  } else if (req.view === "raw") q.set("n", req.file);
  else q.set("k", req.kind);
  // Diff sides carry only the file's path, so the multi-file diff editor shows "calc.py src" and
  // treats before/after as the same file (it compares paths, not queries) unless it was renamed.
  const prefix = req.view === "side" ? "" : `/${labelSegments(req.task)}`;
  return vscode.Uri.from({ scheme: EVIDENCE_SCHEME, path: `${prefix}/${labelSegments(label) || "evidence"}`, query: q.toString() });
}

/** Parses and validates an evidence URI; a string says what is wrong with it. */
export function parseEvidenceUri(uri: vscode.Uri): EvidenceDocRequest | string {
  if (uri.scheme !== EVIDENCE_SCHEME) return `not an ${EVIDENCE_SCHEME} URI`;
  const q = new URLSearchParams(uri.query);
  const view = q.get("v");
  const folder = q.get("f") ?? "";
  const task = q.get("t") ?? "";
  if (!folder) return "the URI names no workspace folder";
  if (!isSafeSegment(task)) return `task id ${JSON.stringify(task)} is not a safe file name`;
  switch (view) {
    case "side": {
      const source = q.get("s") as PatchSource;
      const index = Number(q.get("i"));
      const side = q.get("side");
      if (!PATCH_SOURCES.includes(source)) return `unknown diff source ${JSON.stringify(source)}`;
      if (!Number.isInteger(index) || index < 0 || index > 100_000) return "bad file index";
      if (side !== "before" && side !== "after") return "bad diff side";
      return { view, folder, task, source, index, side };
    }
    case "bundle":
    case "output": {
      const kind = q.get("k") ?? "";
      const known = (EVIDENCE_KINDS as readonly string[]).includes(kind);
      if (view === "bundle" && (known || kind === "patch")) return { view, folder, task, kind: kind as EvidenceKind | "patch" };
      if (view === "output" && known) return { view, folder, task, kind: kind as EvidenceKind };
      return `unknown evidence kind ${JSON.stringify(kind)}`;
    }
    case "raw": {
      const file = q.get("n") ?? "";
      const mine = file === `${task}.patch` || (file.startsWith(`${task}-`) && file.endsWith(".json"));
      if (!isSafeSegment(file) || !mine) return `${JSON.stringify(file)} is not an evidence file of task ${task}`;
      return { view, folder, task, file };
    }
    default:
      return `unknown view ${JSON.stringify(view)}`;
  }
}
