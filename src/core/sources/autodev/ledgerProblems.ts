/**
 * A ledger verification's findings and warnings as problems at their file and line: pure, with no
 * reader behind it, so the extension host can word what the worker verified without the engine.
 */
import type { SourceProblem } from "../stateSource";
import { AUTODEV_DIR, LEDGER_REL, PLAN_FILE } from "./autodevPaths";
import { humanMessage } from "./ledger/verifyMessages";
import type { VerifyFinding, VerifyWarning } from "./ledger/verifyTypes";

const PLAN_REL = `${AUTODEV_DIR}/${PLAN_FILE}`;

/** A ledger integrity finding as a problem at its line (`more_errors` is only an info). */
export function errorProblem(e: VerifyFinding): SourceProblem {
  return {
    file: LEDGER_REL,
    line: e.atLine > 0 ? e.atLine : null,
    severity: e.kind === "more_errors" ? "info" : "error",
    code: e.kind,
    message: humanMessage(e),
  };
}

/** A history warning as a problem (plan.json drift on plan.json, the rest on the ledger). */
export function warningProblem(w: VerifyWarning): SourceProblem {
  const onPlan = w.kind === "plan_json_mismatch" || w.kind === "plan_json_missing";
  return {
    file: onPlan ? PLAN_REL : LEDGER_REL,
    line: w.atLine > 0 ? w.atLine : null,
    severity: "warning",
    code: w.kind,
    message: w.message,
  };
}
