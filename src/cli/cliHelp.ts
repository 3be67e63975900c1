/**
 * Help for `autodev-state`: the usage text, `--version`, `help COMMAND` / `COMMAND --help`, and
 * the one-line hint a usage error ends with. The usage text is the generic commands plus every
 * registered source's sections (src/cli/sources/cliSources.ts); a command's help is its line(s) in
 * its section plus the source's explanation, so a command added to a section has help without
 * further edits.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { SourceCli } from "./cliCommand";
import { CLI_SOURCES } from "./sources/cliSources";
import { hintText } from "./cliRun";

const DIR_NOTE = "DIR is the workspace folder that holds the state (default: the current folder).";

const HEADER = `usage: autodev-state <command> [DIR] [options]

${DIR_NOTE}

Every state folder (.autodev/, .agloop/, engine_state/, …):
  check    [DIR] [--json]                      every problem of every state folder in DIR (exit 1 on an error, 2 when none)
  sources  [DIR] [--json]                      each state folder in DIR with a summary
  graph    [DIR] [--json | --format json|dot|mermaid|text] [--source KIND]
                                               tasks and dependencies: cycles, critical path, blocked chains`;

/** What the commands that serve every source do beyond their usage line. */
const GENERIC_DETAILS: Record<string, string> = {
  graph:
    "The tasks of every state folder in DIR and what they depend on (AutoDev's depends_on; agloop's depends_on and\n" +
    "dag_edges), with the dependency cycles, the critical path of what is not done and the tasks held up by a blocked one.\n" +
    "--format dot / mermaid for docs and pull requests (labels escaped); --json is --format json; --source KIND keeps one source.\n" +
    "A ledger that does not verify is drawn from its tail, marked NOT VERIFIED in every format, exit 1 (2 when unreadable).",
};

const FOOTER = `Help: autodev-state help COMMAND (or COMMAND --help), autodev-state --version.
Exit codes: 0 ok, 1 integrity failure, 2 usage error or bad input, 3 lock timeout, 4 transition not allowed,
5 (verify) no ledger yet: AutoDev's plan phase has not stored a plan.`;

/** The top-level usage text. */
export const USAGE = [HEADER, ...CLI_SOURCES.map((s) => s.usage), FOOTER].join("\n\n");

/** The help text of one command, or null when there is no such command. */
export function commandHelp(name: string): string | null {
  const generic: SourceCli = { commands: {}, usage: HEADER, details: GENERIC_DETAILS, dirNote: DIR_NOTE };
  for (const source of [generic, ...CLI_SOURCES]) {
    const lines = source.usage.split("\n");
    const own = lines.filter((l) => l.startsWith(`  ${name} `));
    if (own.length === 0) continue;
    const writeAt = lines.findIndex((l) => l.startsWith("Write"));
    const isWrite = writeAt >= 0 && lines.indexOf(own[0]) > writeAt;
    const tidy = (l: string) =>
      l
        .trim()
        .replace(/^(\S+)\s+/, "$1 ")
        .replace(/\s{3,}/, "   ");
    const out = [`usage: autodev-state ${own.map(tidy).join("\n       autodev-state ")}`];
    const details = source.details[name];
    if (details) out.push("", details);
    out.push("", source.dirNote);
    if (isWrite && source.writeNote) out.push(source.writeNote);
    return out.join("\n");
  }
  return null;
}

/** The hint a usage error ends with. */
export function helpHint(command: string | undefined): string {
  return hintText(command && commandHelp(command) ? command : undefined);
}

/** This CLI's version: the `version` of the package.json it ships in (found next to or above this file). */
export function cliVersion(): string {
  let dir = __dirname;
  for (let i = 0; i < 5; i++) {
    try {
      const manifest = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")) as {
        name?: unknown;
        version?: unknown;
      };
      if (manifest.name === "autodev-state" && typeof manifest.version === "string") return manifest.version;
    } catch {
      /* not here: look one folder up */
    }
    dir = path.dirname(dir);
  }
  return "unknown";
}
