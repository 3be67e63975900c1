/**
 * Where agloop keeps its state and how it is read safely: every path is lstat'ed component by
 * component below the workspace (no symbolic links, no FIFOs or devices, regular files only),
 * opened with O_NOFOLLOW|O_NONBLOCK and re-checked with fstat, and read up to a size cap.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { SourceProblem } from "../stateSource";

/** The state folder and its files, relative to the workspace folder (forward slashes). */
export const AGLOOP_DIR = ".agloop";
export const STATE_FILE = ".agloop/state.json";
export const PLAN_FILE = ".agloop/plan.yaml";
export const LOG_FILE = ".agloop/log.json";
export const CHECKPOINTS_DIR = ".agloop/checkpoints";

/** Caps that keep a hostile folder from exhausting memory. */
export const AGLOOP_LIMITS = {
  stateBytes: 16 * 1024 * 1024,
  planBytes: 4 * 1024 * 1024,
  checkpointBytes: 16 * 1024 * 1024,
  logLineBytes: 1024 * 1024,
  checkpointFiles: 200,
  problemsPerFile: 500,
  timelineRows: 50_000,
} as const;

/** The outcome of a guarded read. */
export type GuardedRead =
  | { readonly kind: "missing" }
  | { readonly kind: "refused"; readonly problem: SourceProblem }
  | { readonly kind: "ok"; readonly text: string };

/** A guarded open file (regular, inside the workspace); the caller closes it. */
export type GuardedOpen =
  | { readonly kind: "missing" }
  | { readonly kind: "refused"; readonly problem: SourceProblem }
  | { readonly kind: "ok"; readonly handle: fs.promises.FileHandle; readonly size: number };

/** A refusal problem for `rel` (code "unsafe_file" or "file_too_large"). */
export function refusal(rel: string, code: "unsafe_file" | "file_too_large", message: string): SourceProblem {
  return { file: rel, line: null, severity: "error", code, message };
}

/** What an lstat result is, for messages. */
function kindOf(st: fs.Stats): string {
  if (st.isSymbolicLink()) return "a symbolic link";
  if (st.isFIFO()) return "a FIFO (named pipe)";
  if (st.isSocket()) return "a socket";
  if (st.isCharacterDevice() || st.isBlockDevice()) return "a device";
  if (st.isDirectory()) return "a directory";
  return "not a regular file";
}

/**
 * lstat's every component of `rel` below `workspace`: folders must be real folders, the last
 * component `want` ("file" or "dir"). Returns the absolute path, "missing", or a refusal.
 */
export async function guardPath(
  workspace: string,
  rel: string,
  want: "file" | "dir",
): Promise<
  { kind: "ok"; abs: string; stat: fs.Stats } | { kind: "missing" } | { kind: "refused"; problem: SourceProblem }
> {
  const parts = rel.split("/").filter((p) => p.length > 0);
  if (parts.some((p) => p === ".." || p === ".")) {
    return {
      kind: "refused",
      problem: refusal(rel, "unsafe_file", `${rel} leaves the workspace; agloop state is read only inside it.`),
    };
  }
  let abs = workspace;
  for (let i = 0; i < parts.length; i++) {
    abs = path.join(abs, parts[i]);
    let st: fs.Stats;
    try {
      st = await fs.promises.lstat(abs);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === "ENOENT" || code === "ENOTDIR") return { kind: "missing" };
      return {
        kind: "refused",
        problem: refusal(
          rel,
          "unsafe_file",
          `Cannot inspect ${parts.slice(0, i + 1).join("/")}: ${code ?? String(e)}.`,
        ),
      };
    }
    const last = i === parts.length - 1;
    const ok = last && want === "file" ? st.isFile() : st.isDirectory();
    if (!ok) {
      const shown = parts.slice(0, i + 1).join("/");
      const expected = last && want === "file" ? "a regular file" : "a folder";
      return {
        kind: "refused",
        problem: refusal(
          rel,
          "unsafe_file",
          `${shown} is ${kindOf(st)}; expected ${expected} inside the workspace. It was not read: replace it with ${expected}.`,
        ),
      };
    }
    if (last) return { kind: "ok", abs, stat: st };
  }
  return { kind: "missing" };
}

/** Opens `rel` for reading after `guardPath`, refusing anything that changed kind in between or exceeds `maxBytes`. */
export async function openGuarded(workspace: string, rel: string, maxBytes: number): Promise<GuardedOpen> {
  const guarded = await guardPath(workspace, rel, "file");
  if (guarded.kind !== "ok") return guarded;
  let handle: fs.promises.FileHandle;
  try {
    handle = await fs.promises.open(
      guarded.abs,
      fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK,
    );
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return { kind: "missing" };
    return { kind: "refused", problem: refusal(rel, "unsafe_file", `Cannot open ${rel}: ${code ?? String(e)}.`) };
  }
  const st = await handle.stat();
  if (!st.isFile() || st.ino !== guarded.stat.ino) {
    await handle.close();
    return {
      kind: "refused",
      problem: refusal(
        rel,
        "unsafe_file",
        `${rel} changed into something other than a regular file while it was opened; it was not read.`,
      ),
    };
  }
  if (st.size > maxBytes) {
    await handle.close();
    const mib = (n: number): string => `${(n / 1024 / 1024).toFixed(1)} MiB`;
    return {
      kind: "refused",
      problem: refusal(
        rel,
        "file_too_large",
        `${rel} is ${mib(st.size)}; the limit is ${mib(maxBytes)}. It was not read.`,
      ),
    };
  }
  return { kind: "ok", handle, size: st.size };
}

/** Reads a whole guarded file as UTF-8 (at most `maxBytes`). */
export async function readGuarded(workspace: string, rel: string, maxBytes: number): Promise<GuardedRead> {
  const opened = await openGuarded(workspace, rel, maxBytes);
  if (opened.kind !== "ok") return opened;
  try {
    const buf = Buffer.alloc(Math.min(opened.size, maxBytes) + 1);
    let filled = 0;
    while (filled < buf.length) {
      const { bytesRead } = await opened.handle.read(buf, filled, buf.length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    if (filled > maxBytes) {
      return {
        kind: "refused",
        problem: refusal(rel, "file_too_large", `${rel} grew past the ${maxBytes}-byte limit while it was read.`),
      };
    }
    return { kind: "ok", text: buf.subarray(0, filled).toString("utf8") };
  } finally {
    await opened.handle.close();
  }
}

/** Resolves after `ms` milliseconds (the retry of a half-written file). */
export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
