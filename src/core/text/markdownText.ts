/**
 * The one Markdown escaper for text from state files (tree tooltips of every source, the
 * evidence views, the run report). It is decided once, here, what such text becomes:
 *
 * 1. Line ends: CRLF and CR become LF.
 * 2. Length: cut at `max` characters (default {@link MARKDOWN_MAX_CHARS}) with "… (N chars)",
 *    never splitting a surrogate pair, before anything is escaped (an escape is never cut).
 * 3. Hidden characters (controls, bidi, zero-width, tags: `untrustedText.ts`) become visible
 *    escapes (`\e`, `\u202e`, `\u{e0041}`); newline and tab are kept as layout.
 * 4. Every ASCII punctuation character that CommonMark, GFM or a common extension gives a
 *    meaning is backslash-escaped (CommonMark shows an escaped one as written): all but
 *    `" % ' , / ; ?`, which act only inside a link or a tag that the escapes already prevent.
 *    So no HTML, entity, link, image, autolink (`:`, `.`, `@`), emphasis, code, table pipe,
 *    math (`$`), footnote (`^`), heading, list, quote, rule or setext marker (`=`) comes from
 *    the data, and the Markdown source still reads as prose.
 * 5. Layout: each line ends in a hard break ("  \n"); leading spaces and tabs (a tab is four)
 *    become no-break spaces, so an indent shows and never opens a code block. With `oneLine`
 *    (a table cell, a list item) every run of white space is one space instead.
 */
import { truncateText } from "./displayText";
import { escapeHidden } from "./untrustedText";

/** The default cut of {@link escapeMarkdown}: a tooltip's worth of text. */
export const MARKDOWN_MAX_CHARS = 2000;

/** How {@link escapeMarkdown} lays the text out. */
export interface MarkdownTextOptions {
  /** Longest text kept, in characters (`Infinity` for a whole document field). */
  readonly max?: number;
  /** Fold all white space into single spaces (table cells, list items). */
  readonly oneLine?: boolean;
}

/** ASCII punctuation that can act in Markdown (all of it but `" % ' , / ; ?`). */
const MARKDOWN_PUNCTUATION = /[!#$&()*+\-.:<=>@[\\\]^_`{|}~]/g;

/** Untrusted text as Markdown that renders exactly as written (the rules are in the module comment). */
export function escapeMarkdown(text: string, options: MarkdownTextOptions = {}): string {
  const { max = MARKDOWN_MAX_CHARS, oneLine = false } = options;
  const lf = text.replace(/\r\n?/g, "\n");
  const shown = escapeHidden(Number.isFinite(max) ? truncateText(lf, max) : lf, true);
  if (oneLine) return shown.replace(/\s+/g, " ").trim().replace(MARKDOWN_PUNCTUATION, "\\$&");
  return shown
    .split("\n")
    .map((line) =>
      line
        .replace(MARKDOWN_PUNCTUATION, "\\$&")
        .replace(/^[ \t]+/, (ws) => "\u00a0".repeat(ws.replace(/\t/g, "    ").length)),
    )
    .join("  \n");
}

/** A fenced code block that no backtick run in `s` can close early. */
export function markdownFence(s: string, lang = ""): string {
  const longest = Math.max(0, ...[...s.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(Math.max(3, longest + 1));
  return `${fence}${lang}\n${s.replace(/\r\n?/g, "\n")}${s.endsWith("\n") ? "" : "\n"}${fence}\n`;
}
