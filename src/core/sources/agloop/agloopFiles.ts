/**
 * Where agloop keeps its state and how it is read safely: the shared checks of
 * src/core/fs/fileGuard.ts with `links: "refuse"` (every path lstat'ed component by component
 * below the workspace: no symbolic links, no FIFOs or devices, regular files only; opened with
 * O_NOFOLLOW|O_NONBLOCK and re-checked with fstat; read up to a size cap), worded as Problems.
 */
import type * as fs from "node:fs";
import * as path from "node:path";
import { openGuarded, readGuarded } from "../../fs/guardedOpen";
import { guardPath, type FileGuardOptions, type FileRefusal, type FoundKind } from "../../fs/fileGuard";
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
  /** 1 MiB: the YAML parser costs about 2 s and 150 MB per MiB of the worst shapes (a plan is a few KB). */
  planBytes: 1024 * 1024,
  checkpointBytes: 16 * 1024 * 1024,
  logLineBytes: 1024 * 1024,
  checkpointFiles: 200,
  /** Checkpoints read for the listing (the newest; the hooks keep about 10); older ones are listed by name. */
  checkpointsRead: 20,
  /** One under PROBLEMS_PER_FILE: log.json adds its own "N more" line and all of it is listed. */
  problemsPerFile: 199,
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
function refusal(rel: string, code: "unsafe_file" | "file_too_large", message: string): SourceProblem {
  return { file: rel, line: null, severity: "error", code, message };
}

/** What a path is, for messages. */
function kindOf(kind: FoundKind): string {
  switch (kind) {
    case "character device":
    case "block device":
      return "a device";
    case "special file":
      return "not a regular file";
    default:
      return `a ${kind}`;
  }
}

/** The problem for `rel` that the shared checks refused. */
function refusalProblem(rel: string, why: FileRefusal): SourceProblem {
  const mib = (n: number): string => `${(n / 1024 / 1024).toFixed(1)} MiB`;
  switch (why.why) {
    case "escapes":
      return refusal(rel, "unsafe_file", `${rel} leaves the workspace; agloop state is read only inside it.`);
    case "unreadable": {
      const verb = why.step === "check" ? "inspect" : why.step;
      return refusal(rel, "unsafe_file", `Cannot ${verb} ${why.at ?? rel}: ${why.code}.`);
    }
    case "wrong kind": {
      const expected = why.expected === "file" ? "a regular file" : "a folder";
      return refusal(
        rel,
        "unsafe_file",
        `${why.at ?? rel} is ${kindOf(why.found)}; expected ${expected} inside the workspace. It was not read: replace it with ${expected}.`,
      );
    }
    case "changed":
      return refusal(
        rel,
        "unsafe_file",
        why.found === null
          ? `${rel} kept being replaced while it was opened; it was not read (try again).`
          : `${rel} changed into ${kindOf(why.found)} while it was opened; it was not read.`,
      );
    case "swapped":
      return refusal(
        rel,
        "unsafe_file",
        `A folder above ${rel} was swapped for a link while it was opened (it led to ${why.real}${why.inside ? "" : ", outside the workspace"}); it was not read.`,
      );
    case "too large":
      return refusal(
        rel,
        "file_too_large",
        `${rel} is ${mib(why.size)}; the limit is ${mib(why.maxBytes)}. It was not read.`,
      );
    case "grew":
      return refusal(rel, "file_too_large", `${rel} grew past the ${why.maxBytes}-byte limit while it was read.`);
    default:
      return refusal(rel, "unsafe_file", `${rel} cannot be checked (${why.why}); it was not read.`);
  }
}

/** The shared checks with agloop's policy: inside the workspace, no symbolic link anywhere below it. */
function guardOptions(workspace: string, maxBytes?: number): FileGuardOptions {
  return { root: workspace, links: "refuse", notDirIsMissing: true, ...(maxBytes === undefined ? {} : { maxBytes }) };
}

function absolute(workspace: string, rel: string): string {
  return path.join(workspace, ...rel.split("/"));
}

/**
 * lstat's every component of `rel` below `workspace`: folders must be real folders, the last
 * component `want` ("file" or "dir"). Returns the absolute path, "missing", or a refusal.
 */
export async function guardAgloopPath(
  workspace: string,
  rel: string,
  want: "file" | "dir",
): Promise<
  { kind: "ok"; abs: string; stat: fs.Stats } | { kind: "missing" } | { kind: "refused"; problem: SourceProblem }
> {
  if (rel.split("/").some((p) => p === ".." || p === ".")) {
    return { kind: "refused", problem: refusalProblem(rel, { why: "escapes" }) };
  }
  const checked = await guardPath(
    absolute(workspace, rel),
    guardOptions(workspace),
    want === "dir" ? "folder" : "file",
  );
  if (checked.kind === "refused") return { kind: "refused", problem: refusalProblem(rel, checked.refusal) };
  return checked.kind === "ok" ? { kind: "ok", abs: checked.real, stat: checked.stat } : checked;
}

/** Opens `rel` for reading after `guardAgloopPath`, refusing anything that changed kind in between or exceeds `maxBytes`. */
export async function openAgloopFile(workspace: string, rel: string, maxBytes: number): Promise<GuardedOpen> {
  const opened = await openGuarded(absolute(workspace, rel), guardOptions(workspace, maxBytes));
  if (opened.kind === "refused") return { kind: "refused", problem: refusalProblem(rel, opened.refusal) };
  return opened.kind === "open" ? { kind: "ok", handle: opened.handle, size: opened.size } : opened;
}

/** Reads a whole guarded file as UTF-8 (at most `maxBytes`). */
export async function readAgloopFile(workspace: string, rel: string, maxBytes: number): Promise<GuardedRead> {
  const read = await readGuarded(absolute(workspace, rel), guardOptions(workspace, maxBytes));
  if (read.kind === "refused") return { kind: "refused", problem: refusalProblem(rel, read.refusal) };
  return read.kind === "read" ? { kind: "ok", text: read.bytes.toString("utf8") } : read;
}

/** Resolves after `ms` milliseconds (the retry of a half-written file). */
export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
