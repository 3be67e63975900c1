/**
 * How timeline values read: relative and absolute times, day labels, action
 * and status icons, labels and colours from the source's words, short hashes
 * — and text from the files made harmless to look at: bidi overrides and
 * other invisible controls become visible `[U+202E]` marks, so a title cannot
 * reorder the text around it.
 */
import type { TimelineWords } from "../../src/protocolTimeline";
import { l10n } from "../l10n";

/**
 * The hidden characters of src/core/text/untrustedText.ts (the one definition; the webview imports
 * no code from core, so test/unit/text/untrustedText.test.ts keeps this copy equal to it), less tab,
 * newline and CR, which {@link visibleLine} folds and a payload block keeps.
 */
const INVISIBLE =
  // eslint-disable-next-line no-control-regex -- control characters are what this shows
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb\u{e0000}-\u{e007f}]/gu;

/** Ledger text for display: invisible and direction-changing characters shown as `[U+XXXX]`. */
export function visible(s: string): string {
  return s.replace(INVISIBLE, (c) => `[U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}]`);
}

/** One line of ledger text: {@link visible}, with newlines and tabs as spaces. */
export function visibleLine(s: string): string {
  return visible(s).replace(/[\r\n\t]+/g, " ");
}

/** Formatters are made once: creating one per row costs more than the rest of a row's binding. */
const YEAR_MONTH_DAY = { year: "numeric", month: "short", day: "numeric" } as const;
const HOUR_MINUTE_SECOND = { hour: "2-digit", minute: "2-digit", second: "2-digit" } as const;
const DAY_MONTH = new Intl.DateTimeFormat(undefined, { month: "short", day: "numeric" });
const DATE = new Intl.DateTimeFormat(undefined, YEAR_MONTH_DAY);
const DATE_TIME = new Intl.DateTimeFormat(undefined, { ...YEAR_MONTH_DAY, ...HOUR_MINUTE_SECOND });
const CLOCK = new Intl.DateTimeFormat(undefined, HOUR_MINUTE_SECOND);
const WEEKDAY_DATE = new Intl.DateTimeFormat(undefined, { weekday: "short", ...YEAR_MONTH_DAY });

/** "just now", "42 s ago", "5 min ago", "3 h ago", "yesterday", "4 d ago", else the date. */
export function relativeTime(iso: string, now: number): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return visibleLine(iso).slice(0, 24);
  const s = Math.round((now - t) / 1000);
  if (s < 0) return l10n.t("in the future");
  if (s < 10) return l10n.t("just now");
  if (s < 60) return l10n.t("{0} s ago", s);
  if (s < 3600) return l10n.t("{0} min ago", Math.floor(s / 60));
  if (s < 86_400) return l10n.t("{0} h ago", Math.floor(s / 3600));
  if (s < 2 * 86_400) return l10n.t("yesterday");
  if (s < 30 * 86_400) return l10n.t("{0} d ago", Math.floor(s / 86_400));
  const sameYear = new Date(t).getFullYear() === new Date(now).getFullYear();
  return (sameYear ? DAY_MONTH : DATE).format(t);
}

/** Local date and time with seconds, plus the stored ISO text. */
export function absoluteTime(iso: string): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return visibleLine(iso);
  return `${DATE_TIME.format(t)} (${visibleLine(iso)})`;
}

/** Local clock time `HH:MM:SS` of a timestamp ("" when it does not parse). */
export function clockTime(iso: string): string {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? "" : CLOCK.format(t);
}

/** "Today", "Yesterday", or a weekday and date, for a `YYYY-MM-DD` day. */
export function dayLabel(day: string, now: number): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) return l10n.t("Unknown day");
  const d = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  const today = new Date(now);
  const start = new Date(today.getFullYear(), today.getMonth(), today.getDate()).getTime();
  const diff = Math.round((start - d.getTime()) / 86_400_000);
  if (diff === 0) return l10n.t("Today");
  if (diff === 1) return l10n.t("Yesterday");
  return WEEKDAY_DATE.format(d);
}

/** The first 10 hex digits of a hash. */
export function shortHash(hash: string): string {
  return visibleLine(hash.slice(0, 10));
}

/** Thousands separators. */
export function count(n: number): string {
  return n.toLocaleString("en-US");
}

/** The own entry of `key` in a source's table, or undefined. */
function own<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.prototype.hasOwnProperty.call(table, key) ? table[key] : undefined;
}

/** The codicon of an action, from its source's words (the source's unknown-action icon when it is not listed). */
export function actionIcon(action: string, words: TimelineWords): string {
  return own(words.actions, action)?.icon ?? words.unknownActionIcon;
}

/** Label of a status in its source's words (the status as written when it is not listed; "?" for none). */
export function statusLabel(s: string | null, words: TimelineWords): string {
  if (s === null) return "?";
  return own(words.statuses, s)?.label ?? visibleLine(s);
}

/** Codicon of a status (the source's unknown-status icon when it is not listed). */
export function statusIcon(s: string | null, words: TimelineWords): string {
  return (s !== null ? own(words.statuses, s)?.icon : undefined) ?? words.unknownStatus.icon;
}

const COLOR_ID = /^[A-Za-z][A-Za-z0-9.]*$/;

/**
 * A theme colour id (`charts.blue`) as the CSS variable VS Code defines for it, or "" for none or a
 * malformed one; with a well-formed `fallback` id, that one's variable when the first is not defined
 * (`var(--vscode-autodevStatus-complete, var(--vscode-testing-iconPassed))`). VS Code names a
 * webview's variables with the id's first dot a dash only; the ids the sources use have one dot.
 */
function themeColor(id: string, fallback?: string): string {
  if (!COLOR_ID.test(id)) return "";
  const name = (c: string) => `--vscode-${c.replace(/\./g, "-")}`;
  return fallback && COLOR_ID.test(fallback) ? `var(${name(id)}, var(${name(fallback)}))` : `var(${name(id)})`;
}

/** The CSS colour of a status in its source's words ("" for the text's own). */
export function statusColor(s: string | null, words: TimelineWords): string {
  if (s === null) return "";
  const w = own(words.statuses, s);
  return w ? themeColor(w.color, w.fallbackColor) : themeColor(words.unknownStatus.color);
}

/** Label of a chain state. */
export function chainLabel(chain: string, kind: string | null): string {
  if (chain === "broken") return kind ? l10n.t("broken here ({0})", visibleLine(kind)) : l10n.t("broken here");
  if (chain === "unverified") return l10n.t("after the break (not verified)");
  return l10n.t("chain ok");
}
