/**
 * The child side of `npm run bench`: each measurement runs in a fresh
 * process (`node dist/bench/run.js --child MODE ARG`), so start-up, JIT
 * warm-up and peak RSS are those a user's process sees. Each mode prints one
 * JSON line: wall and CPU time, peak RSS, and what it checked.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { createHash } from "node:crypto";
import { monitorEventLoopDelay } from "node:perf_hooks";

const ledgerOf = (dir: string) => path.join(dir, ".autodev", "plan-ledger.jsonl");

// ---------------------------------------------------------------- child modes

/** What a child prints. */
export interface ChildResult {
  ms: number;
  cpuMs: number;
  maxRssMB: number;
  maxBlockMs?: number;
  [k: string]: unknown;
}

/** Runs `work` (modules already loaded, so start-up is not counted) and prints its result as JSON. */
async function measure(
  work: (loop: ReturnType<typeof monitorEventLoopDelay>) => Promise<Record<string, unknown>>,
  watchLoop = false,
  after?: () => Promise<Record<string, unknown>>,
): Promise<void> {
  const loop = monitorEventLoopDelay({ resolution: 5 });
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  if (watchLoop) loop.enable();
  const extra = await work(loop);
  loop.disable();
  const c = process.cpuUsage(c0);
  const out: ChildResult = {
    ms: performance.now() - t0,
    cpuMs: (c.user + c.system) / 1000,
    maxRssMB: process.resourceUsage().maxRSS / 1024,
    ...(watchLoop ? { maxBlockMs: loop.max / 1e6 } : {}),
    ...extra,
  };
  const more = after ? await after() : {};
  out.maxRssMB = process.resourceUsage().maxRSS / 1024;
  process.stdout.write(JSON.stringify({ ...out, ...more }) + "\n");
}

/** Runs one child mode on `arg` (a workspace or a ledger file) and prints its result. */
export async function child(mode: string, arg: string): Promise<void> {
  switch (mode) {
    case "verify": {
      const startMs = performance.now();
      const { verifyLedger } = await import("../../src/core/sources/autodev/ledger/ledgerReader");
      const loadMs = performance.now() - startMs;
      // Then a second verify in the same process: what a long-lived worker pays once its code is compiled.
      let warmMs = 0;
      return measure(
        async () => {
          const res = await verifyLedger(arg);
          return {
            ok: res.report.ok,
            entries: res.report.entries,
            errors: res.report.errors.slice(0, 3).map((e) => e.message),
            startMs,
            loadMs,
          };
        },
        true,
        async () => {
          const t = performance.now();
          await verifyLedger(arg);
          warmMs = performance.now() - t;
          return { warmMs };
        },
      );
    }
    case "floor":
      return measure(async () => {
        const fd = fs.openSync(arg, "r");
        const buf = Buffer.allocUnsafe(1 << 20);
        let h = createHash("sha256");
        let lines = 0;
        let pos = 0;
        for (;;) {
          const n = fs.readSync(fd, buf, 0, buf.length, pos);
          if (n === 0) break;
          pos += n;
          let s = 0;
          for (let i = buf.indexOf(0x0a, 0); i >= 0 && i < n; i = buf.indexOf(0x0a, i + 1)) {
            h.update(buf.subarray(s, i));
            h.digest();
            h = createHash("sha256");
            lines++;
            s = i + 1;
          }
          if (s < n) h.update(buf.subarray(s, n));
        }
        fs.closeSync(fd);
        return { lines };
      });
    case "tail": {
      const { loadFromTail } = await import("../../src/core/sources/autodev/ledger/ledgerReader");
      return measure(async () => {
        const res = await loadFromTail(arg);
        return { seq: res.seq, tasks: res.plan ? res.plan.phases.reduce((n, p) => n + p.tasks.length, 0) : 0 };
      });
    }
    case "timeline": {
      const { STATE_SOURCES } = await import("../../src/core/sources/sourceRegistry");
      return measure(async () => {
        for (const source of STATE_SOURCES) {
          const location = source.kind === "autodev" ? null : await source.detect(arg);
          if (location && source.timeline) return { rows: (await source.timeline(location)).length, kind: source.kind };
        }
        throw new Error(`no source with a timeline in ${arg}`);
      }, true);
    }
    case "append":
      return appendChild(arg);
    case "reopenSetup":
      return reopenSetup(arg);
    case "reopen":
      return reopenChild(arg);
    case "index": {
      const { LedgerSession } = await import("../../src/core/sources/autodev/ledger/ledgerSession");
      return measure(async () => {
        const session = new LedgerSession(arg);
        const upd = await session.refresh();
        return { entries: session.entries.length, mode: upd.mode, ok: session.report.ok };
      }, true);
    }
    default:
      throw new Error(`unknown child mode ${mode}`);
  }
}

/** Copies the ledger to a scratch folder, scans it with a LedgerSession, then times appends. */
async function appendChild(dir: string): Promise<void> {
  const { LedgerSession } = await import("../../src/core/sources/autodev/ledger/ledgerSession");
  const { appendEntry, snapshotPlan } = await import("../../src/core/sources/autodev/ledger/ledgerWriter");
  const { TASK_TRANSITIONS } = await import("../../src/core/sources/autodev/plan/taskFsm");
  return measure(async () => {
    const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "autodev-bench-append-"));
    try {
      fs.mkdirSync(path.join(scratch, ".autodev"));
      fs.copyFileSync(ledgerOf(dir), ledgerOf(scratch));
      const session = new LedgerSession(scratch);
      let t = performance.now();
      await session.refresh();
      const plan = session.plan;
      const initialMs = performance.now() - t;
      if (!plan || !session.report.ok) throw new Error("the ledger did not verify");
      const task = plan.phases.flatMap((p) => p.tasks).find((x) => TASK_TRANSITIONS[String(x.status)]?.length);
      if (!task) throw new Error("no task can move");
      const next = TASK_TRANSITIONS[String(task.status)][0];
      const size0 = fs.statSync(ledgerOf(scratch)).size;

      // 1. one status change (as PlanManager's audit entry), written as Python does (copy + rename).
      await appendEntry(
        scratch,
        "update_task_status",
        new Map([
          ["task_id", task.id],
          ["status", next],
        ]),
        "sess-bench-append",
      );
      const size1 = fs.statSync(ledgerOf(scratch)).size;
      t = performance.now();
      const u1 = await session.refresh();
      const p1 = session.plan;
      const smallMs = performance.now() - t;
      if (u1.mode !== "append" || u1.added !== 1 || !session.report.ok) {
        throw new Error(`status append not reflected incrementally: ${JSON.stringify(u1)}`);
      }
      const moved = p1?.phases.flatMap((p) => p.tasks).find((x) => x.id === task.id);
      if (moved?.status !== next) throw new Error("the appended status change is not in the plan");

      // 2. the snapshot that follows it (the whole plan, a few hundred KB).
      await snapshotPlan(scratch, p1!, "sess-bench-append");
      const size2 = fs.statSync(ledgerOf(scratch)).size;
      t = performance.now();
      const u2 = await session.refresh();
      const p2 = session.plan;
      const snapMs = performance.now() - t;
      if (u2.mode !== "append" || u2.added !== 1 || !session.report.ok || !p2) {
        throw new Error(`snapshot append not reflected incrementally: ${JSON.stringify(u2)}`);
      }
      return { initialMs, smallMs, smallBytes: size1 - size0, snapMs, snapBytes: size2 - size1 };
    } finally {
      fs.rmSync(scratch, { recursive: true, force: true });
    }
  });
}

/**
 * A window reload after 1 MB was appended: copies the ledger to a scratch
 * folder, verifies it fully, stores the verification record (as the extension
 * does), then appends about 1 MB of entries (written by the core's writer, as
 * Python writes them). Prints the scratch folder; `reopen` measures there.
 */
async function reopenSetup(dir: string): Promise<void> {
  const { LedgerSession } = await import("../../src/core/sources/autodev/ledger/ledgerSession");
  const { buildEntry } = await import("../../src/core/sources/autodev/ledger/ledgerWriter");
  const { planToPy } = await import("../../src/core/sources/autodev/plan/schemas");
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "autodev-bench-reopen-"));
  fs.mkdirSync(path.join(scratch, ".autodev"));
  fs.copyFileSync(ledgerOf(dir), ledgerOf(scratch));
  const s = new LedgerSession(scratch);
  await s.refresh();
  const record = await s.verificationRecord();
  if (!record || !s.plan || !s.report.head) throw new Error("the ledger did not verify");
  let head = { seq: Number(s.report.head.seq), selfHash: s.report.head.selfHash, missingFinalNewline: false };
  const lines: string[] = [];
  let bytes = 0;
  while (bytes < 1e6) {
    const { entry, line } = buildEntry(head, "snapshot", new Map([["plan", planToPy(s.plan)]]), "sess-bench-reopen");
    head = { seq: Number(entry.seq), selfHash: entry.self_hash, missingFinalNewline: false };
    lines.push(line);
    bytes += line.length;
  }
  fs.appendFileSync(ledgerOf(scratch), lines.join(""));
  fs.writeFileSync(path.join(scratch, "record.json"), JSON.stringify(record));
  process.stdout.write(
    JSON.stringify({ ms: 0, cpuMs: 0, maxRssMB: 0, scratch, appended: bytes, entries: Number(head.seq) }) + "\n",
  );
}

/** A fresh process resuming from the stored record: what a window reload pays. */
async function reopenChild(scratch: string): Promise<void> {
  const { LedgerSession } = await import("../../src/core/sources/autodev/ledger/ledgerSession");
  const { parseVerificationRecord, recordBytesRead } =
    await import("../../src/core/sources/autodev/ledger/verificationRecord");
  return measure(async () => {
    const record = parseVerificationRecord(JSON.parse(fs.readFileSync(path.join(scratch, "record.json"), "utf8")));
    if (!record) throw new Error("the stored record did not validate");
    const s = new LedgerSession(scratch);
    const u = await s.resume(record);
    return { mode: u.mode, bytesRead: u.bytesRead + recordBytesRead(), ok: s.report.ok, entries: s.report.entries };
  }, true);
}
