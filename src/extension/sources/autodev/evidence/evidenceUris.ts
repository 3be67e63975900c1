/**
 * URIs of the `autodev-evidence` scheme: the before/after sides of a diff, a
 * bundle's readable Markdown view, its output text and its raw file. The
 * query says what to show (folder, task, source or kind, file index, side);
 * the path is only a label (it picks the tab title and the language) and is
 * never used to read anything. Parsing validates the query with a strict zod
 * schema (evidenceQuerySchema.ts, loaded on first use), so a URI made up
 * elsewhere cannot name a file outside `.autodev/evidence/`.
 */
import * as vscode from "vscode";
import type { EvidenceKind, PatchSource } from "../../../../core/sources/autodev/evidence/evidenceNames";
import type * as EvidenceQuery from "./evidenceQuerySchema";

/** The URI scheme of evidence documents. */
export const EVIDENCE_SCHEME = "autodev-evidence";

/** A diff side. */
export type DiffSide = "before" | "after";

/** What an evidence document shows. */
export type EvidenceDocRequest =
  | {
      readonly view: "side";
      readonly folder: string;
      readonly task: string;
      readonly source: PatchSource;
      readonly index: number;
      readonly side: DiffSide;
    }
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
  return vscode.Uri.from({
    scheme: EVIDENCE_SCHEME,
    path: `${prefix}/${labelSegments(label) || "evidence"}`,
    query: q.toString(),
  });
}

let schema: typeof EvidenceQuery | undefined;
/** The query's schema, loaded on first use: zod is not loaded while the extension host starts. */
function evidenceQuery(): typeof EvidenceQuery {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (schema ??= require("./evidenceQuerySchema") as typeof EvidenceQuery);
}

/** What a query key means, in the UI language ("the query" for an unknown key). */
function fieldName(key: string): string {
  const names: Record<string, () => string> = {
    v: () => vscode.l10n.t("view"),
    f: () => vscode.l10n.t("folder"),
    t: () => vscode.l10n.t("task id"),
    s: () => vscode.l10n.t("diff source"),
    i: () => vscode.l10n.t("file index"),
    side: () => vscode.l10n.t("diff side"),
    k: () => vscode.l10n.t("evidence kind"),
    n: () => vscode.l10n.t("file name"),
  };
  return (names[key] ?? (() => vscode.l10n.t("the query")))();
}

/** A schema message in the UI language (zod's own messages stay as zod writes them). */
function issueText(message: string | undefined): string {
  if (message === "not a safe file name") return vscode.l10n.t("not a safe file name");
  if (message === "names no workspace folder") return vscode.l10n.t("names no workspace folder");
  return message ?? vscode.l10n.t("invalid");
}

/** Parses and validates an evidence URI; a string says what is wrong with it. */
export function parseEvidenceUri(uri: vscode.Uri): EvidenceDocRequest | string {
  if (uri.scheme !== EVIDENCE_SCHEME) return vscode.l10n.t("not an {0} URI", EVIDENCE_SCHEME);
  const parsed = evidenceQuery().QuerySchema.safeParse(Object.fromEntries(new URLSearchParams(uri.query)));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const key = String(issue?.path[0] ?? "");
    return vscode.l10n.t("{0}: {1}", fieldName(key), issueText(issue?.message));
  }
  const q = parsed.data;
  const base = { folder: q.f, task: q.t };
  switch (q.v) {
    case "side":
      return { view: "side", ...base, source: q.s, index: q.i, side: q.side };
    case "bundle":
      return { view: "bundle", ...base, kind: q.k };
    case "output":
      return { view: "output", ...base, kind: q.k };
    case "raw": {
      const mine = q.n === `${q.t}.patch` || (q.n.startsWith(`${q.t}-`) && q.n.endsWith(".json"));
      return mine
        ? { view: "raw", ...base, file: q.n }
        : vscode.l10n.t("{0} is not an evidence file of task {1}", JSON.stringify(q.n), q.t);
    }
  }
}
