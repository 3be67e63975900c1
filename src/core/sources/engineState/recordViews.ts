/**
 * The key fields of the two record kinds, for tree labels: a `DerivedRecognizer`
 * (`pattern`, `teaching_set_id`, `constant_features`, `absent_features`) and a
 * `DiscoveryCandidate` (`candidate_id`, `proposed_chain`, `trigger`, `review_state`, …).
 * Records of an unexpected shape still get a label; nothing here throws.
 */
import { isPyObject, type PyObject, type PyValue } from "../../pyjson/pyValue";
import type { SourceProblem } from "../stateSource";
import { canonicalDump } from "./canonicalJsonLine";
import { displayValue, shortId } from "../../text/displayText";
import { FirstLineIndex } from "./firstLineIndex";

/** Hook for checks that look across lines (duplicate ids); returns problems for this line. */
export type RecordVisitor = (value: PyValue, lineNo: number) => readonly Omit<SourceProblem, "file">[];

/** What a tree node shows of a record. */
export interface RecordView {
  readonly label: string;
  readonly description: string;
  /** `key: value` lines for the tooltip (values already made visible). */
  readonly details: readonly string[];
}

function field(record: PyObject, key: string): PyValue | undefined {
  return record.get(key);
}

function text(v: PyValue | undefined, max = 80): string {
  if (v === undefined) return "—";
  return displayValue(typeof v === "string" ? v : canonicalDump(v, false), max);
}

/** `‹agent› has ‹count:int› ‹unit›` from a recognizer's pattern. */
function patternText(pattern: PyValue | undefined): string | null {
  if (!Array.isArray(pattern)) return null;
  const parts = pattern.slice(0, 12).map((element) => {
    if (!isPyObject(element)) return "?";
    if (element.get("kind") === "constant") return text(element.get("token"), 30);
    const type = element.get("slot_type");
    const name = text(element.get("feature_name"), 30);
    return type === "str" || type === undefined ? `‹${name}›` : `‹${name}:${text(type, 12)}›`;
  });
  return parts.join(" ") + (pattern.length > 12 ? " …" : "");
}

/** A recognizer line's view. */
export function recognizerView(value: PyValue): RecordView {
  if (!isPyObject(value)) return { label: `not a recognizer object: ${text(value, 40)}`, description: "", details: [] };
  const id = field(value, "teaching_set_id");
  const constants = field(value, "constant_features");
  const absent = field(value, "absent_features");
  const count = (v: PyValue | undefined): number => (isPyObject(v) ? v.size : 0);
  return {
    label: patternText(field(value, "pattern")) ?? "(no pattern)",
    description: `${typeof id === "string" ? shortId(id) : "no teaching_set_id"} · ${count(constants)} constant, ${count(absent)} absent`,
    details: [
      `teaching_set_id: ${text(id, 100)}`,
      `constant_features: ${text(constants, 300)}`,
      `absent_features: ${text(absent, 300)}`,
    ],
  };
}

/** A discovery candidate line's view. */
export function candidateView(value: PyValue): RecordView {
  if (!isPyObject(value)) return { label: `not a candidate object: ${text(value, 40)}`, description: "", details: [] };
  const id = field(value, "candidate_id");
  const chain = field(value, "proposed_chain");
  const subject = isPyObject(chain) ? chain.get("subject") : undefined;
  const intent = isPyObject(chain) ? chain.get("intent") : undefined;
  const tags = [field(value, "trigger"), field(value, "review_state"), field(value, "domain"), field(value, "polarity")]
    .filter((v) => v !== undefined)
    .map((v) => text(v, 30));
  return {
    label:
      subject === undefined && intent === undefined
        ? "(no proposed chain)"
        : `${text(subject, 40)} · ${text(intent, 20)}`,
    description: [typeof id === "string" ? shortId(id) : "no candidate_id", ...tags].join(" · "),
    details: [
      `candidate_id: ${text(id, 100)}`,
      `proposed_chain: ${text(chain, 300)}`,
      `pack_consistent: ${text(field(value, "pack_consistent"))} · boundary_clean: ${text(field(value, "boundary_clean"))}`,
      `source_turn_trace: ${text(field(value, "source_turn_trace"), 100)}`,
    ],
  };
}

/** A visitor that warns at every candidate whose `candidate_id` an earlier line already had. */
export function duplicateCandidateIds(rel: string): RecordVisitor {
  const firstLine = new FirstLineIndex(); // bytes per id, never the line it was parsed from
  return (value, lineNo) => {
    const id = isPyObject(value) ? value.get("candidate_id") : undefined;
    if (typeof id !== "string") return [];
    const first = firstLine.firstOrAdd(id, lineNo);
    if (first === undefined) return [];
    const problem: Omit<SourceProblem, "file"> = {
      line: lineNo,
      severity: "warning",
      code: "duplicate_candidate_id",
      message: `${rel} line ${lineNo} repeats candidate_id ${shortId(id, 16)} of line ${first}: the working set holds each candidate once; the loader keeps both copies.`,
    };
    return [problem];
  };
}
