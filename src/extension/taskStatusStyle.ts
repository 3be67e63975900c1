/**
 * How each of the ten task statuses looks: a codicon and a theme colour, so
 * the tree reads at a glance in light, dark and high-contrast themes. One
 * outline family of the same weight (a circle with a mark: ▷ in progress,
 * ● coded, ✓ reviewed, ■ blocked, ⊘ skipped), filled only when complete;
 * blocked has the warning colour, never the red of an integrity error; skipped uses the
 * description colour, which stays readable in light themes. The timeline
 * webview (webview/format.ts, media/timeline.css) uses the same icons.
 */
import * as vscode from "vscode";

const STYLE: Record<string, { icon: string; color: string; label: string }> = {
  pending: { icon: "circle-large-outline", color: "descriptionForeground", label: "pending" },
  in_progress: { icon: "play-circle", color: "charts.blue", label: "in progress" },
  coded: { icon: "record", color: "charts.blue", label: "coded" },
  auto_gated: { icon: "workspace-trusted", color: "charts.blue", label: "auto-gated" },
  reviewed: { icon: "pass", color: "charts.purple", label: "reviewed" },
  tested: { icon: "beaker", color: "charts.purple", label: "tested" },
  tournamented: { icon: "star-empty", color: "charts.yellow", label: "tournamented" },
  complete: { icon: "pass-filled", color: "testing.iconPassed", label: "complete" },
  blocked: { icon: "stop-circle", color: "problemsWarningIcon.foreground", label: "blocked" },
  skipped: { icon: "circle-slash", color: "descriptionForeground", label: "skipped" },
};

/** The icon of a status (an unknown status gets a question mark). */
export function statusIcon(status: string): vscode.ThemeIcon {
  const s = Object.prototype.hasOwnProperty.call(STYLE, status) ? STYLE[status] : undefined;
  return s ? new vscode.ThemeIcon(s.icon, new vscode.ThemeColor(s.color)) : new vscode.ThemeIcon("question", new vscode.ThemeColor("problemsWarningIcon.foreground"));
}

/** Human label of a status. */
export function statusLabel(status: string): string {
  return Object.prototype.hasOwnProperty.call(STYLE, status) ? STYLE[status].label : `unknown status "${status}"`;
}

/** Statuses that count as done for progress. */
export function isDone(status: string): boolean {
  return status === "complete" || status === "skipped";
}
