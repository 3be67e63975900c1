/**
 * Where an `engine_state/` checkpoint (ADR-0146) lives in a workspace folder: `engine_state/`
 * at its root, or the folder named by the setting `autodev.engineStateDir` or by the writer's
 * environment variable `CORE_ENGINE_STATE_DIR`, relative to the workspace folder.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { DetectOptions, SourceLocation } from "../stateSource";
import { isInside } from "../../fs/pathInside";
import { ENGINE_STATE_DIR } from "./engineStateManifest";

/** The writer's environment variable naming the folder. */
const ENGINE_STATE_ENV = "CORE_ENGINE_STATE_DIR";

/** A location plus, when the configured folder cannot be used, why (shown as a problem). */
export interface EngineStateLocation extends SourceLocation {
  readonly refusal?: string;
}

/** The configured folder (setting, then environment, then the default), as written. */
function configuredDir(options: DetectOptions = {}): { readonly value: string; readonly from: string } {
  const raw = options.settings?.engineStateDir;
  const setting = typeof raw === "string" ? raw.trim() : "";
  if (setting) return { value: setting, from: "the setting autodev.engineStateDir" };
  const env = (options.env ?? process.env)[ENGINE_STATE_ENV]?.trim();
  if (env) return { value: env, from: `the environment variable ${ENGINE_STATE_ENV}` };
  return { value: ENGINE_STATE_DIR, from: "the default" };
}

/** `file` (absolute) relative to `workspace`, with forward slashes. */
export function relativeTo(workspace: string, file: string): string {
  return path.relative(workspace, file).split(path.sep).join("/");
}

/** What is at a checkpoint folder path: a usable folder, nothing, or something that must not be read. */
export type DirInspection =
  | { readonly kind: "folder" }
  | { readonly kind: "missing" }
  | { readonly kind: "not_folder" }
  | { readonly kind: "refused"; readonly reason: string };

/** Looks at `dir` without reading anything outside `workspace` (links are resolved and checked first). */
export async function inspectEngineStateDir(workspace: string, dir: string): Promise<DirInspection> {
  if (!isInside(path.resolve(workspace), path.resolve(dir))) {
    return { kind: "refused", reason: `${dir} is outside the workspace folder; it is not read` };
  }
  let stat: fs.Stats;
  try {
    stat = await fs.promises.lstat(dir);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return { kind: "missing" };
    return { kind: "refused", reason: `the folder cannot be read (${code})` };
  }
  if (stat.isSymbolicLink()) {
    const real = await fs.promises.realpath(dir).catch(() => null);
    const root = await fs.promises.realpath(workspace).catch(() => null);
    if (real === null || root === null) return { kind: "refused", reason: "the folder is a link that leads nowhere" };
    if (!isInside(root, real)) {
      return { kind: "refused", reason: "the folder is a link to a path outside the workspace folder; it is not read" };
    }
    stat = await fs.promises.stat(real);
  }
  return stat.isDirectory() ? { kind: "folder" } : { kind: "not_folder" };
}

/**
 * The checkpoint folder of `workspace`, or null when there is none (a missing folder is a clean
 * slate, not an error). A configured folder outside the workspace, or a configured path that
 * is not a folder, is returned with a `refusal` and is never read.
 */
export async function detectEngineState(
  workspace: string,
  options: DetectOptions = {},
): Promise<EngineStateLocation | null> {
  const { value, from } = configuredDir(options);
  const dir = path.resolve(workspace, value);
  const base = { kind: "engine_state" as const, workspace, dir, relDir: relativeTo(workspace, dir) || "." };
  const found = await inspectEngineStateDir(workspace, dir);
  switch (found.kind) {
    case "folder":
      return base;
    case "missing":
      return null;
    case "not_folder":
      // A stray file named engine_state is not a checkpoint; a configured path that is not a folder is worth a word.
      return from === "the default" ? null : { ...base, refusal: `${from} names ${value}, which is not a folder` };
    case "refused":
      return { ...base, refusal: `${from} names ${value}: ${found.reason}` };
  }
}
