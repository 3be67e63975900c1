/**
 * Argument parsing for `autodev-state`: positionals, `--flag value` options
 * and boolean switches (node:util's parseArgs, strict), with usage errors as
 * {@link UsageError} (exit code 2) that say what was found and what to write.
 */
import * as fs from "node:fs";
import { parseArgs as nodeParseArgs } from "node:util";

/** A mistake in how the command was called (exit code 2). */
export class UsageError extends Error {}

/** Parsed command line of one subcommand. */
export interface ParsedArgs {
  readonly positionals: string[];
  readonly options: Map<string, string>;
  readonly switches: Set<string>;
}

/**
 * Splits `argv` given the option names that take a value and the switch names that do not, with
 * `node:util`'s parseArgs in strict mode (`--name value`, `--name=value`, `--` before positionals
 * that start with "-"). What it refuses is a {@link UsageError} that quotes the argument, says
 * what was expected and what to do instead.
 */
export function parseArgs(argv: readonly string[], valued: readonly string[], switches: readonly string[]): ParsedArgs {
  const config: Record<string, { type: "string" | "boolean" }> = {};
  for (const name of valued) config[name] = { type: "string" };
  for (const name of switches) config[name] = { type: "boolean" };
  let parsed: { values: Record<string, string | boolean | undefined>; positionals: string[] };
  try {
    parsed = nodeParseArgs({ args: [...argv], options: config, strict: true, allowPositionals: true });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (typeof code !== "string" || !code.startsWith("ERR_PARSE_ARGS_")) throw e;
    throw new UsageError(argumentMistake(argv, valued, switches) ?? (e as Error).message);
  }
  const options = new Map<string, string>();
  const sw = new Set<string>();
  for (const [name, value] of Object.entries(parsed.values)) {
    if (typeof value === "string") options.set(name, value);
    else if (value === true) sw.add(name);
  }
  return { positionals: parsed.positionals, options, switches: sw };
}

/**
 * Takes option `--name VALUE` / `--name=VALUE` out of `argv` wherever it stands (before the
 * command name or after it, never after `--`), tokenized by the same `node:util` parseArgs as
 * {@link parseArgs}: the values given, in order (undefined where the command line ends first),
 * and the arguments left for the command's own strict parse.
 */
export function takeOption(argv: readonly string[], name: string): { values: (string | undefined)[]; rest: string[] } {
  const { tokens } = nodeParseArgs({
    args: [...argv],
    options: { [name]: { type: "string" } },
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const taken = new Set<number>();
  const values: (string | undefined)[] = [];
  for (const t of tokens) {
    if (t.kind !== "option" || t.name !== name) continue;
    taken.add(t.index);
    if (!t.inlineValue && t.value !== undefined) taken.add(t.index + 1);
    values.push(t.value);
  }
  return { values, rest: argv.filter((_, i) => !taken.has(i)) };
}

/** The options a command takes, as its help writes them ("--json, --at VALUE"), or that it takes none. */
function takes(valued: readonly string[], switches: readonly string[]): string {
  const all = [...valued.map((n) => `--${n} VALUE`), ...switches.map((n) => `--${n}`)];
  return all.length > 0 ? `its options are ${all.join(", ")}` : "it takes no options";
}

/** The first argument the strict parse refused, said as what was found, what was expected and what to do. */
function argumentMistake(
  argv: readonly string[],
  valued: readonly string[],
  switches: readonly string[],
): string | null {
  const options = Object.fromEntries([
    ...valued.map((n) => [n, { type: "string" as const }]),
    ...switches.map((n) => [n, { type: "boolean" as const }]),
  ]);
  const { tokens } = nodeParseArgs({ args: [...argv], options, strict: false, allowPositionals: true, tokens: true });
  for (const t of tokens) {
    if (t.kind !== "option") continue;
    const arg = JSON.stringify(argv[t.index]);
    if (valued.includes(t.name)) {
      if (t.value === undefined) {
        return `${arg} needs a value and the command line ends there; write --${t.name} VALUE (or --${t.name}=VALUE)`;
      }
      if (!t.inlineValue && t.value.length > 1 && t.value.startsWith("-")) {
        return (
          `${arg} needs a value, but the next argument is ${JSON.stringify(t.value)}, which reads as an option; ` +
          `write --${t.name}=${t.value} if that is the value, or give --${t.name} its value first`
        );
      }
    } else if (switches.includes(t.name)) {
      if (t.inlineValue) return `${arg}: --${t.name} is a switch and takes no value; write --${t.name} alone`;
    } else {
      const near = nearest(t.name, [...valued, ...switches]);
      const hint = near ? `did you mean --${near}? ` : "";
      const dash = t.rawName.startsWith("--")
        ? ""
        : `; an argument that starts with "-" but is not an option goes after "--" (-- ${argv[t.index]})`;
      return `unknown option ${arg}: ${hint}${takes(valued, switches)}${dash}`;
    }
  }
  return null;
}

/** The known name within two edits of `name` (a typo: "jsn" for "json"), if exactly one is. */
function nearest(name: string, known: readonly string[]): string | null {
  const close = known.filter((k) => editDistance(name, k) <= Math.min(2, Math.floor(k.length / 2)));
  return close.length === 1 ? close[0] : null;
}

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = row;
  }
  return prev[b.length];
}

/**
 * Splits positionals into `[DIR]` plus exactly `names.length` required ones.
 * DIR defaults to the current folder. With one positional too few, a first
 * positional that is an existing folder is taken as DIR, so `escalate DIR`
 * says "missing TASK" rather than looking for a task named DIR.
 */
export function withOptionalDir(
  positionals: readonly string[],
  names: readonly string[],
): { dir: string; values: string[] } {
  const n = positionals.length;
  const want = ["[DIR]", ...names].join(" ");
  const firstIsDir = n > 0 && isFolder(positionals[0]);
  if (n === names.length + 1) return { dir: positionals[0], values: positionals.slice(1) };
  if (n === names.length && !(n > 0 && firstIsDir)) return { dir: process.cwd(), values: [...positionals] };
  if (n > names.length + 1) {
    throw new UsageError(
      `too many arguments: expected ${want}, got ${n} (${positionals
        .slice(names.length + 1)
        .map((a) => JSON.stringify(a))
        .join(" ")} left over)`,
    );
  }
  const missing = names.slice(firstIsDir ? n - 1 : n);
  throw new UsageError(`missing ${missing.join(" and ")} (expected ${want})`);
}

function isFolder(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** Parses `--lock-timeout SECONDS` (default 30). */
export function lockTimeout(args: ParsedArgs): number {
  const raw = args.options.get("lock-timeout");
  if (raw === undefined) return 30;
  const v = Number(raw);
  if (!Number.isFinite(v) || v < 0) {
    throw new UsageError(`--lock-timeout must be a number of seconds ≥ 0, got ${JSON.stringify(raw)}`);
  }
  return v;
}

/** Checks that DIR exists (a missing `.autodev/` inside it is a clean slate). */
export function requireDir(dir: string): void {
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) throw new UsageError(`${dir} is not a folder`);
}
