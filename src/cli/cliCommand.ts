/**
 * What a CLI command is, and what a state source adds to the CLI: its commands, its sections of
 * the usage text and the longer help of each command. A source registers it in
 * src/cli/sources/cliSources.ts (one line); the command table, `help` and the usage text are
 * built from the registrations, so nothing generic in src/cli/ names a source's command.
 */
import type { ParsedArgs } from "./cliArgs";

/** One subcommand: how to run it and which options it takes. */
export interface CliCommand {
  readonly run: CliRun;
  /** Options that take a value (`--at SEQ`). */
  readonly valued: readonly string[];
  /** Options that take none (`--json`). */
  readonly switches: readonly string[];
}

/** A source's part of the CLI. */
export interface SourceCli {
  /** Its commands by name. */
  readonly commands: Readonly<Record<string, CliCommand>>;
  /**
   * Its sections of the usage text: a heading line, then one line per command
   * (`  name ARGS   what it does`), sections separated by a blank line. A heading that starts
   * with "Write" marks commands that write (their help adds the write options line).
   */
  readonly usage: string;
  /** What each command does beyond its usage line, and its exit codes where they differ. */
  readonly details: Readonly<Record<string, string>>;
  /** What DIR means for this source's commands (a line of each command's help). */
  readonly dirNote: string;
  /** The help's last line for commands under a "Write" heading (write options, the lock taken). */
  readonly writeNote?: string;
}

/** How a command runs. */
export type CliRun = (args: ParsedArgs) => Promise<number>;

/**
 * A command whose module is loaded when it runs: a fresh `autodev-state verify` then loads (and
 * runs the module code of) what verify needs and not the other commands' sources, YAML or diff
 * code (about a third of the CLI's start-up).
 */
export function lazy<M>(load: () => Promise<M>, pick: (m: M) => CliRun): CliRun {
  return async (a) => pick(await load())(a);
}
