/**
 * Argument parsing for `autodev-state`: positionals, `--flag value` options
 * and boolean switches, with usage errors as {@link UsageError} (exit code 2).
 */
import * as fs from "node:fs";

/** A mistake in how the command was called (exit code 2). */
export class UsageError extends Error {}

/** Parsed command line of one subcommand. */
export interface ParsedArgs {
  readonly positionals: string[];
  readonly options: Map<string, string>;
  readonly switches: Set<string>;
}

/**
 * Splits `argv` given the option names that take a value and the switch names
 * that do not. Unknown `--x` is a usage error.
 */
export function parseArgs(argv: readonly string[], valued: readonly string[], switches: readonly string[]): ParsedArgs {
  const positionals: string[] = [];
  const options = new Map<string, string>();
  const sw = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--") {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (a.startsWith("--")) {
      const eq = a.indexOf("=");
      const name = eq > 0 ? a.slice(2, eq) : a.slice(2);
      if (valued.includes(name)) {
        const value = eq > 0 ? a.slice(eq + 1) : argv[++i];
        if (value === undefined) throw new UsageError(`--${name} needs a value`);
        options.set(name, value);
      } else if (switches.includes(name) && eq < 0) {
        sw.add(name);
      } else {
        throw new UsageError(`unknown option --${name}`);
      }
    } else positionals.push(a);
  }
  return { positionals, options, switches: sw };
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
