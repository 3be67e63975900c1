/**
 * Reads and validates `.autodev/config.json` like Python's `load_config`
 * (pydantic `model_validate_json`, then `require_all_roles()`), keeping every
 * error with its path and line for the Problems view, and the settings other
 * readers need even when the file is broken (`qa_retry_limit`, `hive.path`).
 */
import * as os from "node:os";
import * as path from "node:path";
import { AUTODEV_DIR, CONFIG_FILE } from "../autodevPaths";
import { readWorkspaceStateFile } from "../stateFile";
import { LocatedError, locate, own, validateJsonText } from "../validateJson";
import {
  AutodevConfig,
  AutodevConfigSchema,
  DEFAULT_HIVE_PATH,
  DEFAULT_QA_RETRY_LIMIT,
  missingAgentRoles,
} from "./configSchema";
import { pyLaxInt } from "../pydanticLax";

/** The config file, relative to the workspace. */
export const CONFIG_REL = `${AUTODEV_DIR}/${CONFIG_FILE}`;

/** What `.autodev/config.json` holds. */
export interface ConfigReport {
  /** False when there is no config.json (then everything else is empty). */
  readonly present: boolean;
  readonly file: string;
  readonly ok: boolean;
  /** Validation errors (path, message, line); a read error has path "(file)". */
  readonly errors: readonly LocatedError[];
  /** The validated config with defaults filled in (null when invalid). */
  readonly config: AutodevConfig | null;
  /** `qa_retry_limit`: the valid value in the file, the default when absent, null when unusable. */
  readonly qaRetryLimit: number | null;
  /** `hive.path` as written (a valid string), or null. */
  readonly hivePath: string | null;
  /** `hive.enabled and knowledge.hive_enabled` as far as the file says (default true). */
  readonly hiveEnabled: boolean;
}

function laxValue<T>(v: unknown, parse: (x: unknown) => { success: boolean; data?: T }): T | undefined {
  if (v === undefined) return undefined;
  const r = parse(v);
  return r.success ? r.data : undefined;
}

/** Reads `.autodev/config.json` of `cwd`; never throws. */
export async function readConfig(cwd: string): Promise<ConfigReport> {
  const empty = { file: CONFIG_REL, config: null, hivePath: null, hiveEnabled: true };
  const read = await readWorkspaceStateFile(cwd, CONFIG_REL);
  if (read.kind === "missing") return { ...empty, present: false, ok: true, errors: [], qaRetryLimit: null };
  if (read.kind === "error") {
    return {
      ...empty,
      present: true,
      ok: false,
      errors: [{ path: "(file)", message: read.error, line: 1 }],
      qaRetryLimit: null,
    };
  }
  const v = validateJsonText(read.text, AutodevConfigSchema);
  if (v.ok) {
    const missing = missingAgentRoles(v.value);
    const errors = missing.length
      ? [locate(v.lines, ["agents"], `missing required agent roles: [${missing.map((r) => `'${r}'`).join(", ")}]`)]
      : [];
    return {
      present: true,
      file: CONFIG_REL,
      ok: errors.length === 0,
      errors,
      config: v.value,
      qaRetryLimit: v.value.qa_retry_limit,
      hivePath: v.value.hive.path,
      hiveEnabled: v.value.hive.enabled && v.value.knowledge.hive_enabled,
    };
  }
  const raw = v.raw;
  const limitRaw = own(raw, "qa_retry_limit");
  const limit =
    limitRaw === undefined
      ? DEFAULT_QA_RETRY_LIMIT
      : (laxValue<number>(limitRaw, (x) => pyLaxInt.safeParse(x)) ?? null);
  const hivePath = own(own(raw, "hive"), "path");
  const enabled = (x: unknown) => x === undefined || x === true;
  return {
    present: true,
    file: CONFIG_REL,
    ok: false,
    errors: v.errors,
    config: null,
    qaRetryLimit: limit,
    hivePath: typeof hivePath === "string" ? hivePath : null,
    hiveEnabled: enabled(own(own(raw, "hive"), "enabled")) && enabled(own(own(raw, "knowledge"), "hive_enabled")),
  };
}

/**
 * The hive file Python would use: `hive.path` with `~` expanded (relative
 * paths are taken from the workspace, where `autodev` runs), else the default
 * under the home folder.
 */
export function resolveHivePath(cwd: string, setting: string | null, home = os.homedir()): string {
  const p = setting ?? DEFAULT_HIVE_PATH;
  if (p === "~" || p.startsWith("~/")) return path.join(home, p.slice(1));
  return path.isAbsolute(p) ? p : path.join(cwd, p);
}

/** `convergence_k` of a phase: the config's when valid, else the shipped default (plan 2, impl 1). */
export function convergenceK(cfg: AutodevConfig | null, phase: "plan" | "impl"): number {
  return cfg ? cfg.tournaments[phase].convergence_k : phase === "plan" ? 2 : 1;
}

/** "retry 2/3" (or "retry 2" when the limit is unknown). */
export function retryLabel(retryCount: number, limit: number | null): string {
  return limit === null ? `retry ${retryCount}` : `retry ${retryCount}/${limit}`;
}
