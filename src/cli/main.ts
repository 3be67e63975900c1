/**
 * `autodev-state`: the headless CLI over the same core the extension uses,
 * for CI and scripts. Maps errors to exit codes: 0 ok, 1 integrity failure,
 * 2 usage or bad input, 3 lock timeout, 4 transition not allowed, 5 (`verify`)
 * no ledger yet: AutoDev's plan phase has not stored a plan.
 */
import { UsageError, parseArgs } from "./cliArgs";
import { type CliCommand, lazy } from "./cliCommand";
import { eprintln, exitAfterOutput, exitQuietlyWhenStdoutCloses, printLines, println } from "./cliOutput";

// What the executable's loader (cliEntry.ts, dist/cli.js) calls once it has loaded this bundle.
export { exitAfterOutput } from "./cliOutput";
import { takeLimitOptions } from "./limitOptions";
import { USAGE, cliVersion, commandHelp, helpHint } from "./cliHelp";
import { CLI_SOURCES } from "./sources/cliSources";
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

const generic = () => import("./sourceCommands");
const graph = () => import("./graphCommand");

/** Every command: each registered source's, then the ones that serve every source. */
const COMMANDS: Record<string, CliCommand> = Object.assign({}, ...CLI_SOURCES.map((s) => s.commands), {
  check: { run: lazy(generic, (m) => (a) => m.cmdCheck(a)), valued: [], switches: ["json"] },
  graph: { run: lazy(graph, (m) => (a) => m.cmdGraph(a)), valued: ["format", "source"], switches: ["json"] },
  sources: { run: lazy(generic, (m) => (a) => m.cmdSources(a)), valued: [], switches: ["json"] },
} satisfies Record<string, CliCommand>);

/** Runs the CLI with `argv` (without node and script) and returns the exit code. */
export async function runCli(argvIn: readonly string[]): Promise<number> {
  exitQuietlyWhenStdoutCloses();
  let argv: readonly string[];
  try {
    argv = takeLimitOptions(argvIn);
  } catch (e) {
    return reportError(e, undefined);
  }
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h") {
    printLines(USAGE);
    return name === undefined ? 2 : 0;
  }
  if (name === "--version" || name === "-V" || name === "version") {
    println(`autodev-state ${cliVersion()}`);
    return 0;
  }
  if (name === "help") return printHelp(rest[0]);
  const command = Object.prototype.hasOwnProperty.call(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (command && (rest.includes("--help") || rest.includes("-h"))) return printHelp(name);
  try {
    if (!command) {
      throw new UsageError(`unknown command ${JSON.stringify(name)}; commands: ${Object.keys(COMMANDS).join(", ")}`);
    }
    return await command.run(parseArgs(rest, command.valued, command.switches));
  } catch (e) {
    return reportError(e, command ? name : undefined);
  }
}

/** `help [COMMAND]`: the command's help, or the whole usage; exit 2 for an unknown command. */
function printHelp(name: string | undefined): number {
  if (name === undefined) {
    printLines(USAGE);
    return 0;
  }
  const text = commandHelp(name);
  if (text === null) {
    eprintln(`autodev-state: no command ${JSON.stringify(name)}; commands: ${Object.keys(COMMANDS).join(", ")}`);
    return 2;
  }
  printLines(text);
  return 0;
}

function reportError(e: unknown, command: string | undefined): number {
  if (e instanceof UsageError) {
    // One line saying what is wrong, one saying where to read more: not the whole usage text.
    eprintln(`autodev-state${command ? ` ${command}` : ""}: ${e.message}`);
    eprintln(helpHint(command));
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

if (require.main === module) {
  runCli(process.argv.slice(2)).then(
    (code) => exitAfterOutput(code),
    (e) => {
      eprintln(String(e));
      exitAfterOutput(70);
    },
  );
}
