/**
 * AutoDev's part of the CLI: the read commands (verify, replay, load, status, log, evidence, diff,
 * tournaments, knowledge, report) and the write commands, which hold `.autodev/.lock` as Python
 * AutoDev does; their usage lines and help. Each command's module is loaded when it runs.
 * Registered in ../cliSources.ts.
 */
import { type SourceCli, lazy } from "../../cliCommand";
import { VERIFY_OPTIONS } from "./verifyOptions";

const read = () => import("./readCommands");
const write = () => import("./writeCommands");
const evidence = () => import("./evidenceCommands");
const state = () => import("./autodevStateCommands");
const report = () => import("./reportCommand");
const verify = () => import("./verifyCommand");
const status = () => import("./statusCommand");

const WRITE_OPTS = ["lock-timeout", "session"];

const USAGE = `Read:
  verify   [DIR] [--json] [--expect-head SEQ:HASH]
                                               check the hash chain, then replay (and that entry SEQ still has HASH)
  replay   [DIR] [--at SEQ] [--json]           rebuild the plan from genesis (up to SEQ)
  load     [DIR] [--json]                      the plan as AutoDev loads it (latest snapshot + later entries)
  status   [DIR] [--json] [--hive FILE]        plan, tasks, retries, evidence, knowledge; running, waiting, config, spec, next
  log      [DIR] [--json] [--task ID] [--op OP] one line per ledger entry
  evidence [DIR] TASK [--json]                 list and validate a task's evidence bundles
  diff     [DIR] TASK [--json]                 summarise a task's patch per file
  tournaments [DIR] [--json]                   plan and impl tournaments: passes, winners, scores, judges
  knowledge   [DIR] [--json] [--hive FILE]     lessons (swarm, hive) ranked as AutoDev ranks them, rejected lessons
  report   [DIR] [--format md|html|json] [--out FILE] [--hive FILE]
                                               the run report: plan, task histories, evidence, tournaments, verified head

Write (each holds .autodev/.lock, the lock Python AutoDev takes):
  set-status [DIR] TASK STATUS [--reason TEXT]
  retry      [DIR] TASK
  escalate   [DIR] TASK
  append     [DIR] OP (--payload JSON | --payload-file FILE) [--force]
  init       [DIR] --plan FILE
  options: --lock-timeout SECONDS (default 30), --session ID`;

const DETAILS: Record<string, string> = {
  verify:
    "Checks every ledger entry the way Python AutoDev does (JSON, schema, seq, prev_hash, self_hash), then replays the plan.\n" +
    "Prints every finding with its line, then warnings: status changes the task state machine forbids, tasks past\n" +
    "reviewed/tested without that evidence, a plan.json that does not match the ledger.\n" +
    "--expect-head SEQ:HASH (the head a previous `verify --json` printed, committed beside the code) also requires\n" +
    'entry SEQ to still be there with that self_hash: a cut tail ("truncated: the ledger ends at seq N") or a replaced\n' +
    'history ("rewritten: entry SEQ has hash X") fails, though what is left of the chain verifies.\n' +
    "Exit 0 when the chain and the replay are sound (warnings do not fail), 1 when broken or the head is gone, 5 when .autodev/ has no ledger yet (the plan phase: nothing to verify), 2 when there is no .autodev/.",
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
    "atomically (the format follows a .html/.json extension; never inside a state folder). A broken ledger still gets a report; exit 1 then.",
  "set-status":
    "Moves a task to STATUS through the task state machine (exit 4, ledger untouched, if the move is not allowed).",
  retry: "Raises the task's retry_count by one (Python's mark_task_retry).",
  escalate: "Marks the task escalated (Python's mark_escalated).",
  append:
    "Appends one raw ledger entry after checking that replay would accept it. Only ops and payload keys AutoDev itself\n" +
    "writes (--force: any), a status change through the same checks as set-status; a plan change is snapshotted.",
  init: "Writes the first plan (init_plan) from FILE; refuses when the ledger already has one.",
};

/** AutoDev's commands, usage and help. */
export const AUTODEV_CLI: SourceCli = {
  commands: {
    verify: { run: lazy(verify, (m) => m.cmdVerify), ...VERIFY_OPTIONS },
    replay: { run: lazy(read, (m) => m.cmdReplay), valued: ["at"], switches: ["json"] },
    load: { run: lazy(read, (m) => m.cmdLoad), valued: [], switches: ["json"] },
    status: { run: lazy(status, (m) => m.cmdStatus), valued: ["hive"], switches: ["json"] },
    log: { run: lazy(read, (m) => m.cmdLog), valued: ["task", "op"], switches: ["json"] },
    evidence: { run: lazy(evidence, (m) => m.cmdEvidence), valued: [], switches: ["json"] },
    diff: { run: lazy(evidence, (m) => m.cmdDiff), valued: [], switches: ["json"] },
    tournaments: { run: lazy(state, (m) => m.cmdTournaments), valued: [], switches: ["json"] },
    knowledge: { run: lazy(state, (m) => m.cmdKnowledge), valued: ["hive"], switches: ["json"] },
    report: { run: lazy(report, (m) => m.cmdReport), valued: ["format", "out", "hive"], switches: [] },
    "set-status": { run: lazy(write, (m) => m.cmdSetStatus), valued: ["reason", ...WRITE_OPTS], switches: [] },
    retry: { run: lazy(write, (m) => m.cmdRetry), valued: WRITE_OPTS, switches: [] },
    escalate: { run: lazy(write, (m) => m.cmdEscalate), valued: WRITE_OPTS, switches: [] },
    append: {
      run: lazy(write, (m) => m.cmdAppend),
      valued: ["payload", "payload-file", ...WRITE_OPTS],
      switches: ["force"],
    },
    init: { run: lazy(write, (m) => m.cmdInit), valued: ["plan", ...WRITE_OPTS], switches: [] },
  },
  usage: USAGE,
  details: DETAILS,
  dirNote: "DIR is the folder that contains .autodev/ (default: the current folder).",
  writeNote:
    "Write options: --lock-timeout SECONDS (default 30), --session ID; the command holds .autodev/.lock like Python AutoDev.",
};
