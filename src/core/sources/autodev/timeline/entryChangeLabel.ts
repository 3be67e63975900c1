/**
 * What a ledger entry did to its task, in words: a status change
 * (`coded → reviewed`), a retry (`retry 2`), an escalation (`escalated`), or
 * a status update that changed nothing visible (`coded (unchanged)`). The CLI's
 * `log` and `--json` summaries and the timeline use the same wording, so a
 * retry never reads as `coded → coded`.
 */
import { EntrySummary } from "../ledger/verifyTypes";

/** The parts of an entry's label, in order (empty when the entry touched no task status). */
function entryChangeParts(e: Pick<EntrySummary, "fromStatus" | "toStatus" | "retryCount" | "escalated">): string[] {
  if (e.toStatus === null) return [];
  const parts: string[] = [];
  const moved = e.fromStatus !== e.toStatus;
  if (moved) parts.push(`${e.fromStatus ?? "?"} → ${e.toStatus}`);
  if (e.retryCount !== null) parts.push(`retry ${e.retryCount}`);
  if (e.escalated) parts.push("escalated");
  if (parts.length === 0) parts.push(`${e.toStatus} (unchanged)`);
  return parts;
}

/** The label joined with " · ", or null when the entry touched no task status. */
export function entryChangeLabel(
  e: Pick<EntrySummary, "fromStatus" | "toStatus" | "retryCount" | "escalated">,
): string | null {
  const parts = entryChangeParts(e);
  return parts.length ? parts.join(" · ") : null;
}
