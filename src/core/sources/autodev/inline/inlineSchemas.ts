/**
 * The inline (file-based) adapter's files, as Python's `adapters/inline_types.py`
 * defines them (`extra="forbid"`): `inline-state.json` (`InlineSuspendState`)
 * and `responses/{task}-{role}.json` (`InlineResponseFile`). Their paths: inlinePaths.ts.
 */
import * as z from "zod";
import { pyLaxBool, pyLaxFloat, pyLaxInt, pyOptional, pyStr } from "../pydanticLax";

/** The orchestrator steps a run can be suspended at. */
const ORCHESTRATOR_STEPS = [
  "developer",
  "reviewer",
  "test_engineer",
  "critic_sounding_board",
  "plan_explorer",
  "plan_domain_expert",
  "plan_architect",
] as const;

/** `InlineSuspendState`. */
export const InlineSuspendStateSchema = z.strictObject({
  schema_version: z.literal("1.0", { error: "Input should be '1.0'" }).default("1.0"),
  session_id: pyStr,
  suspended_at: pyStr,
  pending_task_id: pyStr,
  pending_role: pyStr,
  delegation_path: pyStr,
  response_path: pyStr,
  orchestrator_step: z.enum(ORCHESTRATOR_STEPS, {
    error: `Input should be ${ORCHESTRATOR_STEPS.map((s) => `'${s}'`).join(", ")}`,
  }),
  retry_count: pyLaxInt.default(0),
  last_issues: z.array(pyStr).default(() => []),
});

/** `InlineResponseFile`. */
export const InlineResponseFileSchema = z.strictObject({
  schema_version: z.literal("1.0", { error: "Input should be '1.0'" }).default("1.0"),
  task_id: pyStr,
  role: pyStr,
  success: pyLaxBool,
  text: pyStr,
  error: pyOptional(pyStr).default(null),
  duration_s: pyLaxFloat.default(0),
  files_changed: z.array(pyStr).default(() => []),
  diff: pyOptional(pyStr).default(null),
});
/** A validated response file. */
export type InlineResponseFile = z.output<typeof InlineResponseFileSchema>;
