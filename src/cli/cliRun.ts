/**
 * One command line run against a table of commands: the limit options, `--help`, `--version`,
 * `help COMMAND`, the command itself, and the exit code each error maps to (0 ok, 1 integrity
 * failure, 2 usage or bad input, 3 lock timeout, 4 transition not allowed, 70 unexpected).
 * main.ts runs it with every command; sources/autodev/verifyMain.ts with `verify` alone (the bundle dist/cli.js
 * loads for a plain `verify`, so that command does not load and initialise the whole CLI).
 */
import { UsageError, parseArgs } from "./cliArgs";
import type { CliCommand } from "./cliCommand";
import { eprintln, exitQuietlyWhenStdoutCloses, printLines, println } from "./cliOutput";
import { takeLimitOptions } from "./limitOptions";
import {
  InvalidInputError,
  InvalidTransitionError,
  ContractRefusedError,
  LedgerCorruptError,
  PartialCommitError,
  PlanConcurrentModificationError,
  PlanLockTimeoutError,
  WriteRefusedError,
} from "../core/errors";

/** The commands a bundle can run, and the help it prints. */
export interface CliTable {
  readonly commands: Readonly<Record<string, CliCommand>>;
  /** The whole usage text. */
  usage(): string;
  /** One command's help, or null when there is no such command. */
  commandHelp(name: string): string | null;
  /** The line a usage error ends with. */
  helpHint(command: string | undefined): string;
  /** This CLI's version. */
  version(): string;
}

/** The hint line for a usage error: the command's help when it has one, else the whole help. */
export function hintText(commandWithHelp: string | undefined): string {
  return commandWithHelp ? `run \`autodev-state help ${commandWithHelp}\`` : "run `autodev-state help`";
}

/** Runs `argvIn` (without node and script) against `table` and returns the exit code. */
export async function runCommandLine(argvIn: readonly string[], table: CliTable): Promise<number> {
  exitQuietlyWhenStdoutCloses();
  let argv: readonly string[];
  try {
    argv = takeLimitOptions(argvIn);
  } catch (e) {
    return reportError(e, undefined, table);
  }
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h") {
    printLines(table.usage());
    return name === undefined ? 2 : 0;
  }
  if (name === "--version" || name === "-V" || name === "version") {
    println(`autodev-state ${table.version()}`);
    return 0;
  }
  if (name === "help") return printHelp(rest[0], table);
  const commands = table.commands;
  const command = Object.prototype.hasOwnProperty.call(commands, name) ? commands[name] : undefined;
  if (command && (rest.includes("--help") || rest.includes("-h"))) return printHelp(name, table);
  try {
    if (!command) {
      throw new UsageError(`unknown command ${JSON.stringify(name)}; commands: ${Object.keys(commands).join(", ")}`);
    }
    return await command.run(parseArgs(rest, command.valued, command.switches));
  } catch (e) {
    return reportError(e, command ? name : undefined, table);
  }
}

/** `help [COMMAND]`: the command's help, or the whole usage; exit 2 for an unknown command. */
function printHelp(name: string | undefined, table: CliTable): number {
  if (name === undefined) {
    printLines(table.usage());
    return 0;
  }
  const text = table.commandHelp(name);
  if (text === null) {
    eprintln(`autodev-state: no command ${JSON.stringify(name)}; commands: ${Object.keys(table.commands).join(", ")}`);
    return 2;
  }
  printLines(text);
  return 0;
}

function reportError(e: unknown, command: string | undefined, table: CliTable): number {
  if (e instanceof UsageError) {
    // One line saying what is wrong, one saying where to read more: not the whole usage text.
    eprintln(`autodev-state${command ? ` ${command}` : ""}: ${e.message}`);
    eprintln(table.helpHint(command));
    return 2;
  }
  if (e instanceof LedgerCorruptError) {
    eprintln(`autodev-state: ledger integrity failure: ${e.message}`);
    return 1;
  }
  if (e instanceof PlanLockTimeoutError) {
    eprintln(`autodev-state: ${e.message}`);
    return 3;
  }
  if (e instanceof ContractRefusedError) {
    eprintln(`autodev-state: ${e.message}`);
    return 4;
  }
  if (e instanceof InvalidTransitionError) {
    eprintln(`autodev-state: ${e.message}. The ledger was not changed.`);
    return 4;
  }
  if (
    e instanceof InvalidInputError ||
    e instanceof PlanConcurrentModificationError ||
    e instanceof WriteRefusedError ||
    e instanceof PartialCommitError
  ) {
    eprintln(`autodev-state: ${e.message}`);
    return 2;
  }
  const err = e as NodeJS.ErrnoException;
  if (err && typeof err.code === "string" && typeof err.syscall === "string") {
    eprintln(
      `autodev-state: ${err.syscall} failed: ${err.message}. Nothing was changed; check the path and its permissions and free disk space.`,
    );
    return 2;
  }
  const [first, ...trace] = (e instanceof Error ? (e.stack ?? e.message) : String(e)).split("\n");
  eprintln(`autodev-state: unexpected error: ${first}`);
  for (const line of trace) eprintln(line);
  return 70;
}
