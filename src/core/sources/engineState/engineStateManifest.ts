/**
 * What a host knows of `engine_state/` without its engine (src/core/sources/manifestRegistry.ts);
 * the engine, engineStateSource.ts, is this plus the readers.
 */
import type { SourceManifest } from "../stateSource";

/** The default folder name, at the workspace folder's root. */
export const ENGINE_STATE_DIR = "engine_state";
/** The three files of a checkpoint. */
export const MANIFEST_FILE = "manifest.json";
export const RECOGNIZERS_FILE = "recognizers.jsonl";
export const CANDIDATES_FILE = "discovery_candidates.jsonl";

/** engine_state's manifest. */
export const engineStateManifest: SourceManifest = {
  kind: "engine_state",
  displayName: "engine_state",
  settings: ["engineStateDir"],
  // The default folder's files appearing or going (a configured folder is re-detected when the setting changes).
  detectGlobs: [MANIFEST_FILE, RECOGNIZERS_FILE, CANDIDATES_FILE].map((name) => `${ENGINE_STATE_DIR}/${name}`),
};
