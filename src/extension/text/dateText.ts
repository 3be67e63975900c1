/**
 * Times as hovers and pickers show them, the way GitLens does: how long ago first ("3 hours
 * ago"), then the date and time in the UI language and the local time zone ("Nov 30, 2026,
 * 09:47"), never a raw ISO text with microseconds. A text that is not a time is shown as it is.
 */
import * as vscode from "vscode";

/** Milliseconds of a time text (ISO 8601 with or without a zone; Python's microseconds too), or NaN. */
export function parseTime(text: string): number {
  // Date.parse reads three fraction digits at most on some engines: cut Python's microseconds.
  const trimmed = text.trim().replace(/(\.\d{3})\d+/, "$1");
  return Date.parse(trimmed);
}

/** "just now", "5 minutes ago", "3 hours ago", "yesterday", "4 days ago", "2 months ago", "in 5 minutes". */
export function relativeTime(text: string, now = Date.now()): string {
  const t = parseTime(text);
  if (Number.isNaN(t)) return text;
  const s = Math.round((now - t) / 1000);
  const rtf = new Intl.RelativeTimeFormat(vscode.env.language || undefined, { numeric: "auto" });
  const abs = Math.abs(s);
  if (abs < 45) return vscode.l10n.t("just now");
  const [value, unit]: [number, Intl.RelativeTimeFormatUnit] =
    abs < 3600
      ? [Math.round(s / 60), "minute"]
      : abs < 86_400
        ? [Math.round(s / 3600), "hour"]
        : abs < 30 * 86_400
          ? [Math.round(s / 86_400), "day"]
          : abs < 365 * 86_400
            ? [Math.round(s / (30 * 86_400)), "month"]
            : [Math.round(s / (365 * 86_400)), "year"];
  return rtf.format(-value, unit);
}

/** The date and time in the UI language and local zone, to the minute ("Nov 30, 2026, 09:47"). */
export function absoluteTime(text: string): string {
  const t = parseTime(text);
  if (Number.isNaN(t)) return text;
  return new Intl.DateTimeFormat(vscode.env.language || undefined, {
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
  }).format(new Date(t));
}

/** "3 hours ago (Nov 30, 2026, 09:47)"; the text itself when it is not a time. */
export function whenText(text: string, now = Date.now()): string {
  const t = parseTime(text);
  if (Number.isNaN(t)) return text;
  return vscode.l10n.t("{0} ({1})", relativeTime(text, now), absoluteTime(text));
}
