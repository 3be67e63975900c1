/**
 * Text from state files shown to a human (terminal, Problems, output channel):
 * control characters become visible escapes, so a crafted title or hash can
 * neither move the cursor, erase a line, write the clipboard (OSC 52) nor
 * reorder text (bidi overrides); and quoted values are cut to a readable
 * length that says how long the original was. Machine output (`--json`) stays
 * exact and never goes through here.
 */

/** Longest quoted value in a message, in characters. */
const MAX_QUOTED_CHARS = 200;

/** True for code units shown escaped: C0 (tab/newline per `keepLayout`), DEL, C1, bidi controls, line separators, the BOM. */
function needsEscape(c: number, keepLayout: boolean): boolean {
  if (c < 0x20) return !(keepLayout && (c === 0x0a || c === 0x09));
  if (c < 0x7f) return false;
  if (c <= 0x9f) return true; // DEL and C1 (0x9b is a one-byte CSI)
  return (
    c === 0x061c ||
    c === 0x200e ||
    c === 0x200f ||
    (c >= 0x202a && c <= 0x202e) ||
    (c >= 0x2066 && c <= 0x2069) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0xfeff
  );
}

function escapeOne(c: number): string {
  switch (c) {
    case 0x0a:
      return "\\n";
    case 0x0d:
      return "\\r";
    case 0x09:
      return "\\t";
    case 0x1b:
      return "\\e";
    default:
      return c <= 0xff ? `\\x${c.toString(16).padStart(2, "0")}` : `\\u${c.toString(16).padStart(4, "0")}`;
  }
}

/**
 * Replaces control characters with visible escapes (`\e`, `\r`, `\x9b`,
 * `\u202e`…). With `keepLayout`, newlines and tabs are kept (for whole
 * messages we composed); values from files are escaped completely.
 */
export function escapeControls(s: string, keepLayout = false): string {
  let out = "";
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (!needsEscape(c, keepLayout)) continue;
    out += s.slice(from, i) + escapeOne(c);
    from = i + 1;
  }
  return from === 0 ? s : out + s.slice(from);
}

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
  return escapeControls(truncateText(String(value), max));
}

/** Longest whole message shown to a human (a safety net behind `displayValue`). */
const MAX_MESSAGE_CHARS = 4000;

/** A whole message for a terminal, Problems or an output channel: layout kept, controls escaped, length capped. */
export function displayMessage(message: string, max = MAX_MESSAGE_CHARS): string {
  return escapeControls(truncateText(message, max), true);
}

/** A value from a file for a Markdown tooltip: {@link displayValue} (up to 800 characters), then every ASCII punctuation character Markdown might act on escaped. */
export function escapeMarkdown(text: string): string {
  return displayValue(text, 4 * MAX_QUOTED_CHARS).replace(/[\\`*_{}[\]()#+\-.!|<>~&:"']/g, (c) => `\\${c}`);
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
