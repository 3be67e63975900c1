/**
 * What the user sees of one workspace folder, read the way the user reads it: the Plan view's rows (tree
 * items' labels and descriptions, found by the folder's URI in their ids), the two status bar items'
 * texts, and Problems (`vscode.languages.getDiagnostics` under the folder). Used to sample the editor
 * while a live recording is replayed (autodevLiveReplay.test.ts), so it reads no adapter's classes.
 */
import * as vscode from "vscode";
import type { StateApi } from "../../../../src/extension/extension";
import { type AnyNode, childrenOf } from "../../helpers";

/** A row of the tree as shown. */
export interface Row {
  readonly node: AnyNode;
  readonly id: string;
  readonly label: string;
  readonly description: string;
  readonly tooltip: string;
  readonly collapsible: boolean;
}

/** One Problem as the Problems panel lists it. */
export interface ShownProblem {
  readonly file: string;
  readonly code: string;
  readonly severity: vscode.DiagnosticSeverity;
  readonly message: string;
}

/** A sample of the editor at one moment. */
export interface Seen {
  /** When the reading started and ended (the views may show a write made in between). */
  readonly at: number;
  readonly doneAt: number;
  /** The folder's root row (null before it is shown). */
  readonly root: Row | null;
  /** The rows right under the root (running, waiting, phases, tournaments, …). */
  readonly top: readonly Row[];
  /** Each task row's id → its description ("tested · retry 1/3 · Add divide…"). */
  readonly tasks: ReadonlyMap<string, string>;
  readonly statusBar: string | null;
  readonly runItem: string | null;
  readonly problems: readonly ShownProblem[];
}

/** Reads rows as the tree view renders them. */
export function rowOf(a: StateApi, node: AnyNode): Row {
  const item = a.tree.getTreeItem(node);
  const label = typeof item.label === "string" ? item.label : (item.label?.label ?? "");
  const tip = item.tooltip;
  return {
    node,
    id: item.id ?? "",
    label,
    description: String(item.description ?? ""),
    tooltip: typeof tip === "string" ? tip : (tip?.value ?? ""),
    collapsible: item.collapsibleState !== vscode.TreeItemCollapsibleState.None,
  };
}

/** The children rows of `parent` (the roots for none). */
export async function rowsUnder(a: StateApi, parent?: Row): Promise<Row[]> {
  return (await childrenOf(a, parent?.node)).map((n) => rowOf(a, n));
}

/** The run status item's text (the second status bar item: running or waiting). */
export type RunItemText = () => string | null;

/** Problems under `dir`, as the Problems panel lists them. */
export function problemsUnder(dir: string): ShownProblem[] {
  const prefix = vscode.Uri.file(dir).fsPath + "/";
  return vscode.languages
    .getDiagnostics()
    .filter(([uri]) => uri.fsPath.startsWith(prefix))
    .flatMap(([uri, ds]) =>
      ds.map((d) => ({
        file: uri.fsPath.slice(prefix.length),
        code: String(typeof d.code === "object" ? d.code.value : (d.code ?? "")),
        severity: d.severity,
        message: d.message,
      })),
    );
}

/** Reads the folder `dir` as shown now. */
export async function seeFolder(a: StateApi, dir: string, runItem: RunItemText): Promise<Seen> {
  const at = Date.now();
  const uri = vscode.Uri.file(dir).toString();
  const mine = (r: Row) => r.id.startsWith(`${uri}|`);
  const root = (await rowsUnder(a)).find((r) => mine(r) && r.id === `${uri}|root`) ?? null;
  const top = root ? await rowsUnder(a, root) : [];
  const tasks = new Map<string, string>();
  // Phase and task rows by the end of their ids ("…|phase|1", "…|task|1.2"), whoever composes the rest.
  for (const phase of top.filter((r) => mine(r) && /\|phase\|[^|]+$/.test(r.id))) {
    for (const t of await rowsUnder(a, phase)) {
      if (mine(t) && /\|task\|[^|]+$/.test(t.id)) tasks.set(t.label, t.description);
    }
  }
  const problems = problemsUnder(dir);
  return {
    at,
    doneAt: Date.now(),
    root,
    top,
    tasks,
    statusBar: a.statusBar.text,
    runItem: runItem(),
    problems,
  };
}

/** The entry count the root row's hover gives ("84 ledger entries"), or null. */
export function entriesOf(seen: Seen): number | null {
  const m = /(\d+) ledger entries/.exec(seen.root?.tooltip ?? "");
  return m ? Number(m[1]) : null;
}

/** p50 / p95 / max of `xs` (ms), as one line; "no samples" when empty. */
export function percentiles(xs: readonly number[]): string {
  if (xs.length === 0) return "no samples";
  const s = xs.map((x) => Math.round(x)).sort((x, y) => x - y);
  const q = (p: number) => s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
  return `p50 ${q(50)} ms · p95 ${q(95)} ms · max ${s[s.length - 1]} ms (n=${s.length})`;
}
