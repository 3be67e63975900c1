/**
 * Text from state files shown to a human (terminal, Problems, output channel):
 * control characters become visible escapes, so a crafted title or hash can
 * neither move the cursor, erase a line, write the clipboard (OSC 52) nor
 * reorder text (bidi overrides); and quoted values are cut to a readable
 * length that says how long the original was. Machine output (`--json`) stays
 * exact and never goes through here.
 */
import { escapeHidden } from "./untrustedText";

/** Longest quoted value in a message, in characters. */
const MAX_QUOTED_CHARS = 200;

/** Cuts `s` to `max` characters plus "… (N chars)" when longer (never splitting a surrogate pair). */
export function truncateText(s: string, max = MAX_QUOTED_CHARS): string {
  if (s.length <= max) return s;
  let cut = max;
  const c = s.charCodeAt(cut - 1);
  if (c >= 0xd800 && c <= 0xdbff) cut--;
  return `${s.slice(0, cut)}… (${s.length} chars)`;
}

/** A value from a file, for a message: truncated, then escaped (`quoteValue(x)` → `'abc…'`-ready text, without quotes). */
export function displayValue(value: unknown, max = MAX_QUOTED_CHARS): string {
  return escapeHidden(truncateText(String(value), max));
}

/** Longest whole message shown to a human (a safety net behind `displayValue`). */
const MAX_MESSAGE_CHARS = 4000;

/** A message as one line (a Problems entry, a notification): every hidden character escaped, newlines too, length capped. */
export function displayLine(message: string, max = MAX_MESSAGE_CHARS): string {
  return escapeHidden(truncateText(message, max));
}

/** A whole message for a terminal, Problems or an output channel: layout kept, controls escaped, length capped. */
export function displayMessage(message: string, max = MAX_MESSAGE_CHARS): string {
  return escapeHidden(truncateText(message, max), true);
}

/** The first `n` characters of a long id, for a label: {@link displayValue}, with an ellipsis when cut. */
export function shortId(id: string, n = 12): string {
  return id.length > n ? `${displayValue(id.slice(0, n))}…` : displayValue(id);
}

/**
 * A copy of `s` that shares no memory with the text it was cut from. V8 keeps a slice of a
 * string (a parsed JSON value, `s.slice(…)`, a message built from one) as a view of the whole
 * string, so keeping a 30-character label of a 1 MB line would keep the line.
 */
export function detachedString(s: string): string {
  return s.length < 13 ? s : Buffer.from(s, "utf16le").toString("utf16le");
}
