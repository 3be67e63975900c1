/**
 * Which sources a timeline can show: every source of every folder that has a timeline, named by
 * its key (`<folder uri>|<kind>`), in the registry's order. A folder URI (what commands pass)
 * names that folder's first source with a timeline.
 */
import * as vscode from "vscode";
import type { SourceChoice, TimelineView } from "../../protocolTimeline";
import { LOG_TIMELINE_FEATURES } from "../../core/timeline/logTimelineFeatures";
import { localizedFeatures } from "../../core/timeline/timelineWords";
import type { FolderTimeline, SourceFolder } from "../sources/sourceAdapter";
import type { StateFolders } from "../sources/stateFolders";

/** A source that has a timeline. */
export type TimelineSource = SourceFolder & { readonly timeline: FolderTimeline };

function hasTimeline(s: SourceFolder): s is TimelineSource {
  return s.timeline !== null;
}

/** What a source's rows are and which controls apply: its features, and what its adapter can do in the tree. */
function timelineViewOf(s: TimelineSource): TimelineView {
  return {
    ...localizedFeatures(s.source.timelineFeatures ?? LOG_TIMELINE_FEATURES),
    timeTravel: !!s.timeline.travel,
    revealTask: !!s.timeline.revealTask,
  };
}

/** What rows are while no source is chosen: a plain log of agents' actions, in the UI language. */
export function plainTimelineView(): TimelineView {
  return { ...localizedFeatures(LOG_TIMELINE_FEATURES), timeTravel: false, revealTask: false };
}

/** The timelines to choose from, labelled for the picker. */
export function timelineChoices(folders: StateFolders): SourceChoice[] {
  const all = folders.all.filter(hasTimeline);
  const crowded = all.length > 1 || (vscode.workspace.workspaceFolders?.length ?? 0) > 1;
  return all.map((s) => ({ key: s.key, name: s.timeline.label(crowded), view: timelineViewOf(s) }));
}

/** The source a key (or a folder URI) names, if it has a timeline. */
export function timelineSourceOf(folders: StateFolders, key: string): TimelineSource | undefined {
  const byKey = folders.byKey(key);
  if (byKey) return hasTimeline(byKey) ? byKey : undefined;
  return folders.all.filter(hasTimeline).find((s) => s.folder.uri.toString() === key);
}
