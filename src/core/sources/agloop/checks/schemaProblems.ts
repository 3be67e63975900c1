/**
 * Turns zod issues into problems with agloop's codes, at the line of the offending value.
 * The code depends on the field (iteration → iteration_range, tasks[].id → task_id_format, …)
 * and on the issue (a missing key → missing_field, a value outside an enum → invalid_enum).
 */
import type * as z from "zod";
import type { ProblemSeverity, SourceProblem } from "../../stateSource";
import type { JsonPath } from "../../../text/jsonOffsets";
import { describeType, quoteForMessage } from "../agloopText";
import { PROBLEMS_PER_FILE } from "../../sourceProblems";

/** Where values are, for one file. */
export interface ValueLocator {
  readonly file: string;
  /** The line of the value at `path` (or of its nearest existing ancestor). */
  lineAt(path: JsonPath): number | null;
  /** The line of the key `key` in the object at `path`. */
  lineOfKey(path: JsonPath, key: string): number | null;
}

/** Overrides the code of an issue by field; returns undefined to use the generic code. */
export type FieldCode = (path: JsonPath, issue: z.core.$ZodIssue, missing: boolean) => string | undefined;

/** The value at `path` inside `root`, or undefined. */
function valueAt(root: unknown, path: JsonPath): unknown {
  let cur: unknown = root;
  for (const key of path) {
    if (cur === null || typeof cur !== "object") return undefined;
    if (!Object.prototype.hasOwnProperty.call(cur, key)) return undefined;
    cur = (cur as Record<string | number, unknown>)[key];
  }
  return cur;
}

/** A readable path: tasks[3].depends_on[0]. */
function showPath(path: JsonPath): string {
  let out = "";
  for (const key of path) out += typeof key === "number" ? `[${key}]` : out ? `.${key}` : key;
  return out || "(root)";
}

/** What an issue expected, in words. */
function expectation(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case "invalid_value":
      return `one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}`;
    case "invalid_format":
      return `a value matching ${"pattern" in issue ? String(issue.pattern) : issue.format}`;
    case "too_big":
      return issue.origin === "string"
        ? `at most ${String(issue.maximum)} characters`
        : `at most ${String(issue.maximum)}${issue.origin === "array" ? " items" : ""}`;
    case "too_small":
      return issue.origin === "array"
        ? `at least ${String(issue.minimum)} item(s)`
        : `at least ${String(issue.minimum)}`;
    case "invalid_type":
      return issue.expected === "int"
        ? "an integer"
        : `${/^[aeiou]/.test(issue.expected) ? "an" : "a"} ${issue.expected}`;
    default:
      return issue.message;
  }
}

/** Problems for every issue of a failed safeParse of `root`. */
export function problemsFromIssues(
  issues: readonly z.core.$ZodIssue[],
  root: unknown,
  where: ValueLocator,
  fieldCode: FieldCode,
  severity: ProblemSeverity = "error",
  limit = PROBLEMS_PER_FILE,
): SourceProblem[] {
  const out: SourceProblem[] = [];
  if (issues.length > limit) {
    out.push({
      file: where.file,
      line: null,
      severity,
      code: "more_schema_issues",
      message: `${issues.length - limit} more schema issues in ${where.file} than the ${limit} listed; fix the ones listed and check again.`,
    });
  }
  for (const issue of issues.slice(0, limit)) {
    if (out.length >= limit) break;
    const path = issue.path.filter((k): k is string | number => typeof k !== "symbol");
    if (issue.code === "unrecognized_keys") {
      // One issue can name 80,000 keys; each is located (a lookup that is linear in the map), so only `limit` are.
      if (issue.keys.length > limit - out.length) {
        out.push({
          file: where.file,
          line: where.lineAt(path),
          severity: "warning",
          code: "unknown_field",
          message: `${showPath(path)} has ${issue.keys.length} keys that are not fields of the agloop schema; only the first ${Math.max(0, limit - out.length - 1)} are listed.`,
        });
      }
      for (const key of issue.keys.slice(0, Math.max(0, limit - out.length))) {
        out.push({
          file: where.file,
          line: where.lineOfKey(path, key),
          severity: "warning",
          code: "unknown_field",
          message: `${showPath([...path, key])} is not a field of the agloop schema; it is kept but not shown. Check the key's spelling.`,
        });
      }
      continue;
    }
    if (issue.code === "invalid_union") {
      out.push({
        file: where.file,
        line: where.lineAt(path),
        severity,
        code: "invalid_type",
        message: `${showPath(path)} has an unexpected shape: ${issue.message}.`,
      });
      continue;
    }
    const found = valueAt(root, path);
    const missing = issue.code === "invalid_type" && found === undefined;
    const code =
      fieldCode(path, issue, missing) ??
      (missing ? "missing_field" : issue.code === "invalid_value" ? "invalid_enum" : "invalid_type");
    const message = missing
      ? `${showPath(path)} is missing; expected ${expectation(issue)}. Add the field (the protocol requires it).`
      : `${showPath(path)} is ${quoteForMessage(found)}${found === undefined ? "" : ` (${describeType(found)})`}; expected ${expectation(issue)}.`;
    out.push({
      file: where.file,
      line: missing ? where.lineAt(path.slice(0, -1)) : where.lineAt(path),
      severity,
      code,
      message,
    });
  }
  return out;
}
