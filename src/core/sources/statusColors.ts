/**
 * The extension's own status colours, as theme colour ids (package.json `contributes.colors`
 * defines them; test/unit/package/statusColors.test.ts keeps the two equal). Each status colour of
 * the shared task language (taskStatusIcons.ts) has one id, so a theme or
 * `workbench.colorCustomizations` can restyle it, and the built-in colour it takes in dark and
 * high-contrast themes (`fallbackColor`, also what a webview falls back to when the editor does
 * not define the id). In light themes complete, tournamented and blocked default to darker tones
 * of the same hue, so their icons reach WCAG AA 3:1 on the sidebar (VS Code's testing.iconPassed
 * and warning yellow do not on Light Modern's #F8F8F8).
 */

/** A status colour: the extension's theme colour id and the built-in one it defaults to. */
export interface StatusColor {
  readonly color: string;
  readonly fallbackColor: string;
}

/** The status colours by name: pending, in progress (also coded, auto-gated), reviewed (also tested), … */
export const STATUS_COLORS = {
  pending: { color: "autodev.status.pending", fallbackColor: "descriptionForeground" },
  inProgress: { color: "autodev.status.inProgress", fallbackColor: "charts.blue" },
  reviewed: { color: "autodev.status.reviewed", fallbackColor: "charts.purple" },
  tournamented: { color: "autodev.status.tournamented", fallbackColor: "charts.yellow" },
  complete: { color: "autodev.status.complete", fallbackColor: "testing.iconPassed" },
  blocked: { color: "autodev.status.blocked", fallbackColor: "problemsWarningIcon.foreground" },
  skipped: { color: "autodev.status.skipped", fallbackColor: "descriptionForeground" },
} as const satisfies Readonly<Record<string, StatusColor>>;

/** The built-in colour id one of the extension's status colours defaults to (undefined for any other id). */
export function statusColorFallback(color: string): string | undefined {
  return Object.values(STATUS_COLORS).find((c) => c.color === color)?.fallbackColor;
}
