/**
 * Helpers for values from untrusted agloop files: quoting for messages, JSON type names, narrowing.
 * Hidden characters and labels: `core/text/untrustedText.ts`; Markdown: `core/text/markdownText.ts`.
 */
import { jsonPreview } from "../../text/jsonPreview";
import { escapeHidden } from "../../text/untrustedText";

/** A value quoted for a problem message: JSON-quoted and cut to 60 characters. */
export function quoteForMessage(value: unknown): string {
  // Bounded and non-recursive past its 60 characters: a value nested 10,000 deep cannot throw here.
  const text = escapeHidden(value === undefined ? "undefined" : jsonPreview(value, 80), true);
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
