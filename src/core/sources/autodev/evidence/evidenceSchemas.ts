/**
 * The evidence bundles under `.autodev/evidence/` (design §3.3): a union
 * discriminated on `kind` with seven variants, validated like pydantic's
 * `TypeAdapter(Evidence)` and dumped like its `dump_python(mode="json")`.
 *
 * Every variant declares `task_id` (inherited from the base model) before
 * `kind`, so dumps start `task_id`, `kind`, then the variant's own fields.
 */
import * as z from "zod";
import {
  PyValidated,
  pyBool,
  pyDict,
  pyFloat,
  pyInt,
  pyList,
  pyLiteral,
  pyModel,
  pyNullable,
  pyStr,
  pyTaggedUnion,
  pyValidate,
} from "../../../pyjson/pyCoerce";
import { PyObject, PyValue } from "../../../pyjson/pyValue";
import { pyDumpAny, pyDumpDict, pyDumpFloat, pyDumpModel } from "../plan/schemas";
import type { EvidenceKind } from "./evidenceNames";

/** `kind: Literal[k] = k`. */
const kindField = <const K extends EvidenceKind>(k: K) => pyLiteral([k] as const).default(k);

/** `CoderEvidence` (kind "developer"): what the developer role produced. */
const DeveloperEvidenceSchema = pyModel("CoderEvidence", {
  task_id: pyStr,
  kind: kindField("developer"),
  diff: pyNullable(pyStr).default(null),
  files_changed: pyList(pyStr).default(() => []),
  output_text: pyStr.default(""),
  duration_s: pyFloat.default(0),
  success: pyBool.default(true),
});

/** `ReviewEvidence` (kind "review"): the reviewer's verdict. */
const ReviewEvidenceSchema = pyModel("ReviewEvidence", {
  task_id: pyStr,
  kind: kindField("review"),
  verdict: pyLiteral(["APPROVED", "NEEDS_CHANGES", "REJECTED"]),
  issues: pyList(pyStr).default(() => []),
  output_text: pyStr.default(""),
});

/** `TestEvidence` (kind "test"): test counts and coverage. */
const TestEvidenceSchema = pyModel("TestEvidence", {
  task_id: pyStr,
  kind: kindField("test"),
  passed: pyInt.default(0),
  failed: pyInt.default(0),
  total: pyInt.default(0),
  output_text: pyStr.default(""),
  coverage_pct: pyNullable(pyFloat).default(null),
});

/** `ExploreEvidence` (kind "explore"): the explorer's findings. */
const ExploreEvidenceSchema = pyModel("ExploreEvidence", {
  task_id: pyStr,
  kind: kindField("explore"),
  findings: pyStr,
  files_referenced: pyList(pyStr).default(() => []),
});

/** `SMEEvidence` (kind "domain_expert"): a domain expert's findings. */
const DomainExpertEvidenceSchema = pyModel("SMEEvidence", {
  task_id: pyStr,
  kind: kindField("domain_expert"),
  topic: pyStr.default(""),
  findings: pyStr,
  confidence: pyLiteral(["HIGH", "MEDIUM", "LOW"]).default("MEDIUM"),
});

/** `CriticEvidence` (kind "critic"): the critic's verdict. */
const CriticEvidenceSchema = pyModel("CriticEvidence", {
  task_id: pyStr,
  kind: kindField("critic"),
  verdict: pyLiteral(["APPROVED", "NEEDS_REVISION", "REJECTED"]),
  issues: pyList(pyStr).default(() => []),
  output_text: pyStr.default(""),
});

/**
 * `TournamentEvidence` (kind "tournament"): a tournament summary. `final_diff`
 * exists in the Python source although the design table omits it.
 */
const TournamentEvidenceSchema = pyModel("TournamentEvidence", {
  task_id: pyStr,
  kind: kindField("tournament"),
  tournament_id: pyStr,
  phase: pyLiteral(["plan", "impl"]),
  passes: pyInt,
  winner: pyLiteral(["A", "B", "AB"]),
  converged: pyBool,
  history: pyList(pyDict).default(() => []),
  final_diff: pyNullable(pyStr).default(null),
});

const VARIANTS = {
  developer: DeveloperEvidenceSchema,
  review: ReviewEvidenceSchema,
  test: TestEvidenceSchema,
  explore: ExploreEvidenceSchema,
  domain_expert: DomainExpertEvidenceSchema,
  critic: CriticEvidenceSchema,
  tournament: TournamentEvidenceSchema,
} as const satisfies Record<EvidenceKind, unknown>;

/** The `Evidence` union, discriminated on `kind`. */
const EvidenceSchema = pyTaggedUnion("kind", VARIANTS);

/** Tournament evidence. */
export type TournamentEvidence = z.output<typeof TournamentEvidenceSchema>;
/** Any evidence bundle; narrow on `kind`. */
export type Evidence = z.output<typeof EvidenceSchema>;

/** Validates an evidence bundle (`TypeAdapter(Evidence).validate_python`). */
export function validateEvidence(v: PyValue): PyValidated<Evidence> {
  return pyValidate(EvidenceSchema, v);
}

/** Fields not dumped as plain `Any`: floats keep NaN/Infinity; dict keys get pydantic's key encoding. */
const DUMP_FIELDS: Readonly<Record<string, Readonly<Record<string, (v: unknown) => PyValue>>>> = {
  developer: { duration_s: pyDumpFloat },
  test: { coverage_pct: (v) => (v === null ? null : pyDumpFloat(v)) },
  tournament: { history: (v) => (Array.isArray(v) ? v.map(pyDumpDict) : pyDumpAny(v as PyValue)) },
};

/** `model_dump(mode="json")` of an evidence bundle: task_id, kind, then the variant's fields. */
export function evidenceToPy(e: Evidence): PyObject {
  const schema = (VARIANTS as Record<string, { fieldNames: readonly string[] }>)[e.kind];
  if (schema === undefined) throw new TypeError(`unknown evidence kind: ${String(e.kind)}`);
  return pyDumpModel(e, schema.fieldNames, DUMP_FIELDS[e.kind]);
}
