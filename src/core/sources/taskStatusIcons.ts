/**
 * The icon language of task statuses, shared by every source so a task looks
 * the same whoever wrote it: a codicon, a theme colour and a label. Sources
 * map their own status names onto these (agloop's "failed" → "blocked", …).
 */
import type { NodeIcon } from "./stateSource";
import type { TimelineStatusWords } from "../timeline/timelineFeatureTypes";
import { l10n, msg, translate } from "../text/coreL10n";
import { STATUS_COLORS } from "./statusColors";

// One outline family of the same weight (a circle with a mark: ▷ in progress, ● coded, ✓ reviewed,
// ■ blocked, ⊘ skipped), filled only when complete; blocked has the warning colour, never the red
// of an integrity error; skipped uses the description colour, readable in light themes. The colours
// are the extension's own ids (statusColors.ts), each defaulting to a built-in one. The timeline
// webview gets the same table with AutoDev's timeline words ({@link TASK_STATUS_WORDS}).
const STYLE: Readonly<Record<string, TimelineStatusWords>> = {
  pending: { icon: "circle-large-outline", ...STATUS_COLORS.pending, label: msg("pending") },
  in_progress: { icon: "play-circle", ...STATUS_COLORS.inProgress, label: msg("in progress") },
  coded: { icon: "record", ...STATUS_COLORS.inProgress, label: msg("coded") },
  auto_gated: { icon: "workspace-trusted", ...STATUS_COLORS.inProgress, label: msg("auto-gated") },
  reviewed: { icon: "pass", ...STATUS_COLORS.reviewed, label: msg("reviewed") },
  tested: { icon: "beaker", ...STATUS_COLORS.reviewed, label: msg("tested") },
  tournamented: { icon: "star-empty", ...STATUS_COLORS.tournamented, label: msg("tournamented") },
  complete: { icon: "pass-filled", ...STATUS_COLORS.complete, label: msg("complete") },
  blocked: { icon: "stop-circle", ...STATUS_COLORS.blocked, label: msg("blocked") },
  skipped: { icon: "circle-slash", ...STATUS_COLORS.skipped, label: msg("skipped") },
};

/** The ten statuses' icon, colour and label, as a timeline's status words. */
export const TASK_STATUS_WORDS: Readonly<Record<string, TimelineStatusWords>> = STYLE;

/** The icon of a status in the shared language (an unknown status gets a warning-coloured question mark). */
export function taskStatusIcon(status: string): NodeIcon {
  const s = Object.prototype.hasOwnProperty.call(STYLE, status) ? STYLE[status] : undefined;
  return s ? { id: s.icon, color: s.color } : { id: "question", color: "problemsWarningIcon.foreground" };
}

/** Human label of a status, in the user's language (an unknown one says so). */
export function taskStatusLabel(status: string): string {
  return Object.prototype.hasOwnProperty.call(STYLE, status)
    ? translate(STYLE[status].label)
    : l10n.t('unknown status "{0}"', status);
}

/** Statuses that count as done for progress. */
export function isDoneStatus(status: string): boolean {
  return status === "complete" || status === "skipped";
}
