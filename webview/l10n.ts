/**
 * `l10n.t` for the webview, as `vscode.l10n.t` works in the host: the host
 * puts its translation bundle (`vscode.l10n.bundle`, message → translation;
 * empty in English) on the root element as `data-l10n`, {@link loadL10n}
 * takes it before the page is built, and `l10n.t("Go to #{0}", seq)` looks the
 * message up and fills in {0}, {1}… scripts/l10n-bundle.mjs collects these
 * messages into l10n/bundle.l10n.json with the host's.
 */

let bundle: ReadonlyMap<string, string> = new Map();

/** Takes the bundle from `root`'s `data-l10n` (string → string pairs only; anything else is ignored). */
export function loadL10n(root: HTMLElement): void {
  const raw = root.dataset.l10n;
  if (!raw) return;
  try {
    const parsed: unknown = JSON.parse(raw);
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) return;
    bundle = new Map(Object.entries(parsed).filter((e): e is [string, string] => typeof e[1] === "string"));
  } catch {
    /* not JSON: the page stays in English */
  }
}

/** The webview's translations. */
export const l10n = {
  /** The translation of `message` (itself when there is none), with {0}, {1}… replaced by `args`. */
  t(message: string, ...args: Array<string | number>): string {
    const text = bundle.get(message) ?? message;
    return text.replace(/\{(\d+)\}/g, (m, i: string) => (Number(i) < args.length ? String(args[Number(i)]) : m));
  },
};
