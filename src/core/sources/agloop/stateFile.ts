/**
 * Reads `.agloop/state.json` with positions. Hooks rewrite it in place (writeFile, no rename),
 * so a read can catch it half-written: a parse failure is retried after a short delay before
 * it is reported as `invalid_json`.
 */
import type { SourceProblem } from "../stateSource";
import { AGLOOP_LIMITS, STATE_FILE, delay, readGuarded } from "./agloopFiles";
import { lineAtPath, lineOfKey, parsePositionedJson, type PositionedJson } from "./jsonPositions";
import type { ValueLocator } from "./schemaProblems";

/** How long to wait before re-reading a state.json that did not parse, and how many re-reads. */
export const STATE_RETRY: RetryPolicy = { delayMs: 150, retries: 2 };

/** A re-read policy for files caught mid-write. */
export interface RetryPolicy {
  readonly delayMs: number;
  readonly retries: number;
}

/** The state file as read. */
export type StateRead =
  | { readonly kind: "missing" }
  | { readonly kind: "refused"; readonly problem: SourceProblem }
  | { readonly kind: "invalid"; readonly problem: SourceProblem; readonly text: string }
  | { readonly kind: "ok"; readonly json: PositionedJson; readonly text: string };

/** Reads and parses state.json, retrying a parse failure (a write in progress) before reporting it. */
export async function readStateFile(workspace: string, retry = STATE_RETRY): Promise<StateRead> {
  for (let attempt = 0; ; attempt++) {
    const read = await readGuarded(workspace, STATE_FILE, AGLOOP_LIMITS.stateBytes);
    if (read.kind !== "ok") return read;
    const parsed = parsePositionedJson(read.text);
    if (parsed.ok) return { kind: "ok", json: parsed.json, text: read.text };
    if (attempt >= retry.retries) {
      const { line, column, message } = parsed.error;
      return {
        kind: "invalid",
        text: read.text,
        problem: {
          file: STATE_FILE,
          line,
          column,
          severity: "error",
          code: "invalid_json",
          message: `state.json is not valid JSON at line ${line}, column ${column} (${message}); still so after ${retry.retries} re-reads ${retry.delayMs} ms apart. Recover it from a checkpoint (agloop: Recover from checkpoint) or fix the file.`,
        },
      };
    }
    await delay(retry.delayMs);
  }
}

/** A locator over a parsed JSON file. */
export function jsonLocator(file: string, json: PositionedJson): ValueLocator {
  return {
    file,
    lineAt: (path) => lineAtPath(json, path),
    lineOfKey: (path, key) => lineOfKey(json, path, key),
  };
}
