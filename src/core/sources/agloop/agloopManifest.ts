/**
 * What a host knows of agloop's `.agloop/` without its engine (src/core/sources/manifestRegistry.ts);
 * the engine, agloopSource.ts, is this plus the readers.
 */
import type { SourceManifest } from "../stateSource";

/** The action id of "recover from checkpoint" (agloopRecovery.ts runs it). */
export const RECOVER_ACTION = "recoverFromCheckpoint";

/** agloop's manifest. */
export const agloopManifest: SourceManifest = {
  kind: "agloop",
  displayName: "agloop",
  detectGlobs: [".agloop/state.json", ".agloop/plan.yaml", ".agloop/log.json"],
  commands: [
    {
      command: "autodev.recoverFromCheckpoint",
      nodeCommand: "autodev.recoverFromThisCheckpoint",
      action: RECOVER_ACTION,
      placeHolder: "Recover .agloop/state.json from which checkpoint? (newest first)",
      none: "No checkpoint in .agloop/checkpoints/ to recover from.",
    },
  ],
};
