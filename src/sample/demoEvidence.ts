/**
 * The demo's evidence, written as Python AutoDev's `write_evidence` and `write_patch` write it
 * (only the demo generator writes evidence; the extension and the CLI only read it).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { atomicWriteFile } from "../core/fs/atomicFile";
import { evidencePath, patchPath } from "../core/sources/autodev/autodevPaths";
import { Evidence, evidenceToPy } from "../core/sources/autodev/evidence/evidenceSchemas";
import { dumpsIndent2 } from "../core/pyjson/pyJsonDump";

/** `write_evidence`: `json.dumps(bundle, indent=2)` (no final newline, as Python) written atomically. */
export async function writeEvidence(cwd: string, taskId: string, evidence: Evidence): Promise<string> {
  const dst = evidencePath(cwd, taskId, evidence.kind);
  await fs.promises.mkdir(path.dirname(dst), { recursive: true });
  await atomicWriteFile(dst, dumpsIndent2(evidenceToPy(evidence)), ".evidence.");
  return dst;
}

/** `write_patch`: the raw diff text written atomically. */
export async function writePatch(cwd: string, taskId: string, diff: string): Promise<string> {
  const dst = patchPath(cwd, taskId);
  await fs.promises.mkdir(path.dirname(dst), { recursive: true });
  await atomicWriteFile(dst, diff, ".evidence.");
  return dst;
}
