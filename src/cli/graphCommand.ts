/**
 * `autodev-state graph [DIR] [--json | --format json|dot|mermaid|text] [--source KIND]`: the plan
 * of every state folder in DIR as a dependency graph — nodes, edges, the cycles, the critical path
 * of what is not done and the blocked chains — as JSON, Graphviz DOT, a Mermaid flowchart or text.
 * Walks STATE_SOURCES, so a source with a `graph` method needs no change here.
 */
import { ParsedArgs, UsageError, requireDir, withOptionalDir } from "./cliArgs";
import { printJson, println } from "./cliOutput";
import { noSource } from "./sourceCommands";
import { detectSources } from "../core/sources/sourceCheck";
import { STATE_SOURCES } from "../core/sources/sourceRegistry";
import type { StateSource } from "../core/sources/stateSource";
import { analyzeGraph, GraphAnalysis } from "../core/graph/graphAnalysis";
import { graphToDot, graphToMermaid, unverifiedWarning } from "../core/graph/graphText";
import type { PlanGraph } from "../core/graph/planGraph";
import { displayValue } from "../core/text/displayText";

const FORMATS = ["json", "dot", "mermaid", "text"] as const;
type GraphFormat = (typeof FORMATS)[number];

/** One source's entry in `graph --json`. */
export function graphJson(g: PlanGraph, a: GraphAnalysis): Record<string, unknown> {
  return {
    kind: g.kind,
    path: g.path,
    verified: g.verified,
    unreadable: g.unreadable,
    nodes: g.nodes.map((n) => ({
      id: n.id,
      label: n.label,
      status: n.status,
      phase: n.phase,
      done: n.done,
      retries: n.retries,
      escalated: n.escalated,
      blocked_reason: n.blockedReason,
    })),
    edges: g.edges.map((e) => ({ from: e.from, to: e.to })),
    cycles: a.cycles,
    critical_path: a.criticalPath,
    blocked_chains: a.blockedChains.map((c) => ({ root: c.root, waiting: c.waiting })),
    dangling_edges: g.dangling.map((e) => ({ from: e.from, to: e.to })),
    duplicate_ids: g.duplicateIds,
    notes: g.notes,
  };
}

function formatOf(args: ParsedArgs): GraphFormat {
  const raw = args.options.get("format");
  if (raw === undefined) return args.switches.has("json") ? "json" : "text";
  if (!(FORMATS as readonly string[]).includes(raw)) {
    throw new UsageError(`--format must be one of ${FORMATS.join(", ")}, got ${JSON.stringify(raw).slice(0, 60)}`);
  }
  if (args.switches.has("json") && raw !== "json") throw new UsageError(`--json and --format ${raw} disagree`);
  return raw as GraphFormat;
}

const ids = (list: readonly string[], max = 12): string =>
  list.length === 0
    ? "—"
    : list
        .slice(0, max)
        .map((id) => displayValue(id, 40))
        .join(" → ") + (list.length > max ? ` … (${list.length} tasks)` : "");

function printText(g: PlanGraph, a: GraphAnalysis): void {
  const done = g.nodes.filter((n) => n.done).length;
  const verified = g.verified === null ? "" : g.verified ? ", verified" : ", NOT verified";
  println(
    `${g.kind} ${displayValue(g.path)}: ${g.nodes.length} tasks (${done} done), ${g.edges.length} dependencies${verified}`,
  );
  println(`  critical path: ${ids(a.criticalPath)}`);
  for (const c of a.cycles) println(`  cycle: ${ids([...c, c[0]])}`);
  for (const c of a.blockedChains) {
    println(
      `  blocked: ${displayValue(c.root, 40)}${c.waiting.length ? ` holds up ${ids(c.waiting, 8).replace(/ → /g, ", ")}` : ""}`,
    );
  }
  for (const e of g.dangling.slice(0, 20)) {
    println(`  unknown task: ${displayValue(e.to, 40)} depends on ${displayValue(e.from, 40)}, which does not exist`);
  }
  for (const n of g.notes) println(`  note: ${n}`);
}

/**
 * `graph [DIR] …`: exit 0; 1 when a ledger does not verify (the graph is drawn from its tail, marked
 * NOT VERIFIED in every format); 2 when DIR holds no state folder with a plan or one cannot be read.
 */
export async function cmdGraph(args: ParsedArgs, sources: readonly StateSource[] = STATE_SOURCES): Promise<number> {
  const { dir } = withOptionalDir(args.positionals, []);
  const format = formatOf(args);
  const only = args.options.get("source");
  if (only !== undefined && !sources.some((s) => s.kind === only)) {
    throw new UsageError(
      `--source must be one of ${sources.map((s) => s.kind).join(", ")}, got ${JSON.stringify(only).slice(0, 60)}`,
    );
  }
  requireDir(dir);
  const found = (await detectSources(dir, sources)).filter(
    (f) => f.source.graph !== undefined && (only === undefined || f.source.kind === only),
  );
  if (found.length === 0) {
    return noSource(
      dir,
      sources.filter((s) => s.graph !== undefined),
    );
  }
  const graphs: { g: PlanGraph; a: GraphAnalysis }[] = [];
  for (const { source, location } of found) {
    const g = await source.graph!(location);
    graphs.push({ g, a: analyzeGraph(g) });
  }
  const code = graphExitCode(graphs.map(({ g }) => g));
  if (format === "json") printJson({ ok: code === 0, sources: graphs.map(({ g, a }) => graphJson(g, a)) });
  else if (format === "dot") process.stdout.write(graphs.map(({ g, a }) => graphToDot(g, a)).join("\n"));
  else if (format === "mermaid") {
    // One diagram per source; with several, each starts at its own `flowchart` line (use --source for one).
    process.stdout.write(graphs.map(({ g, a }) => graphToMermaid(g, a)).join("\n"));
  } else for (const { g, a } of graphs) printText(g, a);
  for (const { g } of graphs) {
    const warning = unverifiedWarning(g);
    if (warning && format !== "text") {
      process.stderr.write(`autodev-state: ${g.kind} ${displayValue(g.path)}: ${warning}\n`);
    }
  }
  return code;
}

/** As `verify` would answer: 2 when a state could not be read, 1 when one does not verify, else 0. */
function graphExitCode(graphs: readonly PlanGraph[]): number {
  if (graphs.some((g) => g.unreadable)) return 2;
  return graphs.some((g) => g.verified === false) ? 1 : 0;
}
