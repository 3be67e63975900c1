/**
 * Helpers for the AutoDev contract tests: the source location of a workspace, its contract
 * findings as "code file:line", and an independent way to find a ledger line (a text search).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { autodevSource } from "../../../src/core/sources/autodev/autodevSource";
import type { SourceLocation } from "../../../src/core/sources/stateSource";

/** The ledger, relative to the workspace. */
export const LEDGER = ".autodev/plan-ledger.jsonl";
/** The codes the phase contract reports. */
export const CONTRACT_CODES = ["phase_without_evidence", "transition_not_allowed", "reentry_unclear"];

/** The AutoDev source location of `ws`. */
export function autodevLocation(ws: string): SourceLocation {
  return { kind: "autodev", workspace: ws, dir: path.join(ws, ".autodev"), relDir: ".autodev" };
}

/** The contract problems of `ws` as "code file:line". */
export async function contractFindings(ws: string): Promise<string[]> {
  return (await autodevSource.check(autodevLocation(ws)))
    .filter((p) => CONTRACT_CODES.includes(p.code))
    .map((p) => `${p.code} ${p.file}:${p.line}`);
}

/** The 1-based line of the last ledger line containing every needle. */
export function ledgerLine(ws: string, ...needles: string[]): number {
  const lines = fs.readFileSync(path.join(ws, LEDGER), "utf8").split("\n");
  for (let i = lines.length - 1; i >= 0; i--) if (needles.every((n) => lines[i].includes(n))) return i + 1;
  throw new Error(`no ledger line with ${needles.join(" & ")}`);
}
