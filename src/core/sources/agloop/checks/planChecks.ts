/**
 * `.agloop/plan.yaml`: read with the `yaml` package (node ranges + a LineCounter, so problems point
 * at lines; YAML errors are `invalid_yaml` and a document that does not parse is not checked
 * further) and checked: the planner's schema (plan_id format, enums, required fields), timestamps
 * in order, DAG edges between known tasks, no dependency cycle, and agreement with state.json.
 */
import { LineCounter, isMap, isScalar, isSeq, parseDocument, type Document } from "yaml";
import type { SourceProblem } from "../../stateSource";
import { AGLOOP_LIMITS, PLAN_FILE, readAgloopFile } from "../agloopFiles";
import { planSchema } from "./agloopSchemas";
import { asArray, asRecord, asString, quoteForMessage } from "../agloopText";
import { findCycles, type DependencyEdge } from "./dependencyGraph";
import type { JsonPath } from "../../../text/jsonOffsets";
import { problemsFromIssues, type FieldCode, type ValueLocator } from "./schemaProblems";
import { pushAll } from "../../sourceProblems";
import { labelText } from "../../../text/untrustedText";

/** The plan file as read. */
export type PlanRead =
  | { readonly kind: "missing" }
  | { readonly kind: "refused"; readonly problem: SourceProblem }
  | { readonly kind: "invalid"; readonly problems: readonly SourceProblem[] }
  | { readonly kind: "ok"; readonly value: unknown; readonly where: ValueLocator };

/** A locator over a parsed YAML document. */
function yamlLocator(doc: Document, lines: LineCounter): ValueLocator {
  const lineAt = (path: JsonPath): number | null => {
    for (let depth = path.length; depth >= 0; depth--) {
      const node = depth === 0 ? doc.contents : doc.getIn([...path.slice(0, depth)], true);
      const range = (node as { range?: [number, number, number] } | null | undefined)?.range;
      if (range) return lines.linePos(range[0]).line;
    }
    return null;
  };
  return { file: PLAN_FILE, lineAt, lineOfKey: (path, key) => lineAt([...path, key]) };
}

/** Reads and parses plan.yaml (YAML 1.2 core schema: timestamps stay strings; alias expansion capped). */
export async function readPlanFile(workspace: string): Promise<PlanRead> {
  const read = await readAgloopFile(workspace, PLAN_FILE, AGLOOP_LIMITS.planBytes);
  if (read.kind !== "ok") return read;
  const lines = new LineCounter();
  // uniqueKeys: the yaml package compares every key of a map with every other (quadratic: a 512 KB map took
  // minutes); duplicateKeys below does the same check with a Set.
  const doc = parseDocument(read.text, { lineCounter: lines, prettyErrors: true, uniqueKeys: false });
  if (doc.errors.length === 0) {
    const dups = duplicateKeys(doc, lines);
    if (dups.length > 0) return { kind: "invalid", problems: dups };
  }
  if (doc.errors.length > 0) {
    return {
      kind: "invalid",
      problems: doc.errors.slice(0, 20).map((e) => ({
        file: PLAN_FILE,
        line: e.linePos?.[0]?.line ?? null,
        column: e.linePos?.[0]?.col,
        severity: "error" as const,
        code: "invalid_yaml",
        message: `plan.yaml is not valid YAML: ${labelText(e.message.split("\n")[0].replace(/ at line \d+, column \d+:?$/, ""), 160)}. The planner must rewrite the file; nothing else in it was checked.`,
      })),
    };
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 100 });
  } catch (e) {
    return {
      kind: "invalid",
      problems: [
        {
          file: PLAN_FILE,
          line: null,
          severity: "error",
          code: "invalid_yaml",
          message: `plan.yaml cannot be read: ${labelText(String((e as Error).message), 160)}.`,
        },
      ],
    };
  }
  return { kind: "ok", value, where: yamlLocator(doc, lines) };
}

/** The first 20 repeated keys of any map of `doc` (what `uniqueKeys: true` reports), found in one pass. */
function duplicateKeys(doc: Document, lines: LineCounter): SourceProblem[] {
  const out: SourceProblem[] = [];
  const stack: unknown[] = [doc.contents];
  while (stack.length > 0 && out.length < 20) {
    const node = stack.pop();
    if (isSeq(node)) for (const item of node.items) stack.push(item);
    else if (isMap(node)) {
      const seen = new Set<string>();
      for (const pair of node.items) {
        const key = pair.key;
        if (isScalar(key)) {
          const id = `${typeof key.value}:${String(key.value)}`;
          if (seen.has(id) && out.length < 20) {
            const at = key.range ? lines.linePos(key.range[0]) : undefined;
            out.push({
              file: PLAN_FILE,
              line: at?.line ?? null,
              column: at?.col,
              severity: "error",
              code: "invalid_yaml",
              message: `plan.yaml is not valid YAML: Map keys must be unique (${quoteForMessage(String(key.value))} is repeated). The planner must rewrite the file; nothing else in it was checked.`,
            });
          }
          seen.add(id);
        }
        stack.push(pair.value);
      }
    }
  }
  return out;
}

const planFieldCode: FieldCode = (path, issue, missing) => {
  const [top, index, field] = path;
  if (missing) return "missing_field";
  if (top === "plan_id") return "plan_id_format";
  if (top === "tasks" && typeof index === "number") {
    if (field === "id" && path.length === 3) return "task_id_format";
    if (field === "acceptance_criteria" && issue.code === "too_small") return "missing_acceptance_criteria";
  }
  return undefined;
};

/** The tasks and dependencies of a state.json, for the plan ↔ state comparison. */
export interface StateTaskView {
  readonly ids: ReadonlySet<string>;
  readonly dependsOn: ReadonlyMap<string, readonly string[]>;
}

/** Every problem of a parsed plan.yaml; `state` is null when state.json has no tasks to compare. */
export function checkPlan(plan: unknown, where: ValueLocator, state: StateTaskView | null): SourceProblem[] {
  const problems: SourceProblem[] = [];
  const parsed = planSchema.safeParse(plan);
  if (!parsed.success) pushAll(problems, problemsFromIssues(parsed.error.issues, plan, where, planFieldCode));
  const root = asRecord(plan);
  if (!root) return problems;
  const created = asString(root.created_at);
  const updated = asString(root.updated_at);
  for (const [key, text] of [
    ["created_at", created],
    ["updated_at", updated],
  ] as const) {
    if (text !== undefined && Number.isNaN(Date.parse(text))) {
      problems.push({
        file: where.file,
        line: where.lineAt([key]),
        severity: "error",
        code: "timestamp_order",
        message: `${key} ${quoteForMessage(text)} is not an ISO 8601 timestamp.`,
      });
    }
  }
  if (created !== undefined && updated !== undefined && Date.parse(updated) < Date.parse(created)) {
    problems.push({
      file: where.file,
      line: where.lineAt(["updated_at"]),
      severity: "error",
      code: "timestamp_order",
      message: `updated_at ${quoteForMessage(updated)} is earlier than created_at ${quoteForMessage(created)}; expected updated_at ≥ created_at.`,
    });
  }
  const tasks = asArray(root.tasks).map(asRecord);
  const ids = new Map<string, number>();
  const edges: DependencyEdge[] = [];
  tasks.forEach((task, i) => {
    const id = asString(task?.id);
    if (id === undefined) return;
    if (ids.has(id)) {
      problems.push({
        file: where.file,
        line: where.lineAt(["tasks", i, "id"]),
        severity: "error",
        code: "duplicate_task_id",
        message: `tasks[${i}].id ${quoteForMessage(id)} is used twice in plan.yaml; ids must be unique.`,
      });
    } else ids.set(id, i);
  });
  tasks.forEach((task, i) => {
    const id = asString(task?.id);
    asArray(task?.depends_on).forEach((dep, j) => {
      if (typeof dep !== "string" || id === undefined) return;
      if (!ids.has(dep)) {
        problems.push({
          file: where.file,
          line: where.lineAt(["tasks", i, "depends_on", j]),
          severity: "error",
          code: "unknown_dependency",
          message: `${quoteForMessage(id)} depends on ${quoteForMessage(dep)}, which is not a task of plan.yaml.`,
        });
      } else edges.push({ from: id, to: dep, path: ["tasks", i, "depends_on", j] });
    });
  });
  asArray(root.dag_edges).forEach((edge, i) => {
    const pair = asArray(edge);
    const [from, to] = [asString(pair[0]), asString(pair[1])];
    let known = true;
    [from, to].forEach((end, k) => {
      if (end !== undefined && !ids.has(end)) {
        known = false;
        problems.push({
          file: where.file,
          line: where.lineAt(["dag_edges", i, k]),
          severity: "error",
          code: "dag_edge_unknown_task",
          message: `dag_edges[${i}] ${quoteForMessage(pair)} names ${quoteForMessage(end)}, which is not a task of plan.yaml; both ends of an edge must exist.`,
        });
      }
    });
    // [from, to]: `to` depends on `from`.
    if (known && from !== undefined && to !== undefined) edges.push({ from: to, to: from, path: ["dag_edges", i] });
  });
  for (const cycle of findCycles(edges)) {
    problems.push({
      file: where.file,
      line: where.lineAt(cycle.closing.path),
      severity: "error",
      code: "dependency_cycle",
      message: `plan.yaml's dependencies form a cycle: ${cycle.ids.join(" → ")}; no task of it can start. Remove one dependency or edge.`,
    });
  }
  if (state) pushAll(problems, comparePlanToState(tasks, where, state));
  return problems;
}

/** plan_state_mismatch: tasks or dependencies that differ between plan.yaml and state.json. */
function comparePlanToState(
  tasks: readonly (Record<string, unknown> | undefined)[],
  where: ValueLocator,
  state: StateTaskView,
): SourceProblem[] {
  const out: SourceProblem[] = [];
  const warn = (line: number | null, message: string): void => {
    out.push({ file: where.file, line, severity: "warning", code: "plan_state_mismatch", message });
  };
  const planIds = new Set<string>();
  tasks.forEach((task, i) => {
    const id = asString(task?.id);
    if (id === undefined) return;
    planIds.add(id);
    if (!state.ids.has(id)) {
      warn(
        where.lineAt(["tasks", i, "id"]),
        `${quoteForMessage(id)} is in plan.yaml but not in state.json's tasks; the coordinator has not taken it over (or it was dropped).`,
      );
      return;
    }
    const planDeps = asArray(task?.depends_on).filter((d): d is string => typeof d === "string");
    const stateDeps = state.dependsOn.get(id) ?? [];
    const same = planDeps.length === stateDeps.length && planDeps.every((d) => stateDeps.includes(d));
    if (!same) {
      warn(
        where.lineAt(["tasks", i, "depends_on"]),
        `${quoteForMessage(id)} depends on ${quoteForMessage(planDeps)} in plan.yaml but on ${quoteForMessage(stateDeps)} in state.json.`,
      );
    }
  });
  const missing = [...state.ids].filter((id) => !planIds.has(id));
  if (missing.length > 0) {
    warn(where.lineAt(["tasks"]), `state.json has task(s) ${quoteForMessage(missing)} that plan.yaml does not list.`);
  }
  return out;
}
