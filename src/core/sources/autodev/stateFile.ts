/**
 * Reading one state file safely: lstat first (a missing file is not an
 * error), only regular files (never opens a FIFO, socket or device: a cloned
 * repository can carry any of them), links resolved and, for workspace
 * files, confined to the workspace; a size cap; strict UTF-8. Never throws.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { decodeUtf8Strict } from "../../ledger/read/ledgerLineReader";

/** What reading a state file gave. */
export type StateFileRead =
  | { readonly kind: "missing" }
  | { readonly kind: "error"; readonly error: string }
  | { readonly kind: "ok"; readonly text: string; readonly bytes: number };

/** Largest small state file read (config, inline state, responses, spec). */
export const MAX_SMALL_STATE_BYTES = 4 * 1024 * 1024;

function describeType(st: fs.Stats): string {
  if (st.isDirectory()) return "a folder";
  if (st.isFIFO()) return "a FIFO";
  if (st.isSocket()) return "a socket";
  if (st.isCharacterDevice() || st.isBlockDevice()) return "a device";
  return "not a regular file";
}

function inside(root: string, real: string): boolean {
  const rel = path.relative(root, real);
  return rel !== "" && !rel.startsWith("..") && !path.isAbsolute(rel);
}

/**
 * Reads `abs` as UTF-8 text. With `confineTo` (the workspace), a file that
 * resolves outside it is refused; without it (the hive file under the home
 * folder) any regular file is read. `label` names the file in messages.
 */
export async function readRegularFile(abs: string, max: number, confineTo: string | null, label = abs): Promise<StateFileRead> {
  let lst: fs.Stats;
  try {
    lst = await fs.promises.lstat(abs);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return code === "ENOENT" || code === "ENOTDIR" ? { kind: "missing" } : { kind: "error", error: `cannot read ${label}: ${code ?? String(e)}` };
  }
  let real: string;
  let st: fs.Stats;
  try {
    real = await fs.promises.realpath(abs);
    st = lst.isSymbolicLink() ? await fs.promises.stat(real) : lst;
  } catch (e) {
    return { kind: "error", error: `${label} is a link that cannot be followed (${(e as NodeJS.ErrnoException).code ?? String(e)}); not read` };
  }
  if (confineTo !== null) {
    const root = await fs.promises.realpath(confineTo).catch(() => confineTo);
    if (!inside(root, real)) return { kind: "error", error: `${label} resolves to ${real}, outside the workspace; not read` };
  }
  if (!st.isFile()) return { kind: "error", error: `${label} is ${describeType(st)}, expected a regular file; not read` };
  if (st.size > max) return { kind: "error", error: `${label} is ${st.size} bytes, over the ${max}-byte limit; not read` };
  let fh: fs.promises.FileHandle;
  try {
    fh = await fs.promises.open(real, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0));
  } catch (e) {
    return { kind: "error", error: `cannot open ${label}: ${(e as NodeJS.ErrnoException).code ?? String(e)}` };
  }
  try {
    const now = await fh.stat();
    if (!now.isFile()) return { kind: "error", error: `${label} is ${describeType(now)}, expected a regular file; not read` };
    if (now.size > max) return { kind: "error", error: `${label} is ${now.size} bytes, over the ${max}-byte limit; not read` };
    const buf = Buffer.alloc(Math.min(now.size, max) + 1);
    let n = 0;
    for (;;) {
      const { bytesRead } = await fh.read(buf, n, buf.length - n, n);
      if (bytesRead === 0) break;
      n += bytesRead;
      if (n > max) return { kind: "error", error: `${label} grew past the ${max}-byte limit while being read; not read` };
      if (n === buf.length) break;
    }
    const text = decodeUtf8Strict(buf.subarray(0, n));
    return text === null ? { kind: "error", error: `${label} is not valid UTF-8` } : { kind: "ok", text, bytes: n };
  } catch (e) {
    return { kind: "error", error: `cannot read ${label}: ${(e as NodeJS.ErrnoException).code ?? String(e)}` };
  } finally {
    await fh.close();
  }
}

/** Reads a file of the workspace `cwd` given relative to it (forward slashes), confined to the workspace. */
export function readWorkspaceStateFile(cwd: string, rel: string, max = MAX_SMALL_STATE_BYTES): Promise<StateFileRead> {
  return readRegularFile(path.join(cwd, ...rel.split("/")), max, cwd, rel);
}

/** Names in a workspace folder (sorted), `[]` when it does not exist, or why it was not listed. */
export async function listWorkspaceDir(cwd: string, rel: string): Promise<{ ok: true; names: string[] } | { ok: false; error: string }> {
  const abs = path.join(cwd, ...rel.split("/"));
  let lst: fs.Stats;
  try {
    lst = await fs.promises.lstat(abs);
  } catch {
    return { ok: true, names: [] };
  }
  try {
    const root = await fs.promises.realpath(cwd);
    const real = await fs.promises.realpath(abs);
    if (!inside(root, real)) return { ok: false, error: `${rel} resolves to ${real}, outside the workspace; not read` };
    const st = lst.isSymbolicLink() ? await fs.promises.stat(real) : lst;
    if (!st.isDirectory()) return { ok: false, error: `${rel} is ${describeType(st)}, expected a folder` };
    return { ok: true, names: (await fs.promises.readdir(real)).sort() };
  } catch (e) {
    return { ok: false, error: `cannot list ${rel}: ${(e as NodeJS.ErrnoException).code ?? String(e)}` };
  }
}

/** True when `rel` (workspace-relative) is a regular file, not a link (nothing is opened). */
export async function isPlainWorkspaceFile(cwd: string, rel: string): Promise<boolean> {
  try {
    return (await fs.promises.lstat(path.join(cwd, ...rel.split("/")))).isFile();
  } catch {
    return false;
  }
}
