/**
 * Text from untrusted state files made safe for tree labels (no control
 * characters or terminal escapes, one line, bounded); tooltips go through
 * `core/text/markdownText.ts`.
 */
import { labelText } from "../../../text/untrustedText";

/** One plain line: hidden characters (controls, bidi, zero-width, tags) become spaces, runs of blanks collapse, long text is cut with an ellipsis. */
export function plainLabel(s: string, max = 120): string {
  return labelText(s, max);
}

/** "2d ago", "5h ago", "3m ago", "just now" (null when unknown). */
export function ageLabel(epochS: number | null, nowS: number): string | null {
  if (epochS === null || epochS <= 0) return null;
  const s = Math.max(0, nowS - epochS);
  if (s < 60) return "just now";
  if (s < 3600) return `${Math.floor(s / 60)}m ago`;
  if (s < 86400) return `${Math.floor(s / 3600)}h ago`;
  return `${Math.floor(s / 86400)}d ago`;
}
