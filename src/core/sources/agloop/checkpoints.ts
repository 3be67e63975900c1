/**
 * `.agloop/checkpoints/`: the current format (`{type}-YYYYMMDD-HHmmss.json`, the full state at the
 * root plus `_checkpoint`) and the older one (`{type}-<ISO time with dashes>.json`, the state under
 * `state` next to `checkpoint_type`). Listed newest first; one that does not parse is a warning.
 */
import * as fs from "node:fs";
import type { SourceProblem } from "../stateSource";
import { AGLOOP_LIMITS, CHECKPOINTS_DIR, guardAgloopPath, readAgloopFile } from "./agloopFiles";
import { asRecord, asString } from "./agloopText";
import { parsePositionedJson } from "./jsonPositions";
import { labelText } from "../../text/untrustedText";

/** One checkpoint file, as listed (the state itself is read again when needed). */
export interface CheckpointInfo {
  readonly name: string;
  /** Relative to the workspace folder. */
  readonly file: string;
  /** "unread": an older checkpoint past the newest AGLOOP_LIMITS.checkpointsRead, listed by name only. */
  readonly format: "current" | "legacy" | "invalid" | "unread";
  readonly type: string;
  readonly trigger: string | null;
  readonly summary: string | null;
  /** ISO time from the name (or the metadata), for ordering. */
  readonly createdAt: string | null;
}

/** The listing, newest first, and its problems. */
export interface CheckpointList {
  readonly checkpoints: readonly CheckpointInfo[];
  readonly problems: readonly SourceProblem[];
}

const CURRENT_NAME = /^(.+)-(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})(\d{2})\.json$/;
const LEGACY_NAME = /^(.+)-(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})-(\d{3})Z\.json$/;

/** Type and time encoded in a checkpoint's name. */
function parseCheckpointName(name: string): { type: string; createdAt: string } | null {
  const c = CURRENT_NAME.exec(name);
  if (c) return { type: c[1], createdAt: `${c[2]}-${c[3]}-${c[4]}T${c[5]}:${c[6]}:${c[7]}.000Z` };
  const l = LEGACY_NAME.exec(name);
  if (l) return { type: l[1], createdAt: `${l[2]}T${l[3]}:${l[4]}:${l[5]}.${l[6]}Z` };
  return null;
}

/** The state a checkpoint holds (`_checkpoint` stripped, or the legacy `state`), or null. */
function stateOfCheckpoint(value: unknown): Record<string, unknown> | null {
  const root = asRecord(value);
  if (!root) return null;
  if (asRecord(root._checkpoint) && typeof root.current_phase === "string" && Array.isArray(root.tasks)) {
    const copy: Record<string, unknown> = { ...root };
    delete copy._checkpoint;
    return copy;
  }
  const legacy = asRecord(root.state);
  if (legacy && typeof legacy.current_phase === "string" && Array.isArray(legacy.tasks)) return legacy;
  return null;
}

/** Reads one checkpoint: its state, or why it cannot be used. */
export async function readCheckpoint(
  workspace: string,
  name: string,
): Promise<{ ok: true; value: unknown; state: Record<string, unknown> } | { ok: false; problem: SourceProblem }> {
  const file = `${CHECKPOINTS_DIR}/${name}`;
  const read = await readAgloopFile(workspace, file, AGLOOP_LIMITS.checkpointBytes);
  const bad = (line: number | null, message: string): { ok: false; problem: SourceProblem } => ({
    ok: false,
    problem: { file, line, severity: "warning", code: "invalid_checkpoint", message },
  });
  if (read.kind === "missing") return bad(null, `${name} disappeared while it was read.`);
  if (read.kind === "refused") return bad(null, `${name} cannot be used: ${read.problem.message}`);
  const parsed = parsePositionedJson(read.text);
  if (!parsed.ok) {
    return bad(
      parsed.error.line,
      `${name} is not valid JSON at line ${parsed.error.line} (${parsed.error.message}); it cannot be used for recovery.`,
    );
  }
  const state = stateOfCheckpoint(parsed.json.value);
  if (!state) {
    return bad(
      1,
      `${name} holds neither a state with "_checkpoint" metadata nor a legacy {"checkpoint_type", "state"} object; it cannot be used for recovery.`,
    );
  }
  return { ok: true, value: parsed.json.value, state };
}

/** Lists the checkpoints, newest first (time from the name, then from the metadata; then name). */
export async function listCheckpoints(workspace: string): Promise<CheckpointList> {
  const dir = await guardAgloopPath(workspace, CHECKPOINTS_DIR, "dir");
  if (dir.kind === "missing") return { checkpoints: [], problems: [] };
  if (dir.kind === "refused") {
    return { checkpoints: [], problems: [{ ...dir.problem, severity: "warning", code: "invalid_checkpoint" }] };
  }
  const problems: SourceProblem[] = [];
  const names: string[] = [];
  let handle: fs.Dir;
  try {
    handle = await fs.promises.opendir(dir.abs);
  } catch (e) {
    // EACCES on checkpoints/ (or it vanished): one problem; state, plan and log are still checked.
    const code = (e as NodeJS.ErrnoException).code ?? String(e);
    return {
      checkpoints: [],
      problems: [
        {
          file: CHECKPOINTS_DIR,
          line: null,
          severity: "error",
          code: "unsafe_file",
          message: `Cannot list ${CHECKPOINTS_DIR}: ${code}; no checkpoint was read (recovery cannot use them). Give the user running AutoDev State read access to the folder.`,
        },
      ],
    };
  }
  for await (const entry of handle) {
    if (!entry.name.endsWith(".json")) continue;
    if (!entry.isFile()) {
      problems.push({
        file: `${CHECKPOINTS_DIR}/${entry.name}`,
        line: null,
        severity: "warning",
        code: "invalid_checkpoint",
        message: `${entry.name} is not a regular file (a link, FIFO or folder); it was not read.`,
      });
      continue;
    }
    names.push(entry.name);
  }
  const fromName = names.map((name) => ({ name, parsedName: parseCheckpointName(name) }));
  fromName.sort(
    (a, b) =>
      (b.parsedName?.createdAt ?? "").localeCompare(a.parsedName?.createdAt ?? "") || b.name.localeCompare(a.name),
  );
  if (fromName.length > AGLOOP_LIMITS.checkpointFiles) {
    problems.push({
      file: CHECKPOINTS_DIR,
      line: null,
      severity: "warning",
      code: "invalid_checkpoint",
      message: `${fromName.length} checkpoints; only the newest ${AGLOOP_LIMITS.checkpointFiles} are listed and the newest ${AGLOOP_LIMITS.checkpointsRead} read (the hooks keep about 10).`,
    });
    fromName.length = AGLOOP_LIMITS.checkpointFiles;
  }
  const checkpoints: CheckpointInfo[] = [];
  for (const [index, { name, parsedName }] of fromName.entries()) {
    const file = `${CHECKPOINTS_DIR}/${name}`;
    if (index >= AGLOOP_LIMITS.checkpointsRead) {
      // Read lazily: an older checkpoint is listed by its name (recovery reads it only if every newer one fails).
      const type = parsedName?.type ?? "unknown";
      const createdAt = parsedName?.createdAt ?? null;
      checkpoints.push({ name, file, format: "unread", type, trigger: null, summary: null, createdAt });
      continue;
    }
    const read = await readCheckpoint(workspace, name);
    if (!read.ok) {
      problems.push(read.problem);
      checkpoints.push({
        name,
        file,
        format: "invalid",
        type: parsedName?.type ?? "unknown",
        trigger: null,
        summary: null,
        createdAt: parsedName?.createdAt ?? null,
      });
      continue;
    }
    const root = asRecord(read.value) ?? {};
    const meta = asRecord(root._checkpoint);
    const text = (v: unknown): string | null => (typeof v === "string" ? labelText(v, 300) : null);
    checkpoints.push({
      name,
      file,
      format: meta ? "current" : "legacy",
      type: asString(meta?.type) ?? asString(root.checkpoint_type) ?? parsedName?.type ?? "unknown",
      trigger: text(meta ? meta.trigger : root.trigger),
      summary: text(meta ? meta.human_summary : root.human_summary),
      createdAt: parsedName?.createdAt ?? asString(meta?.created_at) ?? asString(root.timestamp) ?? null,
    });
  }
  return { checkpoints, problems };
}
