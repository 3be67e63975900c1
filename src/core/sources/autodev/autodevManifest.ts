/**
 * What a host knows of AutoDev's `.autodev/` without its engine (src/core/sources/manifestRegistry.ts);
 * the engine, autodevSource.ts, is this plus the readers.
 */
import type { SourceManifest } from "../stateSource";
import { AUTODEV_DETECT_GLOBS, LEDGER_FILE } from "./autodevPaths";
import { LEDGER_TIMELINE_FEATURES } from "./timeline/ledgerTimelineWords";

/** AutoDev's manifest. */
export const autodevManifest: SourceManifest = {
  kind: "autodev",
  displayName: "AutoDev",
  detectGlobs: AUTODEV_DETECT_GLOBS,
  // Python AutoDev appends by copy, append, fsync and os.replace of the ledger.
  liveFiles: [LEDGER_FILE],
  timelineFeatures: LEDGER_TIMELINE_FEATURES,
};
