/**
 * Evidence counted as `autodev status` counts it: Python's `list_evidence(cwd,
 * task_id)` returns every `{task_id}-*.json` directly in `.autodev/evidence/`
 * that parses and validates as `Evidence`, whatever task its content names,
 * and never the `{task_id}.patch` (shown apart). Reads are confined as in
 * evidenceStore.ts; an unreadable or invalid file is not counted, as Python
 * skips it. Never throws.
 */
import * as path from "node:path";
import { evidenceDir, isSafeSegment } from "../autodevPaths";
import { listConfined, parseEvidence, readInside } from "./evidenceStore";

/** A task's bundles as `list_evidence` lists them: file name and kind, in name order. */
export async function pythonEvidence(cwd: string, taskId: string): Promise<Array<{ file: string; kind: string }>> {
  if (!isSafeSegment(taskId)) return [];
  const dir = evidenceDir(cwd);
  const names = await listConfined(cwd, dir);
  if (!Array.isArray(names)) return [];
  const out: Array<{ file: string; kind: string }> = [];
  for (const name of names) {
    if (!name.startsWith(`${taskId}-`) || !name.endsWith(".json")) continue;
    const read = await readInside(dir, path.join(dir, name));
    if (!read.ok) continue;
    const parsed = parseEvidence(read.data);
    if (parsed.ok) out.push({ file: name, kind: parsed.evidence.kind });
  }
  return out;
}
