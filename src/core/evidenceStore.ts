/**
 * Evidence I/O (design §3.6): `evidence/{task_id}-{kind}.json` bundles and
 * `{task_id}.patch` diffs. Reads are hostile-input safe: a name that would
 * leave `.autodev/evidence/`, a symlink that resolves outside it, or a file far
 * too large becomes an error result, never a read outside the workspace.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { atomicWriteFile } from "./atomicFile";
import { Evidence, evidenceToPy, validateEvidence } from "./evidenceSchemas";
import { PyJsonError, parsePyJson } from "./pyJsonParse";
import { dumpsIndent2 } from "./pyJsonDump";
import { decodeUtf8Strict } from "./ledgerLineReader";
import { evidenceDir, evidencePath, isSafeSegment, patchPath } from "./paths";

/** Largest evidence file we read (bigger ones become an error node). */
export const MAX_EVIDENCE_BYTES = 16 * 1024 * 1024;

/** One evidence file of a task, valid or not. */
export type EvidenceItem =
  | { readonly file: string; readonly kind: string; readonly ok: true; readonly evidence: Evidence; readonly bytes: number }
  | { readonly file: string; readonly kind: string; readonly ok: false; readonly error: string };

/** A task's patch, if any. */
export type PatchItem = { readonly file: string; readonly ok: true; readonly text: string } | { readonly file: string; readonly ok: false; readonly error: string };

/**
 * Reads a file that must live inside `dir` (after resolving links), refusing
 * anything larger than `max`. Returns the bytes or a reason.
 */
export async function readInside(dir: string, file: string, max = MAX_EVIDENCE_BYTES): Promise<{ ok: true; data: Buffer } | { ok: false; error: string }> {
  let realDir: string;
  let real: string;
  try {
    realDir = await fs.promises.realpath(dir);
    real = await fs.promises.realpath(file);
  } catch (e) {
    return { ok: false, error: `cannot open ${path.basename(file)}: ${(e as NodeJS.ErrnoException).code ?? String(e)}` };
  }
  const rel = path.relative(realDir, real);
  if (rel === "" || rel.startsWith("..") || path.isAbsolute(rel)) {
    return { ok: false, error: `${path.basename(file)} resolves to ${real}, outside ${dir}; not read` };
  }
  const fh = await fs.promises.open(real, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0)).catch((e: NodeJS.ErrnoException) => e);
  if (fh instanceof Error) return { ok: false, error: `cannot open ${path.basename(file)}: ${fh.code ?? fh.message}` };
  try {
    const st = await fh.stat();
    if (!st.isFile()) return { ok: false, error: `${path.basename(file)} is not a regular file` };
    if (st.size > max) return { ok: false, error: `${path.basename(file)} is ${st.size} bytes, over the ${max}-byte limit; not read` };
    return { ok: true, data: await fh.readFile() };
  } finally {
    await fh.close();
  }
}

/** Parses and validates one evidence file's bytes. */
export function parseEvidence(data: Buffer): { ok: true; evidence: Evidence } | { ok: false; error: string } {
  const text = decodeUtf8Strict(data);
  if (text === null) return { ok: false, error: "not valid UTF-8" };
  let raw;
  try {
    raw = parsePyJson(text);
  } catch (e) {
    return { ok: false, error: `invalid JSON: ${e instanceof PyJsonError ? e.message : String(e)}` };
  }
  const res = validateEvidence(raw);
  return res.ok ? { ok: true, evidence: res.value } : { ok: false, error: `schema: ${res.error}` };
}

/** Every `{taskId}-*.json` bundle of a task (sorted by name, as Python's `list_evidence`), errors included. */
export async function listEvidence(cwd: string, taskId: string): Promise<EvidenceItem[]> {
  if (!isSafeSegment(taskId)) return [{ file: taskId, kind: "?", ok: false, error: `task id ${JSON.stringify(taskId)} is not a safe file name; not read` }];
  const dir = evidenceDir(cwd);
  let names: string[];
  try {
    names = (await fs.promises.readdir(dir)).sort();
  } catch {
    return [];
  }
  const prefix = `${taskId}-`;
  const out: EvidenceItem[] = [];
  for (const name of names) {
    if (!name.startsWith(prefix) || !name.endsWith(".json")) continue;
    const kind = name.slice(prefix.length, -".json".length);
    const read = await readInside(dir, path.join(dir, name));
    if (!read.ok) {
      out.push({ file: name, kind, ok: false, error: read.error });
      continue;
    }
    const parsed = parseEvidence(read.data);
    if (!parsed.ok) out.push({ file: name, kind, ok: false, error: parsed.error });
    else if (parsed.evidence.kind !== kind || parsed.evidence.task_id !== taskId) {
      out.push({ file: name, kind, ok: false, error: `file name says task ${taskId} kind ${kind}, content says task ${parsed.evidence.task_id} kind ${parsed.evidence.kind}` });
    } else out.push({ file: name, kind, ok: true, evidence: parsed.evidence, bytes: read.data.length });
  }
  return out;
}

/** `read_evidence`: the bundle of one kind, or null when absent (errors are returned, not thrown). */
export async function readEvidence(cwd: string, taskId: string, kind: string): Promise<EvidenceItem | null> {
  const items = await listEvidence(cwd, taskId);
  return items.find((i) => i.kind === kind) ?? null;
}

/** The task's `.patch`, or null when there is none. */
export async function readPatch(cwd: string, taskId: string): Promise<PatchItem | null> {
  if (!isSafeSegment(taskId)) return { file: `${taskId}.patch`, ok: false, error: "unsafe task id; not read" };
  const file = patchPath(cwd, taskId);
  try {
    await fs.promises.lstat(file);
  } catch {
    return null;
  }
  const read = await readInside(evidenceDir(cwd), file);
  if (!read.ok) return { file: path.basename(file), ok: false, error: read.error };
  const text = decodeUtf8Strict(read.data);
  return text === null ? { file: path.basename(file), ok: false, error: "not valid UTF-8" } : { file: path.basename(file), ok: true, text };
}

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
