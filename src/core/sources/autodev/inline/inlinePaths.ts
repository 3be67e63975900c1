/**
 * The inline (file-based) adapter's paths, as Python's `state/paths.py` names them: the
 * suspension state, the delegations and the responses. No schema here, so the extension host can
 * name these files without loading the inline schemas (inlineSchemas.ts validates the contents).
 */
import { AUTODEV_DIR } from "../autodevPaths";

/** `.autodev/inline-state.json` */
export const INLINE_STATE_REL = `${AUTODEV_DIR}/inline-state.json`;
/** `.autodev/delegations` */
export const DELEGATIONS_REL = `${AUTODEV_DIR}/delegations`;
/** `.autodev/responses` */
export const RESPONSES_REL = `${AUTODEV_DIR}/responses`;

/** `.autodev/delegations/{task}-{role}.md` */
export function delegationRel(taskId: string, role: string): string {
  return `${DELEGATIONS_REL}/${taskId}-${role}.md`;
}

/** `.autodev/responses/{task}-{role}.json` */
export function responseRel(taskId: string, role: string): string {
  return `${RESPONSES_REL}/${taskId}-${role}.json`;
}
