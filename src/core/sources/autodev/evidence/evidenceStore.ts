/**
 * Evidence I/O (design §3.6): `evidence/{task_id}-{kind}.json` bundles and
 * `{task_id}.patch` diffs. Reads are hostile-input safe: a name that would
 * leave `.autodev/evidence/`, a symlink that resolves outside it, or a file far
 * too large becomes an error result, never a read outside the workspace.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { describeKind, GUARDED_OPEN_FLAGS } from "../../../fs/fileGuard";
import { checkPlace, descriptorPath } from "../../../fs/openedPath";
import { Evidence, validateEvidence } from "./evidenceSchemas";
import { PyJsonError, parsePyJson } from "../../../pyjson/pyJsonParse";
import { decodeUtf8Strict } from "../../../text/utf8";
import { PatchSource, bundleFit, groupTaskId, kindFromName } from "./evidenceNames";
import { WorkspaceText } from "./patchReconstruct";
import { AUTODEV_DIR, EVIDENCE_DIR, evidenceDir, isSafeSegment, patchPath } from "../autodevPaths";
import { isBelow, isInside } from "../../../fs/pathInside";

/** Largest evidence file we read (bigger ones become an error node). */
export const MAX_EVIDENCE_BYTES = 16 * 1024 * 1024;
/** Largest workspace file read to rebuild a diff's sides (bigger ones: sides from the hunks). */
const MAX_WORKSPACE_FILE_BYTES = 8 * 1024 * 1024;

/** One evidence file of a task, valid or not. */
export type EvidenceItem =
  | {
      readonly file: string;
      readonly kind: string;
      readonly ok: true;
      readonly evidence: Evidence;
      readonly bytes: number;
    }
  | { readonly file: string; readonly kind: string; readonly ok: false; readonly error: string };

/** A task's patch, if any. */
export type PatchItem =
  | { readonly file: string; readonly ok: true; readonly text: string }
  | { readonly file: string; readonly ok: false; readonly error: string };

/**
 * Reads a file that must live inside `dir` (after resolving links), refusing
 * anything larger than `max`. Returns the bytes or a reason.
 */
export async function readInside(
  dir: string,
  file: string,
  max = MAX_EVIDENCE_BYTES,
): Promise<{ ok: true; data: Buffer } | { ok: false; error: string }> {
  let realDir: string;
  let real: string;
  try {
    realDir = await fs.promises.realpath(dir);
    real = await fs.promises.realpath(file);
  } catch (e) {
    return {
      ok: false,
      error: `cannot open ${path.basename(file)}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`,
    };
  }
  if (!isBelow(realDir, real)) {
    return { ok: false, error: `${path.basename(file)} resolves to ${real}, outside ${dir}; not read` };
  }
  // Never open a FIFO or device: the open (or a read) would block a thread of Node's shared pool forever.
  const lst = await fs.promises.lstat(real).catch((e: NodeJS.ErrnoException) => e);
  if (lst instanceof Error) {
    return { ok: false, error: `cannot open ${path.basename(file)}: ${lst.code ?? lst.message}` };
  }
  if (!lst.isFile()) {
    return {
      ok: false,
      error: `${path.basename(file)} is not a regular file (found a ${describeKind(lst)}); not read`,
    };
  }
  const fh = await fs.promises.open(real, GUARDED_OPEN_FLAGS).catch((e: NodeJS.ErrnoException) => e);
  if (fh instanceof Error) return { ok: false, error: `cannot open ${path.basename(file)}: ${fh.code ?? fh.message}` };
  try {
    const st = await fh.stat();
    if (!st.isFile()) {
      return {
        ok: false,
        error: `${path.basename(file)} is not a regular file (found a ${describeKind(st)}); not read`,
      };
    }
    if (st.size > max) {
      return { ok: false, error: `${path.basename(file)} is ${st.size} bytes, over the ${max}-byte limit; not read` };
    }
    // The checks above walked paths; the descriptor must be where they said (a folder above it swapped for a link).
    const at = await descriptorPath(fh.fd);
    if (at !== null && checkPlace(at, realDir, null).kind !== "ok") {
      return {
        ok: false,
        error: `${path.basename(file)} led to ${at.real}, outside ${dir}, when it was opened (a folder swapped for a link); not read`,
      };
    }
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

/**
 * Null when `dir` (after resolving links) is inside the workspace `cwd`, else
 * why not. A cloned repository can make `.autodev/` or `.autodev/evidence/` a
 * link to anywhere; then nothing in it is read.
 */
export async function confinementRefusal(cwd: string, dir: string): Promise<string | null> {
  try {
    const root = await fs.promises.realpath(cwd);
    const real = await fs.promises.realpath(dir);
    if (!isInside(root, real)) {
      return `${path.relative(cwd, dir) || dir} resolves to ${real}, outside the workspace; not read`;
    }
    return null;
  } catch (e) {
    return `cannot open ${path.relative(cwd, dir) || dir}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`;
  }
}

/** Sorted names in `dir` when it exists and is confined to `cwd`; `{error: null}` when it does not exist. */
export async function listConfined(cwd: string, dir: string): Promise<string[] | { error: string | null }> {
  // Asked once per task by every check of a refresh: whether the folder is there is answered
  // synchronously (an lstat is microseconds; a promise per task was a thread-pool round trip each).
  if (!existsNoFollow(dir)) return { error: null };
  const confined = await confinementRefusal(cwd, dir);
  if (confined !== null) return { error: confined };
  try {
    return (await fs.promises.readdir(dir)).sort();
  } catch (e) {
    return { error: `cannot list ${path.basename(dir)}: ${(e as NodeJS.ErrnoException).code ?? String(e)}` };
  }
}

/** True when `file` exists (not following a final link); false when it does not or cannot be looked at. */
function existsNoFollow(file: string): boolean {
  try {
    return fs.lstatSync(file, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false;
  }
}

/** Every `{taskId}-*.json` bundle of a task (sorted by name, as Python's `list_evidence`), errors included. */
export async function listEvidence(cwd: string, taskId: string): Promise<EvidenceItem[]> {
  if (!isSafeSegment(taskId)) return [unsafeTaskItem(taskId)];
  return evidenceIn(cwd, taskId, await listConfined(cwd, evidenceDir(cwd)));
}

function unsafeTaskItem(taskId: string): EvidenceItem {
  return {
    file: taskId,
    kind: "?",
    ok: false,
    error: `task id ${JSON.stringify(taskId)} is not a safe file name; not read`,
  };
}

/** The task's bundles among `names` (the evidence folder's listing, or why it has none); read side by side. */
async function evidenceIn(
  cwd: string,
  taskId: string,
  names: string[] | { error: string | null },
): Promise<EvidenceItem[]> {
  if (!Array.isArray(names)) {
    return names.error === null
      ? []
      : [{ file: `${AUTODEV_DIR}/${EVIDENCE_DIR}`, kind: "?", ok: false, error: names.error }];
  }
  const dir = evidenceDir(cwd);
  const prefix = `${taskId}-`;
  const mine = names.filter((name) => name.startsWith(prefix) && name.endsWith(".json"));
  // Each read is a few thread-pool round trips (realpath, lstat, open, fstat, read, close); one after
  // another they were most of a check's time on a run with many bundles.
  const items = await Promise.all(mine.map((name) => evidenceItem(dir, taskId, name)));
  return items.filter((i): i is EvidenceItem => i !== null);
}

/** One bundle read and checked (null: it names another task). */
async function evidenceItem(dir: string, taskId: string, name: string): Promise<EvidenceItem | null> {
  const guessed = kindFromName(name, taskId);
  const read = await readInside(dir, path.join(dir, name));
  if (!read.ok) return { file: name, kind: guessed, ok: false, error: read.error };
  const parsed = parseEvidence(read.data);
  if (!parsed.ok) return { file: name, kind: guessed, ok: false, error: parsed.error };
  const kind = parsed.evidence.kind;
  const fit = bundleFit(name, taskId, parsed.evidence.task_id, kind);
  if (fit.fit === "other_task") return null;
  if (fit.fit === "mismatch") return { file: name, kind, ok: false, error: fit.error };
  return { file: name, kind, ok: true, evidence: parsed.evidence, bytes: read.data.length };
}

/** The evidence reads of one check: a task's bundles and patch, as {@link listEvidence} and {@link readPatch}. */
export interface EvidenceReads {
  listEvidence(cwd: string, taskId: string): Promise<readonly EvidenceItem[]>;
  readPatch(cwd: string, taskId: string): Promise<PatchItem | null>;
}

/** Reads from disk on every call. */
export const DIRECT_EVIDENCE_READS: EvidenceReads = { listEvidence, readPatch };

/**
 * Reads that one snapshot's parts share (the phase contract and the missing-evidence check asked for
 * every task's bundles each): the folder listed once, each task's bundles and patch read once.
 */
export function sharedEvidenceReads(): EvidenceReads {
  const listings = new Map<string, Promise<string[] | { error: string | null }>>();
  const bundles = new Map<string, Promise<EvidenceItem[]>>();
  const patches = new Map<string, Promise<PatchItem | null>>();
  const once = <T>(memo: Map<string, Promise<T>>, key: string, read: () => Promise<T>): Promise<T> => {
    let p = memo.get(key);
    if (p === undefined) memo.set(key, (p = read()));
    return p;
  };
  return {
    listEvidence: (cwd, taskId) =>
      isSafeSegment(taskId)
        ? once(bundles, `${cwd}\0${taskId}`, async () =>
            evidenceIn(cwd, taskId, await once(listings, cwd, () => listConfined(cwd, evidenceDir(cwd)))),
          )
        : Promise.resolve([unsafeTaskItem(taskId)]),
    readPatch: (cwd, taskId) => once(patches, `${cwd}\0${taskId}`, () => readPatch(cwd, taskId)),
  };
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
  if (!existsNoFollow(file)) return null;
  const confined = await confinementRefusal(cwd, evidenceDir(cwd));
  if (confined !== null) return { file: path.basename(file), ok: false, error: confined };
  const read = await readInside(evidenceDir(cwd), file);
  if (!read.ok) return { file: path.basename(file), ok: false, error: read.error };
  const text = decodeUtf8Strict(read.data);
  return text === null
    ? { file: path.basename(file), ok: false, error: "not valid UTF-8" }
    : { file: path.basename(file), ok: true, text };
}

/** A diff's text and where it came from, an error, or null when the source has no diff. */
export type PatchSourceText =
  | { readonly ok: true; readonly file: string; readonly text: string }
  | { readonly ok: false; readonly file: string; readonly error: string }
  | null;

/** The diff text of `source`: the `.patch`, the developer bundle's `diff` or the tournament bundle's `final_diff`. */
export async function readPatchSource(cwd: string, taskId: string, source: PatchSource): Promise<PatchSourceText> {
  if (source === "patch") return readPatch(cwd, taskId);
  const item = await readEvidence(cwd, taskId, source);
  if (item === null) return null;
  if (!item.ok) return { file: item.file, ok: false, error: item.error };
  const e = item.evidence;
  const text = e.kind === "developer" ? e.diff : e.kind === "tournament" ? e.final_diff : null;
  return text ? { file: item.file, ok: true, text } : null;
}

/** True when `rel` is a relative path that stays inside its base folder (no `..`, not absolute, no NUL). */
export function isContainedRelPath(rel: string): boolean {
  if (
    rel.length === 0 ||
    rel.length > 4096 ||
    rel.includes("\0") ||
    path.isAbsolute(rel) ||
    /^[a-zA-Z]:/.test(rel) ||
    rel.startsWith("\\")
  ) {
    return false;
  }
  return !rel.split(/[\\/]/).some((seg) => seg === "..");
}

/**
 * A workspace file's text for rebuilding a diff: refused (never read) when
 * the path leaves the workspace, directly or through links, or is too large.
 */
export async function readWorkspaceText(
  cwd: string,
  rel: string,
  max = MAX_WORKSPACE_FILE_BYTES,
): Promise<WorkspaceText> {
  if (!isContainedRelPath(rel)) {
    return { kind: "unreadable", reason: `${JSON.stringify(rel)} is absolute or leaves the workspace` };
  }
  const abs = path.join(cwd, rel);
  try {
    await fs.promises.lstat(abs);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return code === "ENOENT" || code === "ENOTDIR"
      ? { kind: "missing" }
      : { kind: "unreadable", reason: code ?? String(e) };
  }
  const read = await readInside(cwd, abs, max);
  if (!read.ok) return { kind: "unreadable", reason: read.error };
  const text = decodeUtf8Strict(read.data);
  return text === null ? { kind: "unreadable", reason: "not UTF-8 text" } : { kind: "text", text };
}

/** Task ids that have evidence files (bundles or patches), with their file names; or why the folder was not listed. */
export async function listEvidenceTasks(
  cwd: string,
): Promise<{ ok: true; tasks: Map<string, string[]> } | { ok: false; error: string }> {
  const names = await listConfined(cwd, evidenceDir(cwd));
  if (!Array.isArray(names)) {
    return names.error === null ? { ok: true, tasks: new Map() } : { ok: false, error: names.error };
  }
  const tasks = new Map<string, string[]>();
  for (const name of names) {
    let id: string | null = null;
    if (name.endsWith(".patch")) id = name.slice(0, -".patch".length);
    else if (name.endsWith(".json")) id = groupTaskId(name);
    if (id) tasks.set(id, [...(tasks.get(id) ?? []), name]);
  }
  return { ok: true, tasks };
}

/**
 * Checks a task's `evidence_bundle` path (relative to the workspace, or
 * absolute): the evidence file name when it names a file directly inside
 * `.autodev/evidence/`, else why it is refused. Pure: nothing is read.
 */
export function checkBundleRef(cwd: string, ref: string): { ok: true; file: string } | { ok: false; error: string } {
  const rel = path.isAbsolute(ref) ? path.relative(cwd, ref) : ref;
  const parts = rel.split(/[\\/]/).filter((p) => p !== "" && p !== ".");
  const ok =
    isContainedRelPath(rel) &&
    parts.length === 3 &&
    parts[0] === AUTODEV_DIR &&
    parts[1] === EVIDENCE_DIR &&
    isSafeSegment(parts[2]);
  return ok
    ? { ok: true, file: parts[2] }
    : {
        ok: false,
        error: `evidence_bundle ${JSON.stringify(ref)} is not a file in ${AUTODEV_DIR}/${EVIDENCE_DIR}/; not read`,
      };
}
