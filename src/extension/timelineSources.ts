/**
 * Which sources a timeline can show: every source of every folder that has a timeline, named by
 * its key (`<folder uri>|<kind>`), in the registry's order. A folder URI (what commands pass)
 * names that folder's first source with a timeline.
 */
import * as vscode from "vscode";
import type { FolderChoice } from "../protocol";
import type { FolderTimeline, SourceFolder } from "./sources/sourceAdapter";
import type { StateFolders } from "./sources/stateFolders";

/** A source that has a timeline. */
export type TimelineSource = SourceFolder & { readonly timeline: FolderTimeline };

function hasTimeline(s: SourceFolder): s is TimelineSource {
  return s.timeline !== null;
}

/** The timelines to choose from, labelled for the picker. */
export function timelineChoices(folders: StateFolders): FolderChoice[] {
  const all = folders.all.filter(hasTimeline);
  const crowded = all.length > 1 || (vscode.workspace.workspaceFolders?.length ?? 0) > 1;
  return all.map((s) => ({ uri: s.key, name: s.timeline.label(crowded) }));
}

/** The source a key (or a folder URI) names, if it has a timeline. */
export function timelineSourceOf(folders: StateFolders, key: string): TimelineSource | undefined {
  const byKey = folders.byKey(key);
  if (byKey) return hasTimeline(byKey) ? byKey : undefined;
  return folders.all.filter(hasTimeline).find((s) => s.folder.uri.toString() === key);
}
