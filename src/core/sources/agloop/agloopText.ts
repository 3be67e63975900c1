/**
 * Text helpers for values that come from untrusted agloop files: strip control characters
 * (terminal escapes), cut long values for labels and messages (Markdown: `core/text/markdownText.ts`).
 */
import { jsonPreview } from "../../text/jsonPreview";
import { blankHidden, replaceHidden } from "../../text/untrustedText";

/** The text with hidden characters (controls, bidi, zero-width, tags; tab and newline kept) as U+FFFD, so nothing reaches a terminal or a label raw. */
export function stripControl(text: string): string {
  return replaceHidden(text, () => "\ufffd", true);
}

/** One line of at most `max` characters (hidden characters and newlines folded into spaces, an ellipsis when cut). */
export function oneLine(text: string, max = 120): string {
  const flat = blankHidden(text).replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** A value quoted for a problem message: JSON-quoted and cut to 60 characters. */
export function quoteForMessage(value: unknown): string {
  // Bounded and non-recursive past its 60 characters: a value nested 10,000 deep cannot throw here.
  const text = stripControl(value === undefined ? "undefined" : jsonPreview(value, 80));
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}

/** A JSON type name for messages ("a string", "null", "an array"). */
export function describeType(value: unknown): string {
  if (value === null) return "null";
  if (value === undefined) return "nothing";
  if (Array.isArray(value)) return "an array";
  const t = typeof value;
  return t === "object" ? "an object" : t === "number" || t === "boolean" || t === "string" ? `a ${t}` : t;
}

/** The value when it is a plain object, else undefined. */
export function asRecord(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** The value when it is a string, else undefined. */
export function asString(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

/** The value when it is an array, else an empty array. */
export function asArray(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}
