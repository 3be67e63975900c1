/**
 * `autodev-state`: the headless CLI over the same core the extension uses,
 * for CI and scripts. Maps errors to exit codes: 0 ok, 1 integrity failure,
 * 2 usage or bad input, 3 lock timeout, 4 transition not allowed, 5 (`verify`)
 * no ledger yet: AutoDev's plan phase has not stored a plan.
 */
import { ParsedArgs, USAGE, UsageError, parseArgs } from "./cliArgs";
import { eprintln, exitAfterOutput, println } from "./cliOutput";

// What the executable's loader (cliEntry.ts, dist/cli.js) calls once it has loaded this bundle.
export { exitAfterOutput } from "./cliOutput";
import { takeLimitOptions } from "./limitOptions";
import { cliVersion, commandHelp, helpHint } from "./cliHelp";
import {
  InvalidInputError,
  InvalidTransitionError,
  LedgerCorruptError,
  PartialCommitError,
  PlanConcurrentModificationError,
  PlanLockTimeoutError,
  WriteRefusedError,
} from "../core/errors";

type Command = { run: (a: ParsedArgs) => Promise<number>; valued: string[]; switches: string[] };
type Run = (a: ParsedArgs) => Promise<number>;

/**
 * A command whose module is loaded when it runs: a fresh `autodev-state verify` then loads (and
 * runs the module code of) what verify needs and not the other commands' sources, YAML or diff
 * code (about a third of the CLI's start-up).
 */
function lazy<M>(load: () => Promise<M>, pick: (m: M) => Run): Run {
  return async (a) => pick(await load())(a);
}
const read = () => import("./sources/autodev/readCommands");
const write = () => import("./sources/autodev/writeCommands");
const evidence = () => import("./sources/autodev/evidenceCommands");
const state = () => import("./sources/autodev/autodevStateCommands");
const generic = () => import("./sourceCommands");
const graph = () => import("./graphCommand");
const report = () => import("./sources/autodev/reportCommand");

const WRITE_OPTS = ["lock-timeout", "session"];
const COMMANDS: Record<string, Command> = {
  verify: {
    run: lazy(
      () => import("./sources/autodev/verifyCommand"),
      (m) => m.cmdVerify,
    ),
    valued: ["expect-head"],
    switches: ["json"],
  },
  replay: { run: lazy(read, (m) => m.cmdReplay), valued: ["at"], switches: ["json"] },
  load: { run: lazy(read, (m) => m.cmdLoad), valued: [], switches: ["json"] },
  status: {
    run: lazy(
      () => import("./sources/autodev/statusCommand"),
      (m) => m.cmdStatus,
    ),
    valued: [],
    switches: ["json"],
  },
  log: { run: lazy(read, (m) => m.cmdLog), valued: ["task", "op"], switches: ["json"] },
  evidence: { run: lazy(evidence, (m) => m.cmdEvidence), valued: [], switches: ["json"] },
  diff: { run: lazy(evidence, (m) => m.cmdDiff), valued: [], switches: ["json"] },
  tournaments: { run: lazy(state, (m) => m.cmdTournaments), valued: [], switches: ["json"] },
  knowledge: { run: lazy(state, (m) => m.cmdKnowledge), valued: [], switches: ["json"] },
  check: { run: lazy(generic, (m) => (a) => m.cmdCheck(a)), valued: [], switches: ["json"] },
  graph: { run: lazy(graph, (m) => (a) => m.cmdGraph(a)), valued: ["format", "source"], switches: ["json"] },
  report: { run: lazy(report, (m) => m.cmdReport), valued: ["format", "out"], switches: [] },
  sources: { run: lazy(generic, (m) => (a) => m.cmdSources(a)), valued: [], switches: ["json"] },
  "set-status": { run: lazy(write, (m) => m.cmdSetStatus), valued: ["reason", ...WRITE_OPTS], switches: [] },
  retry: { run: lazy(write, (m) => m.cmdRetry), valued: WRITE_OPTS, switches: [] },
  escalate: { run: lazy(write, (m) => m.cmdEscalate), valued: WRITE_OPTS, switches: [] },
  append: { run: lazy(write, (m) => m.cmdAppend), valued: ["payload", "payload-file", ...WRITE_OPTS], switches: [] },
  init: { run: lazy(write, (m) => m.cmdInit), valued: ["plan", ...WRITE_OPTS], switches: [] },
};

/** Runs the CLI with `argv` (without node and script) and returns the exit code. */
export async function runCli(argvIn: readonly string[]): Promise<number> {
  let argv: readonly string[];
  try {
    argv = takeLimitOptions(argvIn);
  } catch (e) {
    return reportError(e, undefined);
  }
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h") {
    println(USAGE);
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
    println(USAGE);
    return 0;
  }
  const text = commandHelp(name);
  if (text === null) {
    eprintln(`autodev-state: no command ${JSON.stringify(name)}; commands: ${Object.keys(COMMANDS).join(", ")}`);
    return 2;
  }
  println(text);
  return 0;
}

function reportError(e: unknown, command: string | undefined): number {
  if (e instanceof UsageError) {
    // One line saying what is wrong, one saying where to read more: not the whole usage text.
    eprintln(`autodev-state${command ? ` ${command}` : ""}: ${e.message}\n${helpHint(command)}`);
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
  eprintln(`autodev-state: unexpected error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
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
