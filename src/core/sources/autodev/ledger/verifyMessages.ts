/**
 * Human wording of ledger findings, shared by Problems, the CLI `check`
 * command and notifications.
 */
import { VerifyFinding } from "./verifyTypes";

/** "self_hash mismatch: computed X, stored Y" style text from a finding. */
export function humanMessage(e: VerifyFinding): string {
  const m = /self_hash mismatch \(computed (\w+), stored (\w+)\)/.exec(e.message);
  if (m) return `self_hash mismatch: computed ${m[1]}, stored ${m[2]} — this entry was changed after it was written.`;
  const p = /prev_hash mismatch \(expected '(\w*)', saw '(\w*)'\)/.exec(e.message);
  if (p) {
    return `prev_hash mismatch: expected ${p[1] || '""'} (the previous entry's self_hash), found ${p[2] || '""'} — an entry before this one is missing, inserted or edited.`;
  }
  return e.message.replace(/^ledger line \d+:? ?/, "");
}
