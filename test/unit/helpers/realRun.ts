/**
 * The real AutoDev run's snapshots (test/fixtures/autodev-real-run/, see its README): each step's
 * workspace rebuilt in a temp folder as AutoDev left it (the empty folders and file modes git does not
 * keep come back from manifest.json), and what AutoDev itself answered about it (autodev-answers.json,
 * read through a zod schema of the parts the tests compare).
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { z } from "zod";
import { REPO_ROOT } from "../fixtures";

/** The fixture folder. */
const REAL_RUN_DIR = path.join(REPO_ROOT, "test/fixtures/autodev-real-run");

const ManifestRow = z.object({
  path: z.string(),
  type: z.enum(["file", "dir"]),
  mode: z.string().regex(/^0o[0-7]{3}$/),
  size: z.number().optional(),
  sha256: z.string().optional(),
});

const Task = z.object({
  id: z.string(),
  status: z.string(),
  retry_count: z.number(),
  escalated: z.boolean(),
  evidence_bundle: z.string().nullable(),
});
const Plan = z.object({ plan_id: z.string(), tasks: z.array(Task) }).nullable();
const LedgerLine = z.object({
  seq: z.number(),
  op: z.string(),
  task_id: z.string().nullable(),
  status: z.string().nullable(),
});
const Ledger = z.object({ count: z.number(), head_hash: z.string(), entries: z.array(LedgerLine) });
const Suspend = z
  .object({
    pending_task_id: z.string(),
    pending_role: z.string(),
    retry_count: z.number(),
    has_pending_response: z.boolean(),
  })
  .nullable();
const Command = z.object({ argv: z.array(z.string()), exit_code: z.number(), stdout: z.string(), stderr: z.string() });
const Effects = z.object({
  files_added: z.array(z.string()),
  files_removed: z.array(z.string()),
  ledger_entries_added: z.array(LedgerLine),
  suspend_after: Suspend,
  tasks_after: z.array(Task).nullable(),
});

/** The parts of autodev-answers.json the tests read. */
const RealRunAnswersSchema = z.object({
  step: z.string(),
  commands: z.array(Command),
  recorded: z.object({
    ledger: Ledger,
    replay: Plan,
    load: Plan,
    suspend: Suspend,
    evidence: z.record(z.string(), z.object({ count: z.number(), kinds: z.array(z.string()) })),
    responses: z.record(z.string(), z.object({ ok: z.boolean() })),
    knowledge: z.object({ swarm: z.number(), hive: z.number(), rejected: z.number() }),
    config: z.object({ platform: z.string(), plan_tournament_enabled: z.boolean(), qa_retry_limit: z.number() }),
  }),
  status: Command,
  on_copy: z.record(z.string(), Command.extend({ effects: Effects })),
});
/** What AutoDev answered about one step. */
export type RealRunAnswers = z.output<typeof RealRunAnswersSchema>;

/** The step folder names, in run order ("00-init" … "22-run-complete"). */
export function realRunSteps(): string[] {
  return fs
    .readdirSync(REAL_RUN_DIR)
    .filter((n) => /^\d\d-/.test(n))
    .sort();
}

/** AutoDev's answers about `step`. */
export function realRunAnswers(step: string): RealRunAnswers {
  return RealRunAnswersSchema.parse(
    JSON.parse(fs.readFileSync(path.join(REAL_RUN_DIR, step, "autodev-answers.json"), "utf8")),
  );
}

/** The workspace-relative paths of `step`'s files (its manifest.json: every file AutoDev and the agent left). */
export function realRunFiles(step: string): string[] {
  const rows = z
    .array(ManifestRow)
    .parse(JSON.parse(fs.readFileSync(path.join(REAL_RUN_DIR, step, "manifest.json"), "utf8")));
  return rows.filter((r) => r.type === "file").map((r) => r.path);
}

/** A temp copy of `step`'s workspace with the folders and modes of its manifest; returns the workspace folder. */
export function materializeRealRun(step: string): string {
  const src = path.join(REAL_RUN_DIR, step);
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), `real-${step}-`));
  fs.cpSync(path.join(src, "workspace"), ws, { recursive: true });
  const rows = z.array(ManifestRow).parse(JSON.parse(fs.readFileSync(path.join(src, "manifest.json"), "utf8")));
  for (const r of rows) {
    const p = path.join(ws, ...r.path.split("/"));
    if (r.type === "dir") fs.mkdirSync(p, { recursive: true });
  }
  // Files first, then folders deepest first, so a 0500 folder never blocks its own chmods.
  for (const r of [...rows].sort((a, b) =>
    a.type === b.type ? b.path.length - a.path.length : a.type === "file" ? -1 : 1,
  )) {
    fs.chmodSync(path.join(ws, ...r.path.split("/")), parseInt(r.mode.slice(2), 8));
  }
  return ws;
}

/** An empty home folder (the hive tier of knowledge lives under it; the run's stayed empty). */
export function emptyHome(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), "real-home-"));
}

/** The result of one run of our CLI. */
export interface CliResult {
  readonly code: number;
  readonly out: string;
  readonly err: string;
}

/** Runs our built CLI (dist/cli.js) with HOME an empty folder (`home`, else one of its own), as the real runs had. */
export function cliInEmptyHome(home = emptyHome()): (...args: string[]) => Promise<CliResult> {
  const cliJs = path.join(REPO_ROOT, "dist/cli.js");
  return (...args) =>
    new Promise((resolve) => {
      execFile(
        process.execPath,
        [cliJs, ...args],
        { encoding: "utf8", env: { ...process.env, HOME: home } },
        (e, out, err) => resolve({ code: e ? (typeof e.code === "number" ? e.code : -1) : 0, out, err }),
      );
    });
}

/** The rows of `autodev status`'s task table: phase, task, status, retries, evidence. */
export function autodevStatusRows(
  stdout: string,
): Array<{ id: string; status: string; retries: number; evidence: number }> {
  const out: Array<{ id: string; status: string; retries: number; evidence: number }> = [];
  for (const line of stdout.split("\n")) {
    const cells = line.split("│").map((c) => c.trim());
    if (cells.length === 7 && /^\d+$/.test(cells[4]) && /^\d+$/.test(cells[5])) {
      out.push({ id: cells[2], status: cells[3], retries: Number(cells[4]), evidence: Number(cells[5]) });
    }
  }
  return out;
}
