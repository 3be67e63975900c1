/**
 * `autodev-state`: the headless CLI over the same core the extension uses,
 * for CI and scripts. Maps errors to exit codes: 0 ok, 1 integrity failure,
 * 2 usage or bad input, 3 lock timeout, 4 transition not allowed, 5 (`verify`)
 * no ledger yet: AutoDev's plan phase has not stored a plan. (How a command
 * line runs and what each error maps to: cliRun.ts.)
 */
import { type CliCommand, lazy } from "./cliCommand";
import { eprintln, exitAfterOutput } from "./cliOutput";
import { type CliTable, runCommandLine } from "./cliRun";

// What the executable's loader (cliEntry.ts, dist/cli.js) calls once it has loaded this bundle.
export { exitAfterOutput } from "./cliOutput";
import { USAGE, cliVersion, commandHelp, helpHint } from "./cliHelp";
import { CLI_SOURCES } from "./sources/cliSources";

const generic = () => import("./sourceCommands");
const graph = () => import("./graphCommand");

/** Every command: each registered source's, then the ones that serve every source. */
const COMMANDS: Record<string, CliCommand> = Object.assign({}, ...CLI_SOURCES.map((s) => s.commands), {
  check: { run: lazy(generic, (m) => (a) => m.cmdCheck(a)), valued: [], switches: ["json"] },
  graph: { run: lazy(graph, (m) => (a) => m.cmdGraph(a)), valued: ["format", "source"], switches: ["json"] },
  sources: { run: lazy(generic, (m) => (a) => m.cmdSources(a)), valued: [], switches: ["json"] },
} satisfies Record<string, CliCommand>);

/** The whole CLI: every command and the whole help. */
const FULL: CliTable = { commands: COMMANDS, usage: () => USAGE, commandHelp, helpHint, version: cliVersion };

/** Runs the CLI with `argv` (without node and script) and returns the exit code. */
export function runCli(argvIn: readonly string[]): Promise<number> {
  return runCommandLine(argvIn, FULL);
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
