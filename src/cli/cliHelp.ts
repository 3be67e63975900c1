/**
 * Help for `autodev-state`: `--version`, `help COMMAND` / `COMMAND --help`,
 * and the one-line hint a usage error ends with. A command's help is its
 * line(s) in the top-level usage text plus a short explanation, so a command
 * added to USAGE has help without further edits.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { USAGE } from "./cliArgs";

/** What each command does beyond its usage line, and its exit codes where they differ from the rest. */
const DETAILS: Record<string, string> = {
  verify:
    "Checks every ledger entry the way Python AutoDev does (JSON, schema, seq, prev_hash, self_hash), then replays the plan.\n" +
    "Prints every finding with its line, then warnings: status changes the task state machine forbids, tasks past\n" +
    "reviewed/tested without that evidence, a plan.json that does not match the ledger.\n" +
    "--expect-head SEQ:HASH (the head a previous `verify --json` printed, committed beside the code) also requires\n" +
    'entry SEQ to still be there with that self_hash: a cut tail ("truncated: the ledger ends at seq N") or a replaced\n' +
    'history ("rewritten: entry SEQ has hash X") fails, though what is left of the chain verifies.\n' +
    "Exit 0 when the chain and the replay are sound (warnings do not fail), 1 when broken or the head is gone, 5 when .autodev/ has no ledger yet (the plan phase: nothing to verify), 2 when there is no .autodev/.",
  graph:
    "The tasks of every state folder in DIR and what they depend on (AutoDev's depends_on; agloop's depends_on and\n" +
    "dag_edges), with the dependency cycles, the critical path of what is not done and the tasks held up by a blocked one.\n" +
    "--format dot / mermaid for docs and pull requests (labels escaped); --json is --format json; --source KIND keeps one source.",
  replay:
    "Rebuilds the plan from the first entry. --at SEQ stops after entry SEQ (1 … the last seq): the plan as it was then.",
  load: "The plan as Python's PlanManager.load returns it: the latest snapshot plus the entries after it.",
  status:
    "One row per task: phase, status, retries, escalation, evidence count; then totals and the last ledger entry.",
  log:
    "One line per ledger entry: seq, time, op, task, what changed (coded → reviewed, retry 2, escalated), session.\n" +
    "--task ID keeps one task's entries, --op OP one kind of entry. Exit 1 when the chain is broken.",
  evidence:
    "Lists a task's evidence bundles with a one-line summary each and validates them (exit 1 if any is invalid).",
  diff: "Summarises a task's patch per file and whether each file's before/after can be rebuilt from the workspace.",
  report:
    "The run report: the plan, every task with its status history from the ledger (seq, time, from → to), retries,\n" +
    "escalation and blocked reason, its evidence and diffs in a line each, the tournaments, the knowledge counts, and\n" +
    "the verified head {seq, self_hash} with the verdict. html is one self-contained file (no script, no external\n" +
    "resource) that prints well; json is for scripts; md (the default) for pull requests. --out FILE writes it\n" +
    "atomically (the format follows a .html/.json extension). A broken ledger still gets a report; exit 1 then.",
  "set-status":
    "Moves a task to STATUS through the task state machine (exit 4, ledger untouched, if the move is not allowed).",
  retry: "Raises the task's retry_count by one (Python's mark_task_retry).",
  escalate: "Marks the task escalated (Python's mark_escalated).",
  append: "Appends one raw ledger entry after checking that replay would accept it.",
  init: "Writes the first plan (init_plan) from FILE; refuses when the ledger already has one.",
};

/** The known command names, in the order USAGE lists them. */
export function commandNames(): string[] {
  const names: string[] = [];
  for (const line of USAGE.split("\n")) {
    const m = /^ {2}([a-z][a-z-]*) /.exec(line);
    if (m && m[1] !== "options" && !names.includes(m[1])) names.push(m[1]);
  }
  return names;
}

/** The help text of one command, or null when there is no such command. */
export function commandHelp(name: string): string | null {
  const lines = USAGE.split("\n");
  const own = lines.filter((l) => l.startsWith(`  ${name} `));
  if (own.length === 0) return null;
  const isWrite = lines.indexOf(own[0]) > lines.findIndex((l) => l.startsWith("Write"));
  const tidy = (l: string) =>
    l
      .trim()
      .replace(/^(\S+)\s+/, "$1 ")
      .replace(/\s{3,}/, "   ");
  const out = [`usage: autodev-state ${own.map(tidy).join("\n       autodev-state ")}`];
  const details = DETAILS[name];
  if (details) out.push("", details);
  out.push("", "DIR is the folder that contains .autodev/ (default: the current folder).");
  if (isWrite) {
    const options = lines.find((l) => l.trim().startsWith("options:"));
    if (options) out.push(`Write ${options.trim()}; the command holds .autodev/.lock like Python AutoDev.`);
  }
  return out.join("\n");
}

/** The hint a usage error ends with. */
export function helpHint(command: string | undefined): string {
  return command && commandHelp(command) ? `run \`autodev-state help ${command}\`` : "run `autodev-state help`";
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
