/**
 * The pattern a source's watch glob is watched with. A glob naming one file (no wildcard) becomes
 * a non-recursive pattern on that file's folder: VS Code then watches it even where the workspace
 * watcher does not report changes (`.git/HEAD`, `.git/logs/HEAD`, anything in `files.watcherExclude`)
 * and even outside the workspace folder (a worktree's git folder, `../main/.git/worktrees/x/HEAD`).
 * Wildcard globs stay relative to the workspace folder.
 */
import * as vscode from "vscode";

/** `glob` (relative to `folder`, forward slashes) as a pattern for `createFileSystemWatcher`. */
export function watchPattern(folder: vscode.WorkspaceFolder, glob: string): vscode.RelativePattern {
  if (/[*?[\]{}]/.test(glob)) return new vscode.RelativePattern(folder, glob);
  const slash = glob.lastIndexOf("/");
  if (slash < 0) return new vscode.RelativePattern(folder, glob);
  return new vscode.RelativePattern(vscode.Uri.joinPath(folder.uri, glob.slice(0, slash)), glob.slice(slash + 1));
}
