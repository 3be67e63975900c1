/**
 * The plan as a graph, source-neutral: tasks (nodes) and "must finish before" edges, as a state
 * source reads them from its files (AutoDev's `depends_on`, agloop's `depends_on` and `dag_edges`).
 * {@link buildPlanGraph} normalises what a source found — duplicate ids and edges dropped, edges to
 * unknown tasks set aside, hostile sizes capped — so the analysis and the renderers can trust it.
 * Plain data: the CLI prints it, the worker sends it to the editor.
 */
/** Most nodes a graph keeps (a plan beyond this is cut, and says so in `notes`). */
export const MAX_GRAPH_NODES = 10_000;
/** Most edges a graph keeps. */
const MAX_GRAPH_EDGES = 50_000;
/** Most ids of cut tasks remembered (past it, an edge to an unknown id may be to a cut task: said so). */
const MAX_CUT_IDS = 1_000_000;
/** Longest label kept, in characters (the full title stays in the state file). */
const MAX_LABEL_CHARS = 300;

/** One task of the plan. */
export interface GraphNode {
  /** The task id as the source writes it (unique within the graph). */
  readonly id: string;
  /** The task title (may be empty; renderers escape it: it is untrusted text). */
  readonly label: string;
  /** The status as the source writes it ("in_progress", "done", …). */
  readonly status: string;
  /** The phase (group) the task belongs to, or null when the source has none. */
  readonly phase: string | null;
  /** True when the status counts as finished (complete, skipped, done). */
  readonly done: boolean;
  /** True when the task itself is stuck (blocked, failed): what waits on it waits on a blocked chain. */
  readonly blocked: boolean;
  /** Retries recorded for the task (0 when none or unknown). */
  readonly retries: number;
  readonly escalated: boolean;
  /** Why the task is blocked, when the source records it. */
  readonly blockedReason: string | null;
  /** The id of the task's node in the source's tree (a click reveals it), or null. */
  readonly treeNodeId: string | null;
}

/** `from` must finish before `to` can start (`to` depends on `from`). */
export interface GraphEdge {
  readonly from: string;
  readonly to: string;
}

/** A phase (a group of nodes), in plan order. */
export interface GraphGroup {
  readonly id: string;
  readonly label: string;
}

/** The graph of one state folder. */
export interface PlanGraph {
  /** The source kind ("autodev", "agloop"). */
  readonly kind: string;
  /** The state folder relative to the workspace folder (".autodev", ".agloop"). */
  readonly path: string;
  readonly nodes: readonly GraphNode[];
  readonly edges: readonly GraphEdge[];
  readonly groups: readonly GraphGroup[];
  /** Ids more than one task has (each once, in plan order; at most {@link MAX_GRAPH_NODES}); only the first task of each is drawn. */
  readonly duplicateIds: readonly string[];
  /** Edges naming a task the graph does not have (shown by `check`; not drawn). */
  readonly dangling: readonly GraphEdge[];
  /** True when the state it was built from was verified (AutoDev's hash chain), false when not, null when the source has no such check. */
  readonly verified: boolean | null;
  /** True when the state could not be read at all (a FIFO, a link out): the graph is empty and unverified. */
  readonly unreadable: boolean;
  /** What the reader could not show (a cut, an unreadable file), one sentence each. */
  readonly notes: readonly string[];
}

/** What a source hands to {@link buildPlanGraph}. */
export interface PlanGraphInput {
  readonly kind: string;
  readonly path: string;
  readonly nodes: Iterable<GraphNode>;
  readonly edges: Iterable<GraphEdge>;
  readonly groups?: readonly GraphGroup[];
  readonly verified?: boolean | null;
  readonly unreadable?: boolean;
  readonly notes?: readonly string[];
}

/** A label of at most {@link MAX_LABEL_CHARS} characters, whitespace runs folded to one space. */
function graphLabel(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > MAX_LABEL_CHARS ? `${flat.slice(0, MAX_LABEL_CHARS - 1)}…` : flat;
}

/**
 * The edges kept (at most {@link MAX_GRAPH_EDGES}, repeats dropped), those naming no task (as many
 * again), and the notes that count the rest. The de-duplication set holds only what is kept, so a
 * plan of millions of dependencies costs one pass and no more memory than the cap; past the cap an
 * entry is counted (repeats of kept edges excepted, repeats among themselves not told apart).
 */
function keptEdges(
  input: Iterable<GraphEdge>,
  ids: ReadonlySet<string>,
  cutIds: ReadonlySet<string>,
): { edges: GraphEdge[]; dangling: GraphEdge[]; edgeNotes: string[] } {
  const edges: GraphEdge[] = [];
  const dangling: GraphEdge[] = [];
  const seen = new Set<string>();
  let cutEdges = 0;
  let toCutTasks = 0;
  let moreDangling = 0;
  const cutIdsFull = cutIds.size >= MAX_CUT_IDS;
  for (const e of input) {
    if (!ids.has(e.from) || !ids.has(e.to)) {
      if ((cutIds.has(e.from) || ids.has(e.from)) && (cutIds.has(e.to) || ids.has(e.to))) toCutTasks++;
      else if (cutIdsFull) toCutTasks++;
      else if (dangling.length >= MAX_GRAPH_EDGES) moreDangling++;
      else {
        const key = JSON.stringify([e.from, e.to]);
        if (!seen.has(key)) {
          seen.add(key);
          dangling.push({ from: e.from, to: e.to });
        }
      }
      continue;
    }
    const key = JSON.stringify([e.from, e.to]);
    if (seen.has(key)) continue;
    if (edges.length >= MAX_GRAPH_EDGES) cutEdges++;
    else {
      seen.add(key);
      edges.push({ from: e.from, to: e.to });
    }
  }
  const edgeNotes: string[] = [];
  if (cutEdges > 0) {
    edgeNotes.push(
      `only the first ${MAX_GRAPH_EDGES} dependencies are drawn (${cutEdges} more dependency entries past the cap; repeats among them not told apart).`,
    );
  }
  if (toCutTasks > 0) {
    edgeNotes.push(
      `${toCutTasks} dependencies involve tasks past the ${MAX_GRAPH_NODES}-task cap${cutIdsFull ? " (or name no task: too many cut tasks to tell)" : ""}; they are not drawn.`,
    );
  }
  if (moreDangling > 0) {
    edgeNotes.push(`${moreDangling} more dependencies name no task than the ${MAX_GRAPH_EDGES} listed.`);
  }
  return { edges, dangling, edgeNotes };
}

/**
 * Normalises a source's nodes and edges: the first node of an id wins, self-duplicates and repeated
 * edges are dropped, edges to unknown ids go to `dangling`, and both lists are capped (with a note).
 */
export function buildPlanGraph(input: PlanGraphInput): PlanGraph {
  const notes = [...(input.notes ?? [])];
  const nodes: GraphNode[] = [];
  const ids = new Set<string>();
  // Ids of the tasks past the node cap, so an edge to one counts as cut, not as naming no task.
  const allIds = new Set<string>();
  let duplicates = 0;
  const duplicateIds = new Set<string>();
  let cutNodes = 0;
  for (const n of input.nodes) {
    if (ids.has(n.id) || allIds.has(n.id)) {
      duplicates++;
      if (duplicateIds.size < MAX_GRAPH_NODES) duplicateIds.add(n.id);
    } else if (nodes.length >= MAX_GRAPH_NODES) {
      cutNodes++;
      if (allIds.size < MAX_CUT_IDS) allIds.add(n.id);
    } else {
      ids.add(n.id);
      nodes.push({ ...n, label: graphLabel(n.label) });
    }
  }
  if (duplicates > 0) notes.push(`${duplicates} task(s) repeat an earlier id; only the first of each is drawn.`);
  if (cutNodes > 0) notes.push(`only the first ${MAX_GRAPH_NODES} tasks are drawn (${cutNodes} more).`);
  const { edges, dangling, edgeNotes } = keptEdges(input.edges, ids, allIds);
  notes.push(...edgeNotes);
  const groupIds = new Set<string>();
  const groups: GraphGroup[] = [];
  for (const g of input.groups ?? []) {
    if (groupIds.has(g.id) || groups.length >= MAX_GRAPH_NODES) continue;
    groupIds.add(g.id);
    groups.push({ id: g.id, label: graphLabel(g.label) });
  }
  return {
    kind: input.kind,
    path: input.path,
    nodes,
    edges,
    groups,
    duplicateIds: [...duplicateIds],
    dangling,
    verified: input.unreadable ? false : (input.verified ?? null),
    unreadable: input.unreadable ?? false,
    notes,
  };
}
