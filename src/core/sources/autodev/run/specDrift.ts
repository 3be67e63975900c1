/**
 * Spec drift: the plan phase writes `spec.md` as `intent.strip() + "\n"` and
 * stores `spec_hash = sha256(intent)[:16]` in the plan. The original intent
 * is not kept, so the check hashes what `spec.md` implies it was (its text
 * without the added newline, and with it) and says when neither matches:
 * then spec.md was edited after planning, or the intent had surrounding
 * whitespace that `strip()` removed.
 */
import { createHash } from "node:crypto";
import { AUTODEV_DIR, SPEC_FILE } from "../autodevPaths";
import { readWorkspaceStateFile } from "../stateFile";

/** The spec file, relative to the workspace. */
export const SPEC_REL = `${AUTODEV_DIR}/${SPEC_FILE}`;

/** The spec check. */
export type SpecDrift =
  | { readonly state: "no_spec" }
  | { readonly state: "error"; readonly error: string }
  | {
      readonly state: "checked";
      readonly matches: boolean;
      readonly specHash: string;
      readonly planHash: string;
      readonly message: string;
    };

/** Python's `_spec_hash`: the first 16 hex digits of the SHA-256 of the UTF-8 text. */
export function specHash(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex").slice(0, 16);
}

/** Compares `spec.md` with the plan's `spec_hash` (null when there is no plan); never throws. */
export async function checkSpecDrift(cwd: string, planSpecHash: string | null): Promise<SpecDrift | null> {
  if (planSpecHash === null) return null;
  const read = await readWorkspaceStateFile(cwd, SPEC_REL);
  if (read.kind === "missing") return { state: "no_spec" };
  if (read.kind === "error") return { state: "error", error: read.error };
  const body = read.text.endsWith("\n") ? read.text.slice(0, -1) : read.text;
  const candidates = [body, read.text];
  const hit = candidates.find((c) => specHash(c) === planSpecHash);
  const own = specHash(body);
  if (hit !== undefined) {
    return {
      state: "checked",
      matches: true,
      specHash: specHash(hit),
      planHash: planSpecHash,
      message: "spec.md matches the plan's spec_hash",
    };
  }
  const stripped = body.trim() !== body || !read.text.endsWith("\n");
  return {
    state: "checked",
    matches: false,
    specHash: own,
    planHash: planSpecHash,
    message:
      `spec.md hashes to ${own} but the plan was made from a spec hashing to ${planSpecHash}: ` +
      (stripped
        ? "spec.md is not in the form the plan phase writes (stripped text + newline), so it was edited after planning"
        : "the spec was edited after planning (or the original intent had leading/trailing whitespace)") +
      "; re-run `autodev plan` or restore the spec",
  };
}
