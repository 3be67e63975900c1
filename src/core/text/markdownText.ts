/**
 * The one Markdown escaper for text from state files: tree tooltips of every source, the
 * evidence views and the run report. It escapes only what can start markup where it stands, so
 * the Markdown source still reads as the text ("task it-7", "1.5s", "(AutoDev's default)"):
 *
 * 1. Line ends: CRLF and CR become LF.
 * 2. Length: cut at `max` characters (default {@link MARKDOWN_MAX_CHARS}) with "… (N chars)",
 *    never splitting a surrogate pair, before anything is escaped (an escape is never cut).
 * 3. Anywhere in a line: `` \ ` * [ ] < > | ~ $ `` (escapes, code, emphasis, links and images,
 *    HTML and autolinks, tables, strike-through, math and theme icons); `_` unless it stands
 *    between two letters or digits (`in_progress` cannot open or close emphasis); `&` only
 *    where it starts an entity (`&amp;`, `&#65;`).
 * 4. Autolinks (GitHub's and VS Code's hovers link bare URLs, `www.` names and e-mail
 *    addresses; the Markdown preview links URLs and e-mail addresses): the first `/` of every
 *    `//`, the `.` after `www` and an `@` between an address's parts. A bare domain (`old.md`)
 *    is linked by none of them and stays as written; `bareDomains` (text read by renderers that
 *    do, like markdown-it's default linkify) also escapes a `.` between a letter or digit and a
 *    letter, which leaves numbers ("1.5s", "0.58") as written.
 * 5. At a line start (after any indent): `#`, `-`, `+`, `=` (headings, lists, rules, setext
 *    underlines) and the `.`/`)` of `1.`/`1)` followed by a blank (ordered lists). `lineStart:
 *    false` leaves them, for text inside a table cell.
 * 6. Hidden characters (controls, bidi, zero-width, tags: `untrustedText.ts`) become visible
 *    escapes (`\e`, `\u202e`, `\u{e0041}`), which Markdown shows as written.
 * 7. Layout: each line ends in a hard break ("  \n"); leading spaces and tabs (a tab is four)
 *    become no-break spaces, so an indent shows and never opens a code block. With `oneLine`
 *    (a heading, a table cell, a list item) every run of white space is one space instead.
 */
import { truncateText } from "./displayText";
import { escapeHidden } from "./untrustedText";

/** The default cut of {@link escapeMarkdown}: a tooltip's worth of text. */
export const MARKDOWN_MAX_CHARS = 4000;

/** How {@link escapeMarkdown} lays the text out. */
export interface MarkdownTextOptions {
  /** Longest text kept, in characters (`Infinity` for a whole document field). */
  readonly max?: number;
  /** Fold all white space into single spaces (headings, table cells, list items). */
  readonly oneLine?: boolean;
  /** Escape the markers that act only at a line start (default true; false inside a table cell). */
  readonly lineStart?: boolean;
  /** Also break bare domains (`evil.example.com`), for Markdown read outside VS Code (the report). */
  readonly bareDomains?: boolean;
}

/** Characters that can start markup inside a line (rules 3 and 4 of the module comment). */
const INLINE =
  /[\\`*[\]<>|~$]|(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])|&(?=#?[A-Za-z0-9]+;)|\/(?=\/)|(?<=(?:^|[^\p{L}\p{N}_.-])www)\.|(?<=[A-Za-z0-9._%+-])@(?=[A-Za-z0-9])/giu;

/** The `.` of a bare domain name (`evil.example`), for `bareDomains`. */
const DOMAIN_DOT = /(?<=[\p{L}\p{N}])\.(?=\p{L})/gu;

/** A marker that acts at a line start: heading, bullet, setext underline, or an ordered list's number. */
const LINE_START = /^(\s*)(?:([-+=#])|(\d+)(?=[.)](?:\s|$)))/;

function escapeLine(line: string, lineStart: boolean, bareDomains: boolean): string {
  const all = line.replace(INLINE, "\\$&");
  const inline = bareDomains ? all.replace(DOMAIN_DOT, "\\.") : all;
  const marked = lineStart
    ? inline.replace(LINE_START, (_m, ws: string, mark: string | undefined, num: string | undefined) =>
        mark ? `${ws}\\${mark}` : `${ws}${num}\\`,
      )
    : inline;
  return escapeHidden(marked, true);
}

/** Untrusted text as Markdown that renders exactly as written (the rules are in the module comment). */
export function escapeMarkdown(text: string, options: MarkdownTextOptions = {}): string {
  const { max = MARKDOWN_MAX_CHARS, oneLine = false, lineStart = true, bareDomains = false } = options;
  const lf = text.replace(/\r\n?/g, "\n");
  const cut = Number.isFinite(max) ? truncateText(lf, max) : lf;
  if (oneLine) return escapeLine(cut.replace(/\s+/g, " ").trim(), lineStart, bareDomains);
  return cut
    .split("\n")
    .map((line) =>
      escapeLine(line, lineStart, bareDomains).replace(/^[ \t]+/, (ws) =>
        "\u00a0".repeat(ws.replace(/\t/g, "    ").length),
      ),
    )
    .join("  \n");
}

/** A fenced code block that no backtick run in `s` can close early. */
export function markdownFence(s: string, lang = ""): string {
  const longest = Math.max(0, ...[...s.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(Math.max(3, longest + 1));
  return `${fence}${lang}\n${s.replace(/\r\n?/g, "\n")}${s.endsWith("\n") ? "" : "\n"}${fence}\n`;
}
