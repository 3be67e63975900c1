/**
 * The words of src/core in the user's language, as `vscode.l10n.t` works in the host: the host
 * gives its translation bundle (`vscode.l10n.bundle`, message → translation; none in English) to
 * {@link setL10nBundle} on activation and to the state worker when it starts, so the tree, the
 * timeline and its find, the hovers and the language-model tools say the same words; the CLI and
 * the report files stay English. `l10n.t("retry {0}", n)` translates a literal message;
 * {@link msg} marks a message held in a table (a source's op and status words) that
 * {@link translate} looks up when it is shown. scripts/l10n-bundle.mjs collects both into
 * l10n/bundle.l10n.json.
 */

let bundle: ReadonlyMap<string, string> = new Map();
let version = 0;

/** Changes whenever the bundle is replaced (so what was translated before can be redone). */
export function l10nVersion(): number {
  return version;
}

/** Takes the host's translation bundle (string → string pairs only; anything else is ignored). */
export function setL10nBundle(raw: unknown): void {
  version++;
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
    bundle = new Map();
    return;
  }
  bundle = new Map(Object.entries(raw).filter((e): e is [string, string] => typeof e[1] === "string"));
}

/** The translation bundle the worker thread is started with (a plain copy). */
export function l10nBundle(): Record<string, string> {
  return Object.fromEntries(bundle);
}

/** The translation of `message` (itself when there is none), with {0}, {1}… replaced by `args`. */
export function translate(message: string, ...args: Array<string | number>): string {
  const text = bundle.get(message) ?? message;
  return text.replace(/\{(\d+)\}/g, (m, i: string) => (Number(i) < args.length ? String(args[Number(i)]) : m));
}

/** Marks a message of a word table for the bundle; it is shown through {@link translate}. */
export function msg<T extends string>(message: T): T {
  return message;
}

/** src/core's translations of literal messages. */
export const l10n = { t: translate };
