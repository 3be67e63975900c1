/**
 * Text taken from checkpoint files is untrusted: before it goes into a label, a message or a
 * Markdown tooltip, control and bidi characters become visible escapes, long values are cut
 * (saying how long they were) and Markdown syntax is escaped.
 */

/** Longest quoted value in a message or label. */
export const MAX_QUOTED = 200;

/** C0, DEL, C1, bidi controls and line/paragraph separators. */
// eslint-disable-next-line no-control-regex
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ufeff]/g;

/** `text` with control characters shown as `\uXXXX`, cut to `max` characters with a note of the full length. */
export function visible(text: string, max: number = MAX_QUOTED): string {
  const cut = text.length > max ? `${text.slice(0, max)}… (${text.length} characters)` : text;
  return cut.replace(INVISIBLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** `text` quoted for a message: `"…"`, visible and cut like {@link visible}. */
export function quoted(text: string, max: number = MAX_QUOTED): string {
  return `"${visible(text, max)}"`;
}

/** `text` (already {@link visible}) with every ASCII punctuation character Markdown might act on escaped. */
export function escapeMarkdown(text: string): string {
  return visible(text, 4 * MAX_QUOTED).replace(/[\\`*_{}[\]()#+\-.!|<>~&:"']/g, (c) => `\\${c}`);
}

/** The first `n` characters of a long id, with an ellipsis when cut. */
export function shortId(id: string, n = 12): string {
  return id.length > n ? `${visible(id.slice(0, n))}…` : visible(id);
}
