/**
 * Helpers for the agloop tests: fixture locations and an independent way to find the line of a
 * value in a fixture file (a text search, so the tests do not trust the code under test).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { SourceLocation } from "../../../src/core/sources/stateSource";
import { REPO_ROOT, copyFixture } from "../fixtures";

/** The keys of agloop's `sources --json` entry and of `summarize`, in order (written out here, not read from the code). */
export const AGLOOP_SUMMARY_KEYS = [
  "kind",
  "path",
  "feature",
  "phase",
  "iteration",
  "current_task_id",
  "tasks",
  "checkpoints",
  "log_entries",
  "contract",
];

/** The location of an agloop fixture in place (read-only use). */
export function fixtureLocation(name: string): SourceLocation {
  const workspace = path.join(REPO_ROOT, "test/fixtures", name);
  return { kind: "agloop", workspace, dir: path.join(workspace, ".agloop"), relDir: ".agloop" };
}

/** A writable copy of an agloop fixture and its location. */
export function copiedLocation(name: string): SourceLocation {
  const workspace = copyFixture(name);
  return { kind: "agloop", workspace, dir: path.join(workspace, ".agloop"), relDir: ".agloop" };
}

/** The 1-based line of the `occurrence`-th line of `rel` (in `workspace`) that contains `needle`. */
export function lineContaining(workspace: string, rel: string, needle: string, occurrence = 1): number {
  const lines = fs.readFileSync(path.join(workspace, rel), "utf8").split("\n");
  let seen = 0;
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].includes(needle) && ++seen === occurrence) return i + 1;
  }
  throw new Error(`${rel} has no line #${occurrence} containing ${JSON.stringify(needle)}`);
}

/** The 1-based line of the `index`-th element (0-based) of the JSON array opened on line `arrayLine`. */
export function elementLine(arrayLine: number, index: number): number {
  return arrayLine + 1 + index; // JSON.stringify(…, null, 2) puts one scalar element per line
}
