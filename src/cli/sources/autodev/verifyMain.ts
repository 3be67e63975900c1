/**
 * `dist/cliVerify.js`: the CLI with `verify` alone, the command CI runs most. The loader
 * (src/cli/cliEntry.ts) runs it for a command line that starts with `verify` and asks for no help, so a
 * fresh `autodev-state verify` reads, compiles and initialises the verify code only (about 0.4 MB
 * of the whole CLI's 1.3 MB: no other command, no YAML, diff or report code). Everything else,
 * the help included, goes to the whole CLI (src/cli/main.ts, `dist/cliMain.js`); both run a command line
 * through the same src/cli/cliRun.ts, so `verify` prints and exits the same from either bundle.
 * Only the loader runs it: it has no entry of its own (`node dist/cliVerify.js` does nothing).
 */
import { type CliTable, hintText, runCommandLine } from "../../cliRun";
import { cmdVerify } from "./verifyCommand";
import { VERIFY_OPTIONS } from "./verifyOptions";

// What the executable's loader calls once it has loaded this bundle.
export { exitAfterOutput } from "../../cliOutput";

/** Help is the whole CLI's: this bundle is never asked for it (the loader's `isVerifyOnly`, src/cli/cliEntry.ts). */
function noHelp(): never {
  throw new Error("dist/cliVerify.js runs `verify` only; help comes from dist/cliMain.js");
}

/** `verify` alone; a usage error's hint is the one the whole CLI prints for `verify`. */
const VERIFY_ONLY: CliTable = {
  commands: { verify: { run: cmdVerify, ...VERIFY_OPTIONS } },
  usage: noHelp,
  commandHelp: noHelp,
  helpHint: (command) => hintText(command === "verify" ? command : undefined),
  version: noHelp,
};

/** Runs a `verify` command line (one the loader's `isVerifyOnly` accepts) and returns the exit code. */
export function runCli(argvIn: readonly string[]): Promise<number> {
  return runCommandLine(argvIn, VERIFY_ONLY);
}
