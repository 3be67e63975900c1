/**
 * Words for tree rows. Text from untrusted state files goes through
 * `core/text/untrustedText.ts` (labels) and `core/text/markdownText.ts` (tooltips).
 */

/** "2d ago", "5h ago", "3m ago", "just now" (null when unknown). */
export function ageLabel(epochS: number | null, nowS: number): string | null {
  if (epochS === null || epochS <= 0) return null;
  const s = Math.max(0, nowS - epochS);
  if (s < 60) return "just now";
  if (s < 3600) return `${Math.floor(s / 60)}m ago`;
  if (s < 86400) return `${Math.floor(s / 3600)}h ago`;
  return `${Math.floor(s / 86400)}d ago`;
}
