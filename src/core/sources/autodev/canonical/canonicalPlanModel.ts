/**
 * Plan models built without the general validator, for plans known to be in
 * exact dumped form: from parsed values ({@link exactPlanModel}) or from the
 * canonical bytes the ledger fast path proved ({@link exactPlanFromCanonical}).
 * Also the switch that turns every fast path off should the schemas' fields change.
 */
import {
  AcceptanceCriterion,
  AcceptanceCriterionSchema,
  LedgerEntrySchema,
  Phase,
  PhaseSchema,
  Plan,
  PlanSchema,
  TASK_STATUSES,
  Task,
  TaskSchema,
} from "../plan/schemas";
import { parsePyJson } from "../../../pyjson/pyJsonParse";
import { PyFloat, PyObject, PyValue } from "../../../pyjson/pyValue";
import { PlanSkeleton } from "./canonicalPlanLayout";

const PLAN_FIELDS = ["plan_id", "spec_hash", "phases", "metadata", "created_at", "updated_at", "content_hash"];
const PHASE_FIELDS = ["id", "title", "description", "tasks"];
const TASK_FIELDS = [
  "id",
  "phase_id",
  "title",
  "description",
  "status",
  "files",
  "acceptance",
  "depends_on",
  "retry_count",
  "escalated",
  "assigned_agent",
  "evidence_bundle",
  "blocked_reason",
  "metadata",
];
const CRITERION_FIELDS = ["id", "description", "met"];
const ENTRY_FIELDS = ["seq", "timestamp", "session_id", "op", "payload", "prev_hash", "self_hash"];
const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * The fast paths hard-code the models' fields (design §3.3). Should the
 * schemas change, they switch themselves off (everything takes the full path)
 * rather than disagree with it.
 */
export const FAST_PATHS_MATCH_SCHEMAS =
  sameList(PlanSchema.fieldNames, PLAN_FIELDS) &&
  sameList(PhaseSchema.fieldNames, PHASE_FIELDS) &&
  sameList(TaskSchema.fieldNames, TASK_FIELDS) &&
  sameList(AcceptanceCriterionSchema.fieldNames, CRITERION_FIELDS) &&
  sameList(LedgerEntrySchema.fieldNames, ENTRY_FIELDS);

const STATUS_SET: ReadonlySet<unknown> = new Set(TASK_STATUSES);
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

let trustedStrings = false;
const isStr = (v: PyValue | undefined): v is string =>
  typeof v === "string" && (trustedStrings || !LONE_SURROGATE.test(v));
const isInt = (v: PyValue | undefined): v is number | bigint =>
  typeof v === "bigint" || (typeof v === "number" && Number.isInteger(v));
const isStrOrNull = (v: PyValue | undefined): v is string | null => v === null || isStr(v);

function strArray(v: PyValue | undefined): string[] | null {
  if (!Array.isArray(v)) return null;
  const out: string[] = [];
  for (const x of v) {
    if (!isStr(x)) return null;
    out.push(x);
  }
  return out;
}

function exactCriterion(v: PyValue): AcceptanceCriterion | null {
  if (!(v instanceof Map) || v.size !== 3) return null;
  const id = v.get("id");
  const description = v.get("description");
  const met = v.get("met");
  if (!isStr(id) || !isStr(description) || typeof met !== "boolean") return null;
  return { id, description, met };
}

function exactTask(v: PyValue): Task | null {
  if (!(v instanceof Map) || v.size !== 14) return null;
  const id = v.get("id");
  const phase_id = v.get("phase_id");
  const title = v.get("title");
  const description = v.get("description");
  const status = v.get("status");
  const files = strArray(v.get("files"));
  const acceptanceIn = v.get("acceptance");
  const depends_on = strArray(v.get("depends_on"));
  const retry_count = v.get("retry_count");
  const escalated = v.get("escalated");
  const assigned_agent = v.get("assigned_agent");
  const evidence_bundle = v.get("evidence_bundle");
  const blocked_reason = v.get("blocked_reason");
  const metadata = v.get("metadata");
  if (!isStr(id) || !isStr(phase_id) || !isStr(title) || !isStr(description) || !STATUS_SET.has(status)) return null;
  if (
    files === null ||
    depends_on === null ||
    !Array.isArray(acceptanceIn) ||
    !isInt(retry_count) ||
    typeof escalated !== "boolean"
  ) {
    return null;
  }
  if (
    !isStrOrNull(assigned_agent) ||
    !isStrOrNull(evidence_bundle) ||
    !isStrOrNull(blocked_reason) ||
    !(metadata instanceof Map)
  ) {
    return null;
  }
  const acceptance: AcceptanceCriterion[] = [];
  for (const a of acceptanceIn) {
    const c = exactCriterion(a);
    if (c === null) return null;
    acceptance.push(c);
  }
  return {
    id,
    phase_id,
    title,
    description,
    status: status as Task["status"],
    files,
    acceptance,
    depends_on,
    retry_count,
    escalated,
    assigned_agent,
    evidence_bundle,
    blocked_reason,
    metadata: new Map(metadata),
  };
}

function exactPhase(v: PyValue): Phase | null {
  if (!(v instanceof Map) || v.size !== 4) return null;
  const id = v.get("id");
  const title = v.get("title");
  const description = v.get("description");
  const tasksIn = v.get("tasks");
  if (!isStr(id) || !isStr(title) || !isStr(description) || !Array.isArray(tasksIn)) return null;
  const tasks: Task[] = [];
  for (const t of tasksIn) {
    const task = exactTask(t);
    if (task === null) return null;
    tasks.push(task);
  }
  return { id, title, description, tasks };
}

/**
 * `validatePlan(v)`'s model, without the general validator, when `v` is a
 * Plan in exact form — every field present with its exact type (nothing to
 * coerce or default), no extra key, no lone surrogate; null otherwise (then
 * call `validatePlan`). `trusted`: the strings are known to hold no lone
 * surrogate (they come from bytes the fast path proved).
 */
export function exactPlanModel(v: PyValue, trusted = false): Plan | null {
  if (!FAST_PATHS_MATCH_SCHEMAS || !(v instanceof Map) || v.size !== 7) return null;
  trustedStrings = trusted;
  try {
    const plan_id = v.get("plan_id");
    const spec_hash = v.get("spec_hash");
    const phasesIn = v.get("phases");
    const metadata = v.get("metadata");
    const created_at = v.get("created_at");
    const updated_at = v.get("updated_at");
    const content_hash = v.get("content_hash");
    if (!isStr(plan_id) || !isStr(spec_hash) || !Array.isArray(phasesIn) || !(metadata instanceof Map)) return null;
    if (!isStr(created_at) || !isStr(updated_at) || !isStr(content_hash)) return null;
    const phases: Phase[] = [];
    for (const p of phasesIn) {
      const phase = exactPhase(p);
      if (phase === null) return null;
      phases.push(phase);
    }
    return { plan_id, spec_hash, phases, metadata: new Map(metadata), created_at, updated_at, content_hash };
  } finally {
    trustedStrings = false;
  }
}

// ------------------------------------------------------------ exact plans from canonical bytes

type Json = { [k: string]: never };

/**
 * The Plan model of a payload.plan the fast path proved exact (`text`: its
 * canonical bytes as a string, `skeleton`: what the fast path returned for
 * it), built with the native JSON parser: the structure is known to be
 * exactly the model's, so only the metadata dicts (whose int/float
 * distinction, key order and big ints need the Python-exact parser) are
 * parsed by `parsePyJson`. Null when a retry_count is too big for a double
 * (then use `parsePyJson` + `exactPlanModel`).
 */
export function exactPlanFromCanonical(text: string, skeleton: PlanSkeleton): Plan | null {
  if (!FAST_PATHS_MATCH_SCHEMAS) return null;
  const ranges = skeleton.metadataRanges;
  // Tasks often share their metadata text: parse each text once, and copy it
  // when its values are immutable (a nested dict or list is parsed afresh).
  const flat = new Map<string, PyObject>();
  const dict = (k: number): PyObject => {
    const s = ranges[k];
    const e = ranges[k + 1];
    if (e - s === 2) return new Map();
    const src = text.slice(s, e);
    const known = flat.get(src);
    if (known !== undefined) return new Map(known);
    const parsed = parsePyJson(src) as PyObject;
    let immutable = true;
    for (const v of parsed.values()) {
      if (v !== null && typeof v === "object" && !(v instanceof PyFloat)) immutable = false;
    }
    if (immutable) flat.set(src, parsed);
    return new Map(parsed);
  };
  const raw = JSON.parse(text) as Json;
  const phasesIn = raw.phases as unknown as Json[];
  const phases: Phase[] = [];
  let position = 0;
  for (const ph of phasesIn) {
    const tasksIn = ph.tasks as unknown as Json[];
    const tasks: Task[] = [];
    for (const t of tasksIn) {
      const retry = t.retry_count as unknown as number;
      if (!Number.isSafeInteger(retry) || retry >= 1e15 || retry <= -1e15) return null;
      const acceptance = (t.acceptance as unknown as Json[]).map((a): AcceptanceCriterion => ({
        id: a.id,
        description: a.description,
        met: a.met,
      }));
      tasks.push({
        id: t.id,
        phase_id: t.phase_id,
        title: t.title,
        description: t.description,
        status: t.status,
        files: t.files,
        acceptance,
        depends_on: t.depends_on,
        retry_count: retry === 0 ? 0 : retry,
        escalated: t.escalated,
        assigned_agent: t.assigned_agent,
        evidence_bundle: t.evidence_bundle,
        blocked_reason: t.blocked_reason,
        metadata: dict(2 + 2 * position),
      });
      position++;
    }
    phases.push({ id: ph.id, title: ph.title, description: ph.description, tasks });
  }
  if (position !== skeleton.ids.length) return null;
  return {
    plan_id: raw.plan_id,
    spec_hash: raw.spec_hash,
    phases,
    metadata: dict(0),
    created_at: raw.created_at,
    updated_at: raw.updated_at,
    content_hash: raw.content_hash,
  };
}
