/**
 * `dist/extension.js`, the module VS Code loads (package.json "main"): a small loader that turns
 * on Node's compile cache (`module.enableCompileCache`, Node ≥ 22.1; the extension host of
 * VS Code 1.9x runs Node 20–24) in the extension's own global storage folder, then loads the
 * extension itself (`dist/extensionMain.js`, built from extension.ts) and hands `activate` on. A
 * later start then reads V8's compiled code of the 1.9 MB bundle instead of compiling it again
 * (about 55 ms of the host's main thread before the first paint; see docs/benchmarks.md).
 *
 * Harmless when unavailable: an older Node, `NODE_DISABLE_COMPILE_CACHE`, a cache already
 * enabled by the host (then the host's own folder serves), a folder that cannot be made or
 * `AUTODEV_STATE_COMPILE_CACHE=0` only cost the compile. Nothing is written in the workspace.
 */
import * as path from "node:path";
import * as nodeModule from "node:module";
import type * as vscode from "vscode";
import type { StateApi, StartupFacts } from "./extension";
import { errorText } from "../core/text/errorText";

/** The part of `node:module` the loader uses (each member absent on a Node without it). */
export interface CompileCacheModule {
  enableCompileCache?: (dir: string) => { status: number; message?: string; directory?: string };
  flushCompileCache?: () => void;
  constants?: { compileCacheStatus?: Partial<Record<"FAILED" | "ENABLED" | "ALREADY_ENABLED" | "DISABLED", number>> };
}

/** What `startCompileCache` did, in words for the output log ("enabled", "unavailable: …"). */
export type CompileCacheState = string;

/** The extension bundle's exports this loader calls (extension.ts). */
interface ExtensionMain {
  activate(context: vscode.ExtensionContext, startup?: StartupFacts): StateApi;
  deactivate(): Promise<void>;
}

/** Turns on Node's compile cache in `dir`; never throws. */
export function startCompileCache(
  dir: string,
  api: CompileCacheModule = nodeModule as CompileCacheModule,
  env: NodeJS.ProcessEnv = process.env,
): CompileCacheState {
  if (env.AUTODEV_STATE_COMPILE_CACHE === "0") return "off (AUTODEV_STATE_COMPILE_CACHE=0)";
  if (typeof api.enableCompileCache !== "function") return `unavailable (Node ${process.version})`;
  try {
    const res = api.enableCompileCache(dir);
    const s = api.constants?.compileCacheStatus ?? {};
    if (res.status === s.ENABLED) return "enabled";
    if (res.status === s.ALREADY_ENABLED) return `already enabled by the host (${res.directory ?? "?"})`;
    if (res.status === s.DISABLED) return "disabled (NODE_DISABLE_COMPILE_CACHE)";
    return `failed (${res.message ?? `status ${res.status}`})`;
  } catch (e) {
    return `failed (${errorText(e)})`;
  }
}

/** Writes what the cache holds now to disk (Node ≥ 23 writes it on exit only otherwise); never throws. */
export function flushCompileCache(api: CompileCacheModule = nodeModule as CompileCacheModule): void {
  try {
    api.flushCompileCache?.();
  } catch {
    // a cache that cannot be written is only a slower next start
  }
}

let main: ExtensionMain | null = null;

/** Loads the extension through the compile cache and activates it. */
export function activate(context: vscode.ExtensionContext): StateApi {
  const t0 = performance.now();
  const compileCache = startCompileCache(path.join(context.globalStorageUri.fsPath, "compile-cache"));
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  main = require("./extensionMain.js") as ExtensionMain;
  const api = main.activate(context, { compileCache, loadMs: performance.now() - t0 });
  // Once the tree first answered, so the cache also holds what that compiled.
  void api.firstPaint.then(() => flushCompileCache());
  return api;
}

/** Hands deactivation on to the extension. */
export async function deactivate(): Promise<void> {
  await main?.deactivate();
}
