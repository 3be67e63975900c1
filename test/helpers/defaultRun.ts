/**
 * The default-mode AutoDev run (test/fixtures/autodev-default-run/, see its README): each step's workspace
 * rebuilt in a temp folder as AutoDev left it (empty folders and modes from manifest.json), what AutoDev
 * answered about it (autodev-answers.json, through a zod schema of the parts the tests compare), and the
 * live recordings (`live-<command>.jsonl.gz`: every file-changing call under `.autodev/`, in order and time).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as zlib from "node:zlib";
import { z } from "zod";
import { REPO_ROOT } from "../unit/fixtures";

/** The fixture folder. */
export const DEFAULT_RUN_DIR = path.join(REPO_ROOT, "test/fixtures/autodev-default-run");

const ManifestRow = z.object({
  path: z.string(),
  type: z.enum(["file", "dir"]),
  mode: z.string().regex(/^0o[0-7]{3}$/),
});
const Task = z.object({ id: z.string(), status: z.string(), retry_count: z.number(), escalated: z.boolean() });
const Plan = z.object({ plan_id: z.string(), tasks: z.array(Task) }).nullable();
const Failure = z.object({ error: z.string(), message: z.string() });
const PassView = z.object({
  pass_num: z.number(),
  winner: z.enum(["A", "B", "AB"]),
  scores: z.record(z.string(), z.number()),
  valid_judges: z.number(),
  rankings: z.array(z.array(z.string()).nullable()),
});
const Tournament = z.object({
  files: z.array(z.string()),
  final_output: z.boolean(),
  history: z.array(PassView).nullable(),
  passes: z.record(z.string(), PassView),
});
const Command = z.object({ argv: z.array(z.string()), exit_code: z.number(), stdout: z.string(), stderr: z.string() });
const Ledger = z.union([z.object({ count: z.number(), head_hash: z.string() }), Failure]);

const AnswersSchema = z.object({
  step: z.string(),
  note: z.string(),
  /** True for the steps taken while AutoDev ran (it waited on a paused agent call). */
  autodev_running: z.boolean(),
  lock_free: z.boolean().nullable(),
  git_worktrees: z.array(z.string()),
  agent_calls: z.array(
    z.object({ role: z.string(), task: z.string(), exit: z.number(), fault: z.string().nullable() }),
  ),
  commands: z.array(Command.extend({ killed: z.number().nullable().optional() })),
  recorded: z.object({
    ledger: Ledger,
    replay: Plan,
    evidence: z.record(z.string(), z.object({ count: z.number(), kinds: z.array(z.string()) })),
    knowledge: z.object({ swarm: z.number(), hive: z.number(), rejected: z.number() }),
    tournaments: z.record(z.string(), Tournament),
    tournament_evidence: z.record(
      z.string(),
      z.object({ task_id: z.string(), tournament_id: z.string(), passes: z.number(), winner: z.string() }),
    ),
    tmp_files: z.array(z.string()),
  }),
  status: Command,
  on_copy: z.record(z.string(), Command),
});
/** What AutoDev answered about one step. */
export type DefaultRunAnswers = z.output<typeof AnswersSchema>;

/** The step folder names, in order ("00-init" … "14-killed-mid-write"). */
export function defaultRunSteps(): string[] {
  return fs
    .readdirSync(DEFAULT_RUN_DIR)
    .filter((n) => /^\d\d-/.test(n))
    .sort();
}

/** AutoDev's answers about `step`. */
export function defaultRunAnswers(step: string): DefaultRunAnswers {
  return AnswersSchema.parse(
    JSON.parse(fs.readFileSync(path.join(DEFAULT_RUN_DIR, step, "autodev-answers.json"), "utf8")),
  );
}

/** A temp copy of `step`'s workspace with the folders and modes of its manifest; returns the workspace folder. */
export function materializeDefaultRun(step: string): string {
  const src = path.join(DEFAULT_RUN_DIR, step);
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), `default-${step}-`));
  fs.cpSync(path.join(src, "workspace"), ws, { recursive: true });
  const rows = z.array(ManifestRow).parse(JSON.parse(fs.readFileSync(path.join(src, "manifest.json"), "utf8")));
  for (const r of rows) if (r.type === "dir") fs.mkdirSync(path.join(ws, ...r.path.split("/")), { recursive: true });
  for (const r of [...rows].sort((a, b) =>
    a.type === b.type ? b.path.length - a.path.length : a.type === "file" ? -1 : 1,
  )) {
    fs.chmodSync(path.join(ws, ...r.path.split("/")), parseInt(r.mode.slice(2), 8));
  }
  return ws;
}

const LiveEvent = z.discriminatedUnion("op", [
  z.object({ op: z.enum(["mkdir", "rmdir", "unlink"]), t: z.number(), path: z.string() }),
  z.object({ op: z.enum(["create", "open"]), t: z.number(), path: z.string(), mode: z.string().nullable() }),
  z.object({
    op: z.literal("write"),
    t: z.number(),
    path: z.string(),
    offset: z.number(),
    data: z.string().optional(),
    same_as: z.string().optional(),
  }),
  z.object({ op: z.literal("truncate"), t: z.number(), path: z.string(), size: z.number() }),
  z.object({ op: z.literal("rename"), t: z.number(), from: z.string().nullable(), path: z.string().nullable() }),
  z.object({ op: z.enum(["lock", "unlock"]), t: z.number(), path: z.string(), pid: z.string() }),
]);
/** One file-changing call of the live recording. */
export type LiveEvent = z.output<typeof LiveEvent>;
const LiveHeader = z.object({
  format: z.literal("autodev-live/1"),
  command: z.string(),
  duration_ms: z.number(),
  events: z.number(),
  replay_rebuilds_autodev_dir: z.boolean(),
});

/** The live recording of one command ("plan", "execute", "killed-in-tournament", …). */
export function liveRecording(command: string): { header: z.output<typeof LiveHeader>; events: LiveEvent[] } {
  const text = zlib.gunzipSync(fs.readFileSync(path.join(DEFAULT_RUN_DIR, `live-${command}.jsonl.gz`))).toString();
  const [head, ...lines] = text.split("\n").filter((l) => l !== "");
  const header = LiveHeader.parse(JSON.parse(head));
  const events = lines.map((l) => LiveEvent.parse(JSON.parse(l)));
  if (events.length !== header.events) {
    throw new Error(`live-${command}: ${events.length} events, header says ${header.events}`);
  }
  return { header, events };
}

/** Applies one live event to the workspace `ws` (as AutoDev's call did). */
export function applyLiveEvent(ws: string, ev: LiveEvent): void {
  const at = (rel: string) => path.join(ws, ...rel.split("/"));
  switch (ev.op) {
    case "mkdir":
      fs.mkdirSync(at(ev.path), { recursive: true });
      return;
    case "rmdir":
      fs.rmdirSync(at(ev.path));
      return;
    case "unlink":
      fs.rmSync(at(ev.path), { force: true });
      return;
    case "create":
    case "open": {
      fs.mkdirSync(path.dirname(at(ev.path)), { recursive: true });
      const fd = fs.openSync(at(ev.path), ev.op === "create" ? "w" : "a", parseInt(ev.mode ?? "0644", 8));
      fs.closeSync(fd);
      return;
    }
    case "write": {
      const data = ev.same_as !== undefined ? fs.readFileSync(at(ev.same_as)) : Buffer.from(ev.data ?? "", "base64");
      const fd = fs.openSync(at(ev.path), "r+");
      try {
        const pos = ev.offset < 0 ? fs.fstatSync(fd).size : ev.offset;
        fs.writeSync(fd, data, 0, data.length, pos);
      } finally {
        fs.closeSync(fd);
      }
      return;
    }
    case "truncate":
      fs.truncateSync(at(ev.path), ev.size);
      return;
    case "rename":
      if (ev.from !== null && ev.path !== null) fs.renameSync(at(ev.from), at(ev.path));
      else if (ev.from !== null) fs.rmSync(at(ev.from), { force: true });
      return;
    case "lock":
    case "unlock":
      return;
  }
}
