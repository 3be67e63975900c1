/**
 * Validates one small JSON document of `.autodev/` (config.json, inline-state.json,
 * a response file) against a zod schema, the way pydantic's
 * `model_validate_json` would, and places every error at its line: a syntax
 * error where the parser stopped, a schema error at the key it is about (or
 * the nearest parent that exists, for a missing key).
 */
import * as z from "zod";
import { PyJsonError, parsePyJson } from "../../pyjson/pyJsonParse";
import { pyToPlain } from "./evidence/tournamentPasses";
import type { JsonPath } from "../../text/jsonOffsets";
import { JsonLines, NO_JSON_LINES, formatJsonPath } from "./jsonLocate";
import { zodToPathErrors } from "./pydanticLax";

/** One error of a document, with the line it is at. */
export interface LocatedError {
  /** Dotted path ("tournaments.plan.num_judges"), "(root)" for the whole document, "(json)" for a syntax error. */
  readonly path: string;
  readonly message: string;
  /** 1-based line. */
  readonly line: number;
}

/** A document that validated (with its plain value and key lines), or its errors. */
export type JsonValidation<T> =
  | { readonly ok: true; readonly value: T; readonly raw: unknown; readonly lines: JsonLines }
  | {
      readonly ok: false;
      readonly errors: readonly LocatedError[];
      readonly raw: unknown | undefined;
      readonly lines: JsonLines;
    };

/** Parses `text` (Python's JSON rules) and validates it with `schema`. */
export function validateJsonText<T>(text: string, schema: z.ZodType<T>): JsonValidation<T> {
  let raw: unknown;
  try {
    raw = pyToPlain(parsePyJson(text));
  } catch (e) {
    const line = e instanceof PyJsonError ? e.lineno : 1;
    const message = e instanceof PyJsonError ? `invalid JSON: ${e.message}` : `invalid JSON: ${String(e)}`;
    return { ok: false, errors: [{ path: "(json)", message, line }], raw: undefined, lines: NO_JSON_LINES };
  }
  const lines = new JsonLines(text);
  const res = schema.safeParse(raw);
  if (res.success) return { ok: true, value: res.data, raw, lines };
  return {
    ok: false,
    errors: zodToPathErrors(res.error, raw).map((e) => locate(lines, e.path, e.message)),
    raw,
    lines,
  };
}

/** An error at `p`, placed at its line in `lines`. */
export function locate(lines: JsonLines, p: JsonPath, message: string): LocatedError {
  return { path: formatJsonPath(p), message, line: lines.lineOf(p) };
}

/** A plain object's own value at `key`, or undefined (no prototype lookups). */
export function own(o: unknown, key: string): unknown {
  return o !== null && typeof o === "object" && !Array.isArray(o) && Object.prototype.hasOwnProperty.call(o, key)
    ? (o as Record<string, unknown>)[key]
    : undefined;
}
