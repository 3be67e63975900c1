/**
 * The extension's own status colours, as theme colour ids (package.json `contributes.colors`
 * defines them; test/unit/package/statusColors.test.ts keeps the two equal). Each status colour of
 * the shared task language (taskStatusIcons.ts) has one id, so a theme or
 * `workbench.colorCustomizations` can restyle it, and the built-in colour it takes in dark and
 * high-contrast themes (`fallbackColor`, also what a webview falls back to when the editor does
 * not define the id). In light themes complete, tournamented and blocked default to darker tones
 * of the same hue, so their icons reach WCAG AA 3:1 on the sidebar (VS Code's testing.iconPassed
 * and warning yellow do not on Light Modern's #F8F8F8). Each id has one dot: a webview's CSS
 * variable is "--vscode-" + the id with only its first dot made a dash (VS Code's
 * webviewThemeDataProvider), so `autodev.status.complete` would be `--vscode-autodev-status.complete`
 * there, unlike the workbench's `--vscode-autodev-status-complete`, and the webviews would only
 * ever show the fallback.
 */

/** A status colour: the extension's theme colour id and the built-in one it defaults to. */
export interface StatusColor {
  readonly color: string;
  readonly fallbackColor: string;
}

/** The status colours by name: pending, in progress (also coded, auto-gated), reviewed (also tested), … */
export const STATUS_COLORS = {
  pending: { color: "autodevStatus.pending", fallbackColor: "descriptionForeground" },
  inProgress: { color: "autodevStatus.inProgress", fallbackColor: "charts.blue" },
  reviewed: { color: "autodevStatus.reviewed", fallbackColor: "charts.purple" },
  tournamented: { color: "autodevStatus.tournamented", fallbackColor: "charts.yellow" },
  complete: { color: "autodevStatus.complete", fallbackColor: "testing.iconPassed" },
  blocked: { color: "autodevStatus.blocked", fallbackColor: "problemsWarningIcon.foreground" },
  skipped: { color: "autodevStatus.skipped", fallbackColor: "descriptionForeground" },
} as const satisfies Readonly<Record<string, StatusColor>>;

/** The built-in colour id one of the extension's status colours defaults to (undefined for any other id). */
export function statusColorFallback(color: string): string | undefined {
  return Object.values(STATUS_COLORS).find((c) => c.color === color)?.fallbackColor;
}
