/**
 * Reads `.agloop/plan.yaml` with the `yaml` package, keeping node ranges and a LineCounter so
 * problems point at lines. YAML errors are reported as `invalid_yaml` and nothing else is checked
 * on a document that does not parse (a half-parsed plan would give wrong findings).
 */
import { LineCounter, parseDocument, type Document } from "yaml";
import type { SourceProblem } from "../stateSource";
import { AGLOOP_LIMITS, PLAN_FILE, readGuarded } from "./agloopFiles";
import { oneLine } from "./agloopText";
import type { JsonPath } from "./jsonPositions";
import type { ValueLocator } from "./schemaProblems";

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
  const read = await readGuarded(workspace, PLAN_FILE, AGLOOP_LIMITS.planBytes);
  if (read.kind !== "ok") return read;
  const lines = new LineCounter();
  const doc = parseDocument(read.text, { lineCounter: lines, prettyErrors: true, uniqueKeys: true });
  if (doc.errors.length > 0) {
    return {
      kind: "invalid",
      problems: doc.errors.slice(0, 20).map((e) => ({
        file: PLAN_FILE,
        line: e.linePos?.[0]?.line ?? null,
        column: e.linePos?.[0]?.col,
        severity: "error" as const,
        code: "invalid_yaml",
        message: `plan.yaml is not valid YAML: ${oneLine(e.message.split("\n")[0].replace(/ at line \d+, column \d+:?$/, ""), 160)}. The planner must rewrite the file; nothing else in it was checked.`,
      })),
    };
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 100 });
  } catch (e) {
    return { kind: "invalid", problems: [{ file: PLAN_FILE, line: null, severity: "error", code: "invalid_yaml", message: `plan.yaml cannot be read: ${oneLine(String((e as Error).message), 160)}.` }] };
  }
  return { kind: "ok", value, where: yamlLocator(doc, lines) };
}
