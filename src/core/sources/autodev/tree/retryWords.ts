/**
 * A task's retries with the limit beside the count, as AutoDev's execute phase counts them
 * against `qa_retry_limit`: "retry 2/3" on the row (as the status bar's "Waiting on … (retry
 * 2/3)"), "retry 2 of 3" for a screen reader, "retries: 2 of 3" in the hover, and where the limit
 * comes from when it is not the workspace's own (no config.json: AutoDev's default; an unusable
 * value: no limit to show).
 */
import { l10n } from "../../../text/coreL10n";

/** `qa_retry_limit` as the run view has it (null before the run state is read). */
export type RetryLimitView = { readonly retryLimit: number | null; readonly retryLimitIsDefault: boolean } | null;

/** The row's mark: "retry 2/3", or "retry 2" while the limit is unknown. */
export function retryMark(count: string, view: RetryLimitView): string {
  const limit = view?.retryLimit ?? null;
  return limit === null ? l10n.t("retry {0}", count) : l10n.t("retry {0}/{1}", count, limit);
}

/** The same for a screen reader: "retry 2 of 3". */
export function retrySpoken(count: string, view: RetryLimitView): string {
  const limit = view?.retryLimit ?? null;
  return limit === null ? l10n.t("retry {0}", count) : l10n.t("retry {0} of {1}", count, limit);
}

/**
 * The hover's line: "retries: 2 of 3"; "retries: 2 of 3 (AutoDev's default: there is no
 * config.json)"; "retries: 2 (config.json's qa_retry_limit is not usable)"; "retries: 2" before
 * the run view is read.
 */
export function retryHoverText(count: string, view: RetryLimitView): string {
  if (view === null) return l10n.t("retries: {0}", count);
  if (view.retryLimit === null) return l10n.t("retries: {0} (config.json's qa_retry_limit is not usable)", count);
  if (view.retryLimitIsDefault) {
    return l10n.t("retries: {0} of {1} (AutoDev's default: there is no config.json)", count, view.retryLimit);
  }
  return l10n.t("retries: {0} of {1}", count, view.retryLimit);
}
