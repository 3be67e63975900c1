/**
 * What a host knows of agloop's `.agloop/` without its engine (src/core/sources/manifestRegistry.ts);
 * the engine, agloopSource.ts, is this plus the readers.
 */
import type { SourceManifest } from "../stateSource";
import type { TimelineFeatures } from "../../timeline/timelineFeatureTypes";
import { LOG_TIMELINE_FEATURES } from "../../timeline/logTimelineFeatures";
import { msg } from "../../text/coreL10n";
import { STATUS_COLORS } from "../statusColors";

/** The action id of "recover from checkpoint" (agloopRecovery.ts runs it). */
export const RECOVER_ACTION = "recoverFromCheckpoint";

/** agloop's log: agents take turns, each row reports an outcome (success, failure, skipped) of one action. */
export const AGLOOP_TIMELINE_FEATURES: TimelineFeatures = {
  ...LOG_TIMELINE_FEATURES,
  words: {
    ...LOG_TIMELINE_FEATURES.words,
    statuses: {
      success: { icon: "pass", ...STATUS_COLORS.complete, label: msg("success") },
      failure: { icon: "error", color: "testing.iconFailed", label: msg("failure") },
      skipped: { icon: "circle-slash", ...STATUS_COLORS.skipped, label: msg("skipped") },
    },
  },
};

/** agloop's manifest. */
export const agloopManifest: SourceManifest = {
  kind: "agloop",
  displayName: "agloop",
  detectGlobs: [".agloop/state.json", ".agloop/plan.yaml", ".agloop/log.json"],
  timelineFeatures: AGLOOP_TIMELINE_FEATURES,
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
