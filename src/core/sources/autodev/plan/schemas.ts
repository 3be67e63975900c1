/**
 * The plan and ledger boundary models (design §3.3), validated like pydantic v2
 * with `extra="forbid"`, and dumped like `model_dump(mode="json")`.
 *
 * Validation takes a {@link PyValue} (as `json.loads` would have produced it) and
 * never throws. Dumps produce a {@link PyObject} with keys in model field order,
 * ready for `dumpsIndent2` (plan.json) or `dumpsSorted` (ledger lines, hashes).
 */
import * as z from "zod";
import {
  PyValidated,
  pyBool,
  pyDict,
  pyInt,
  pyList,
  pyLiteral,
  pyModel,
  pyNullable,
  pyStr,
  pyValidate,
} from "../../../pyjson/pyCoerce";
import { PyFloat, PyObject, PyValue, isPyObject } from "../../../pyjson/pyValue";

// ---------------------------------------------------------------- models

export { LEDGER_OPS, TASK_STATUSES } from "./planConstants";
export type { LedgerOp } from "./planConstants";
import { LEDGER_OPS, TASK_STATUSES } from "./planConstants";

/** Schema of `AcceptanceCriterion`: id, description, met=False. */
export const AcceptanceCriterionSchema = pyModel("AcceptanceCriterion", {
  id: pyStr,
  description: pyStr,
  met: pyBool.default(false),
});
/** A check-box acceptance criterion of a task. */
export type AcceptanceCriterion = z.output<typeof AcceptanceCriterionSchema>;

/** Schema of `Task`; list and dict defaults are fresh per instance. */
export const TaskSchema = pyModel("Task", {
  id: pyStr,
  phase_id: pyStr,
  title: pyStr,
  description: pyStr,
  status: pyLiteral(TASK_STATUSES).default("pending"),
  files: pyList(pyStr).default(() => []),
  acceptance: pyList(AcceptanceCriterionSchema).default(() => []),
  depends_on: pyList(pyStr).default(() => []),
  retry_count: pyInt.default(0),
  escalated: pyBool.default(false),
  assigned_agent: pyNullable(pyStr).default(null),
  evidence_bundle: pyNullable(pyStr).default(null),
  blocked_reason: pyNullable(pyStr).default(null),
  metadata: pyDict.default(() => new Map()),
});
/** A leaf unit of work. */
export type Task = z.output<typeof TaskSchema>;

/** Schema of `Phase`: id, title, description="", tasks. */
export const PhaseSchema = pyModel("Phase", {
  id: pyStr,
  title: pyStr,
  description: pyStr.default(""),
  tasks: pyList(TaskSchema),
});
/** A group of tasks delivered together. */
export type Phase = z.output<typeof PhaseSchema>;

/** Schema of `Plan`. */
export const PlanSchema = pyModel("Plan", {
  plan_id: pyStr,
  spec_hash: pyStr,
  phases: pyList(PhaseSchema),
  metadata: pyDict.default(() => new Map()),
  created_at: pyStr,
  updated_at: pyStr,
  content_hash: pyStr.default(""),
});
/** The whole execution plan. */
export type Plan = z.output<typeof PlanSchema>;

/** Schema of `LedgerEntry`; `payload` defaults to `{}`. */
export const LedgerEntrySchema = pyModel("LedgerEntry", {
  seq: pyInt,
  timestamp: pyStr,
  session_id: pyStr,
  op: pyLiteral(LEDGER_OPS),
  payload: pyDict.default(() => new Map()),
  prev_hash: pyStr,
  self_hash: pyStr,
});
/** One ledger record. */
export type LedgerEntry = z.output<typeof LedgerEntrySchema>;

/** Validates a plan (`Plan.model_validate`). */
export function validatePlan(v: PyValue): PyValidated<Plan> {
  return pyValidate(PlanSchema, v);
}

/** Validates a phase (`Phase.model_validate`). */
export function validatePhase(v: PyValue): PyValidated<Phase> {
  return pyValidate(PhaseSchema, v);
}

/** Validates a task (`Task.model_validate`). */
export function validateTask(v: PyValue): PyValidated<Task> {
  return pyValidate(TaskSchema, v);
}

/** Validates an acceptance criterion. */
export function validateAcceptanceCriterion(v: PyValue): PyValidated<AcceptanceCriterion> {
  return pyValidate(AcceptanceCriterionSchema, v);
}

/** Validates one ledger record (`LedgerEntry.model_validate`). */
export function validateLedgerEntry(v: PyValue): PyValidated<LedgerEntry> {
  return pyValidate(LedgerEntrySchema, v);
}

/** True for a validated model object (a plain object), false for any PyValue. */
function isModelObject(m: unknown): m is object {
  return m !== null && typeof m === "object" && Object.getPrototypeOf(m) === Object.prototype;
}

/** Dumps a list-of-models field element-wise (anything else is dumped as `Any`). */
function listOf<T extends object>(dump: (m: T) => PyObject): (v: unknown) => PyValue {
  return (v) =>
    Array.isArray(v)
      ? v.map((m: unknown) => (isModelObject(m) ? dump(m as T) : pyDumpAny(m as PyValue)))
      : pyDumpAny(v as PyValue);
}

/** `AcceptanceCriterion.model_dump(mode="json")`. */
export function criterionToPy(c: AcceptanceCriterion): PyObject {
  return pyDumpModel(c, AcceptanceCriterionSchema.fieldNames);
}

/** `Task.model_dump(mode="json")`: keys in field order, `metadata` in its held order. */
export function taskToPy(t: Task): PyObject {
  return pyDumpModel(t, TaskSchema.fieldNames, { acceptance: listOf(criterionToPy), metadata: pyDumpDict });
}

/** `Phase.model_dump(mode="json")`. */
export function phaseToPy(p: Phase): PyObject {
  return pyDumpModel(p, PhaseSchema.fieldNames, { tasks: listOf(taskToPy) });
}

/** `Plan.model_dump(mode="json")`: what Python writes to plan.json and into plan payloads. */
export function planToPy(plan: Plan): PyObject {
  return pyDumpModel(plan, PlanSchema.fieldNames, { phases: listOf(phaseToPy), metadata: pyDumpDict });
}

/**
 * `LedgerEntry.model_dump(mode="json")`: NaN/Infinity inside `payload` become None.
 * Throws `PyDumpError` where Python raises (a lone surrogate in a nested dict key).
 */
export function ledgerEntryToPy(entry: LedgerEntry): PyObject {
  return pyDumpModel(entry, LedgerEntrySchema.fieldNames, { payload: pyDumpDict });
}

/** What Python hashes for `self_hash` in `read_entries`: the json-mode dump without `self_hash`. */
export function ledgerEntryHashInput(entry: LedgerEntry): PyObject {
  const d = ledgerEntryToPy(entry);
  d.delete("self_hash");
  return d;
}

// ---------------------------------------------------------------- model_dump(mode="json") helpers

/**
 * The `UnicodeEncodeError` pydantic 2.13 raises from `model_dump(mode="json")` when a
 * dict nested inside an `Any` value has a key with a lone surrogate.
 */
export class PyDumpError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PyDumpError";
  }
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, "g");

/** A key of a dict nested in an `Any` value, as pydantic writes it (or raises). */
function checkNestedKey(k: string): string {
  const m = LONE_SURROGATE.exec(k);
  if (m === null) return k;
  const position = [...k.slice(0, m.index)].length;
  const hex = m[0].charCodeAt(0).toString(16);
  const reason = `can't encode character '\\u${hex}' in position ${position}: surrogates not allowed`;
  throw new PyDumpError(`UnicodeEncodeError: 'utf-8' codec ${reason}`);
}

/**
 * `model_dump(mode="json")` of an `Any` value: NaN and ±Infinity floats become None,
 * containers are copied; throws {@link PyDumpError} where pydantic raises.
 */
export function pyDumpAny(v: PyValue): PyValue {
  if (v instanceof PyFloat) return Number.isFinite(v.value) ? v : null;
  if (Array.isArray(v)) return v.map(pyDumpAny);
  if (isPyObject(v)) {
    const out: PyObject = new Map();
    for (const [k, x] of v) out.set(checkNestedKey(k), pyDumpAny(x));
    return out;
  }
  return v;
}

/**
 * `model_dump(mode="json")` of a `dict[str, Any]` field: values as {@link pyDumpAny};
 * each lone surrogate in a key becomes three U+FFFD (pydantic's lossy key encoding),
 * and keys that collide keep the first place and the last value.
 */
export function pyDumpDict(v: unknown): PyValue {
  if (!isPyObject(v)) return pyDumpAny(v as PyValue);
  const out: PyObject = new Map();
  for (const [k, x] of v) out.set(k.replace(LONE_SURROGATES, "\ufffd\ufffd\ufffd"), pyDumpAny(x));
  return out;
}

/** `model_dump(mode="json")` of a `float` field: a float, NaN/±Infinity kept; a wrong-typed value as `Any`. */
export function pyDumpFloat(v: unknown): PyValue {
  if (typeof v === "number") return new PyFloat(v);
  if (typeof v === "bigint") return new PyFloat(Number(v));
  return pyDumpAny(v as PyValue);
}

/**
 * `model_dump(mode="json")` of a model object: its fields in declaration order,
 * each through `convert[field]` when given, else as an `Any` value (which is what
 * pydantic falls back to for a field holding a value of the wrong type).
 */
export function pyDumpModel(
  obj: object,
  fields: readonly string[],
  convert: Readonly<Record<string, (v: unknown) => PyValue>> = {},
): PyObject {
  const out: PyObject = new Map();
  const rec = obj as Record<string, unknown>;
  for (const f of fields) {
    const conv = convert[f];
    out.set(f, conv ? conv(rec[f]) : pyDumpAny(rec[f] as PyValue));
  }
  return out;
}
