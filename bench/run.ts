/**
 * `npm run bench`: generates (once, cached in bench/data/) ledgers of about
 * 10, 100 and 500 MB plus a 100,000-entry timeline ledger, then measures, for
 * each size and in the same run:
 *
 * - our verify (chain + strict replay, `verifyLedger` with its defaults) in a
 *   fresh child process, with its peak RSS and its longest event-loop block,
 *   then a second (warm) verify in the same process;
 * - the Python reference (`bench/python_reference.py`: what `read_entries` does);
 * - the floor: Node reading the file and hashing every line with sha256;
 * - first tree data: `loadFromTail` in a fresh process;
 * - one appended entry reflected: `LedgerSession.refresh()` (+ reading the plan)
 *   after appending a status change, then after appending a plan snapshot;
 * - and the timeline summary index of the 100,000-entry ledger.
 *
 * Each timing is the best of N runs (the machines are shared; the best run is
 * the one least disturbed). Prints one Markdown table (plus the CPU times of
 * the same runs) and writes it to bench/data/last-results.md.
 *
 * - Python AutoDev's own `replay_ledger` / `read_entries` (real pydantic) when
 *   its src/ is given (`--autodev-src DIR` or AUTODEV_PY_SRC);
 * - our verify again with one thread (AUTODEV_VERIFY_THREADS=1);
 * - a window reload of the 500 MB ledger with 1 MB appended (resume from the
 *   stored verification record);
 * and prints each issue-16 target as met or missed.
 *
 * Options: --sizes 10,100,500  --runs N  --autodev-src DIR
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { generateBigLedger, generateSmallEntriesLedger } from "./generate";

/** Bump when the generators change, so cached data is regenerated. */
const DATA_VERSION = 1;
const ROOT = path.resolve(__dirname, "../..");
const DATA = path.join(ROOT, "bench", "data");
const SELF = __filename;

const ledgerOf = (dir: string) => path.join(dir, ".autodev", "plan-ledger.jsonl");

// ---------------------------------------------------------------- child modes

interface ChildResult {
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

async function child(mode: string, arg: string): Promise<void> {
  switch (mode) {
    case "verify": {
      const startMs = performance.now();
      const { verifyLedger } = await import("../src/core/ledger/ledgerReader");
      const loadMs = performance.now() - startMs;
      // Then a second verify in the same process: what a long-lived worker pays once its code is compiled.
      let warmMs = 0;
      return measure(
        async () => {
          const res = await verifyLedger(arg);
          return { ok: res.report.ok, entries: res.report.entries, errors: res.report.errors.slice(0, 3).map((e) => e.message), startMs, loadMs };
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
      const { loadFromTail } = await import("../src/core/ledger/ledgerReader");
      return measure(async () => {
        const res = await loadFromTail(arg);
        return { seq: res.seq, tasks: res.plan ? res.plan.phases.reduce((n, p) => n + p.tasks.length, 0) : 0 };
      });
    }
    case "append":
      return appendChild(arg);
    case "reopenSetup":
      return reopenSetup(arg);
    case "reopen":
      return reopenChild(arg);
    case "index": {
      const { LedgerSession } = await import("../src/core/ledger/ledgerSession");
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
  const { LedgerSession } = await import("../src/core/ledger/ledgerSession");
  const { appendEntry, snapshotPlan } = await import("../src/core/ledger/ledgerWriter");
  const { TASK_TRANSITIONS } = await import("../src/core/plan/taskFsm");
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
    await appendEntry(scratch, "update_task_status", new Map([["task_id", task.id], ["status", next]]), "sess-bench-append");
    const size1 = fs.statSync(ledgerOf(scratch)).size;
    t = performance.now();
    const u1 = await session.refresh();
    const p1 = session.plan;
    const smallMs = performance.now() - t;
    if (u1.mode !== "append" || u1.added !== 1 || !session.report.ok) throw new Error(`status append not reflected incrementally: ${JSON.stringify(u1)}`);
    const moved = p1?.phases.flatMap((p) => p.tasks).find((x) => x.id === task.id);
    if (moved?.status !== next) throw new Error("the appended status change is not in the plan");

    // 2. the snapshot that follows it (the whole plan, a few hundred KB).
    await snapshotPlan(scratch, p1!, "sess-bench-append");
    const size2 = fs.statSync(ledgerOf(scratch)).size;
    t = performance.now();
    const u2 = await session.refresh();
    const p2 = session.plan;
    const snapMs = performance.now() - t;
    if (u2.mode !== "append" || u2.added !== 1 || !session.report.ok || !p2) throw new Error(`snapshot append not reflected incrementally: ${JSON.stringify(u2)}`);
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
  const { LedgerSession } = await import("../src/core/ledger/ledgerSession");
  const { buildEntry } = await import("../src/core/ledger/ledgerWriter");
  const { planToPy } = await import("../src/core/plan/schemas");
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
  process.stdout.write(JSON.stringify({ ms: 0, cpuMs: 0, maxRssMB: 0, scratch, appended: bytes, entries: Number(head.seq) }) + "\n");
}

/** A fresh process resuming from the stored record: what a window reload pays. */
async function reopenChild(scratch: string): Promise<void> {
  const { LedgerSession } = await import("../src/core/ledger/ledgerSession");
  const { parseVerificationRecord, recordBytesRead } = await import("../src/core/ledger/verificationRecord");
  return measure(async () => {
    const record = parseVerificationRecord(JSON.parse(fs.readFileSync(path.join(scratch, "record.json"), "utf8")));
    if (!record) throw new Error("the stored record did not validate");
    const s = new LedgerSession(scratch);
    const u = await s.resume(record);
    return { mode: u.mode, bytesRead: u.bytesRead + recordBytesRead(), ok: s.report.ok, entries: s.report.entries };
  }, true);
}

// ---------------------------------------------------------------- the runner

function runChild(mode: string, arg: string, env: NodeJS.ProcessEnv = process.env): ChildResult {
  const res = spawnSync(process.execPath, [SELF, "--child", mode, arg], { encoding: "utf8", maxBuffer: 1 << 24, env });
  if (res.status !== 0) throw new Error(`child ${mode} ${arg} failed (${res.status}): ${res.stderr}`);
  return JSON.parse(res.stdout.trim().split("\n").pop()!) as ChildResult;
}

function runPython(file: string): { ms: number; cpuMs: number; ok: boolean; entries: number } {
  const res = spawnSync("python3", [path.join(ROOT, "bench", "python_reference.py"), file], { encoding: "utf8" });
  if (res.status !== 0) throw new Error(`python reference failed: ${res.stderr || res.stdout}`);
  const out = JSON.parse(res.stdout.trim()) as { seconds: number; cpu_seconds: number; ok: boolean; entries: number };
  return { ms: out.seconds * 1000, cpuMs: out.cpu_seconds * 1000, ok: out.ok, entries: out.entries };
}

/** Where Python AutoDev's src/ is (`--autodev-src DIR` or AUTODEV_PY_SRC), or null when not given or not there. */
function autodevSrc(argv: string[]): string | null {
  const i = argv.indexOf("--autodev-src");
  const dir = i >= 0 ? argv[i + 1] : process.env.AUTODEV_PY_SRC;
  return dir && fs.existsSync(path.join(dir, "state", "ledger.py")) ? path.resolve(dir) : null;
}

interface AutodevRun {
  ms: number;
  readMs: number;
  cpuMs: number;
  peakMB: number;
  ok: boolean;
  entries: number;
}

/** Python AutoDev's own `replay_ledger` (which runs `read_entries`) on a workspace, real pydantic. */
function runAutodev(src: string, dir: string): AutodevRun {
  const res = spawnSync("python3", [path.join(ROOT, "bench", "python_autodev.py"), dir], {
    encoding: "utf8",
    env: { ...process.env, PYTHONPATH: src },
  });
  const out = JSON.parse(res.stdout.trim() || "{}") as { replay_seconds: number; read_seconds: number; cpu_seconds: number; peak_rss_mb: number; ok: boolean; entries: number; error: string | null };
  if (!out.ok) throw new Error(`Python AutoDev failed: ${out.error ?? res.stderr}`);
  return { ms: out.replay_seconds * 1000, readMs: out.read_seconds * 1000, cpuMs: out.cpu_seconds * 1000, peakMB: out.peak_rss_mb, ok: out.ok, entries: out.entries };
}

function best<T extends { ms: number }>(runs: number, f: () => T): { best: T; all: T[] } {
  const all: T[] = [];
  for (let i = 0; i < runs; i++) all.push(f());
  return { best: all.reduce((a, b) => (b.ms < a.ms ? b : a)), all };
}

interface Manifest {
  version: number;
  files: Record<string, { bytes: number; entries: number }>;
}

function readManifest(): Manifest {
  try {
    const m = JSON.parse(fs.readFileSync(path.join(DATA, "manifest.json"), "utf8")) as Manifest;
    if (m.version === DATA_VERSION) return m;
  } catch {
    /* none yet */
  }
  return { version: DATA_VERSION, files: {} };
}

function ensureData(name: string, make: (file: string) => { bytes: number; entries: number }): { dir: string; bytes: number; entries: number } {
  const dir = path.join(DATA, name);
  const file = ledgerOf(dir);
  const manifest = readManifest();
  const known = manifest.files[name];
  if (known && fs.existsSync(file) && fs.statSync(file).size === known.bytes) return { dir, ...known };
  process.stderr.write(`generating ${name} … `);
  const t = performance.now();
  fs.rmSync(dir, { recursive: true, force: true });
  const made = make(file);
  process.stderr.write(`${(made.bytes / 1e6).toFixed(1)} MB, ${made.entries} entries in ${((performance.now() - t) / 1000).toFixed(1)} s\n`);
  manifest.files[name] = made;
  fs.writeFileSync(path.join(DATA, "manifest.json"), JSON.stringify(manifest, null, 2) + "\n");
  return { dir, ...made };
}

function machine(): string[] {
  const cpu = fs.readFileSync("/proc/cpuinfo", "utf8").match(/^model name\s*:\s*(.*)$/m)?.[1] ?? os.cpus()[0]?.model ?? "unknown";
  let py = "python3 ?";
  try {
    py = execFileSync("python3", ["--version"], { encoding: "utf8" }).trim();
  } catch {
    /* reported as unknown */
  }
  return [
    `nproc ${os.availableParallelism?.() ?? os.cpus().length}, CPU "${cpu}", ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB RAM`,
    `node ${process.version}, ${py}, ${os.type()} ${os.release()}`,
  ];
}

const fmtMs = (ms: number) => (ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : ms >= 100 ? `${ms.toFixed(0)} ms` : `${ms.toFixed(1)} ms`);

const ratio = (x: number) => `${x.toFixed(2)}×`;
const verdict = (met: boolean) => (met ? "**met**" : "**missed**");

async function main(argv: string[]): Promise<void> {
  const opt = (name: string) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const sizes = (opt("sizes") ?? "10,100,500").split(",").map(Number);
  const runs = Number(opt("runs") ?? 2);
  const pySrc = autodevSrc(argv);
  fs.mkdirSync(DATA, { recursive: true });
  const load0 = os.loadavg()[0];
  const t0 = performance.now();

  const datasets = sizes.map((mb) => ({ mb, ...ensureData(`ledger-${mb}mb`, (f) => generateBigLedger(f, mb * 1e6)) }));
  const timeline = ensureData("timeline-100k", (f) => generateSmallEntriesLedger(f, 100_000));
  const oneThread = { ...process.env, AUTODEV_VERIFY_THREADS: "1" };

  const rows: string[] = [];
  const cpuRows: string[] = [];
  const targets: string[] = [];
  let reopenLine = "";
  for (const d of datasets) {
    const file = ledgerOf(d.dir);
    process.stderr.write(`measuring ${d.mb} MB: `);
    const r = d.mb >= 500 ? Math.max(1, runs - 1) : runs;
    // Interleave ours and the references so all see the same machine conditions.
    const ours: ChildResult[] = [];
    const single: ChildResult[] = [];
    const py: { ms: number; cpuMs: number; ok: boolean; entries: number }[] = [];
    const floor: ChildResult[] = [];
    for (let i = 0; i < r; i++) {
      ours.push(runChild("verify", d.dir));
      single.push(runChild("verify", d.dir, oneThread));
      // The stdlib reference takes about 20 s at 500 MB: once there.
      if (i === 0 || d.mb < 500) py.push(runPython(file));
      floor.push(runChild("floor", file));
      process.stderr.write(".");
    }
    const auto = pySrc ? runAutodev(pySrc, d.dir) : null;
    if (auto && auto.entries !== d.entries) throw new Error(`Python AutoDev read ${auto.entries} entries of ${d.entries}`);
    const v = ours.reduce((a, b) => (b.ms < a.ms ? b : a));
    const v1 = single.reduce((a, b) => (b.ms < a.ms ? b : a));
    const warm = Math.min(...ours.map((o) => Number(o.warmMs)));
    const p = py.reduce((a, b) => (b.ms < a.ms ? b : a));
    const fl = floor.reduce((a, b) => (b.ms < a.ms ? b : a));
    for (const x of [v, v1]) if (!x.ok || x.entries !== d.entries) throw new Error(`verify of ${d.mb} MB did not pass: ${JSON.stringify(x)}`);
    if (!p.ok || p.entries !== d.entries) throw new Error(`python reference on ${d.mb} MB did not pass: ${JSON.stringify(p)}`);
    const peak = Math.max(...ours.map((o) => o.maxRssMB), ...single.map((o) => o.maxRssMB));
    const block = Math.max(...ours.map((o) => o.maxBlockMs ?? 0));
    const tail = best(runs, () => runChild("tail", d.dir)).best;
    process.stderr.write(".");
    const app = best(Math.max(1, runs - 1), () => {
      const c = runChild("append", d.dir);
      return { ms: Number(c.smallMs) + Number(c.snapMs), smallMs: Number(c.smallMs), smallBytes: Number(c.smallBytes), snapMs: Number(c.snapMs), snapBytes: Number(c.snapBytes) };
    }).best;
    if (d.mb === Math.max(...sizes)) {
      const setup = runChild("reopenSetup", d.dir);
      try {
        const re = runChild("reopen", String(setup.scratch));
        if (re.mode !== "resumed" || !re.ok || re.entries !== setup.entries) throw new Error(`reopen did not resume: ${JSON.stringify(re)}`);
        reopenLine =
          `Window reload of the ${(d.bytes / 1e6).toFixed(0)} MB ledger with ${(Number(setup.appended) / 1e6).toFixed(2)} MB appended (\`LedgerSession.resume\` from the stored verification record, fresh process): ` +
          `**${fmtMs(re.ms)}**, ${(Number(re.bytesRead) / 1e6).toFixed(2)} MB read (fingerprints, the latest snapshot line, the appended bytes), peak RSS ${re.maxRssMB.toFixed(0)} MB — ` +
          `a full verify of the same ledger takes ${fmtMs(v.ms)} (${(v.ms / re.ms).toFixed(0)}× longer).`;
      } finally {
        fs.rmSync(String(setup.scratch), { recursive: true, force: true });
      }
    }
    process.stderr.write(" done\n");
    const cpu = (xs: { cpuMs: number }[]) => Math.min(...xs.map((x) => x.cpuMs));
    const [oc, sc, pc, fc] = [cpu(ours), cpu(single), cpu(py), cpu(floor)];
    cpuRows.push(`| ${(d.bytes / 1e6).toFixed(0)} MB | ${fmtMs(oc)} | ${fmtMs(sc)} | ${fmtMs(pc)} | ${auto ? fmtMs(auto.cpuMs) : "—"} | ${fmtMs(fc)} | ${ratio(oc / fc)} | ${ratio(sc / fc)} |`);
    const mbps = d.bytes / 1e6 / (v.ms / 1000);
    rows.push(
      `| ${(d.bytes / 1e6).toFixed(0)} MB | ${d.entries.toLocaleString("en-US")} | ${fmtMs(v.ms)} (${mbps.toFixed(0)} MB/s) | ${fmtMs(v1.ms)} | ${fmtMs(warm)} | ${fmtMs(fl.ms)} | ` +
        `**${ratio(v.ms / fl.ms)}** | ${ratio(v1.ms / fl.ms)} | ${fmtMs(p.ms)} | ${auto ? `${fmtMs(auto.ms)} (${fmtMs(auto.readMs)}), ${auto.peakMB.toFixed(0)} MB` : "not run"} | ` +
        `${(p.ms / v.ms).toFixed(1)}× / ${auto ? `${(auto.ms / v.ms).toFixed(1)}×` : "—"} | ${peak.toFixed(0)} MB | ${block.toFixed(0)} ms | ${fmtMs(Number(v.loadMs))} | ${fmtMs(tail.ms)} | ` +
        `${fmtMs(Number(app.smallMs))} (+${app.smallBytes} B) / ${fmtMs(Number(app.snapMs))} (+${(Number(app.snapBytes) / 1024).toFixed(0)} KB) |`,
    );
    const vf = v.ms / fl.ms;
    if (d.mb >= 100) targets.push(`- Full verify, fresh process, ${d.mb} MB ≤ 1.5× the floor: ${ratio(vf)} (one thread: ${ratio(v1.ms / fl.ms)}) — ${verdict(vf <= 1.5)}`);
    else targets.push(`- Full verify, fresh process, ${d.mb} MB ≤ 4× the floor: ${ratio(vf)} — ${verdict(vf <= 4)}`);
    if (d.mb >= 500) targets.push(`- Peak RSS at ${d.mb} MB < 150 MB: ${peak.toFixed(0)} MB — ${verdict(peak < 150)}`);
  }
  process.stderr.write("measuring timeline index: ");
  const idx = best(runs, () => runChild("index", timeline.dir)).best;
  process.stderr.write("done\n");
  if (idx.entries !== timeline.entries || !idx.ok) throw new Error(`timeline index incomplete: ${JSON.stringify(idx)}`);
  targets.push(`- Timeline index of ${timeline.entries.toLocaleString("en-US")} entries ≤ 1 s: ${fmtMs(idx.ms)} (CPU ${fmtMs(idx.cpuMs)}) — ${verdict(idx.ms <= 1000)}; event-loop blocks ≤ 50 ms: ${(idx.maxBlockMs ?? 0).toFixed(0)} ms — ${verdict((idx.maxBlockMs ?? 0) <= 50)}`);
  const load1 = os.loadavg()[0];
  const minutes = (performance.now() - t0) / 60_000;

  const out = [
    `Machine: ${machine().join("; ")}; load average ${load0.toFixed(1)} → ${load1.toFixed(1)} during the run (${minutes.toFixed(1)} min).`,
    `Best of ${runs} runs (${Math.max(1, runs - 1)} for 500 MB; the Python references once at 500 MB); verify = chain + strict replay + the replayed plan (\`verifyLedger\`), each in a fresh child process, timed after its modules loaded.`,
    "",
    "| ledger | entries | our verify (fresh process, default threads) | one thread | warm re-verify | floor (read + sha256 per line, one thread) | ours / floor | one thread / floor | Python stdlib reference | Python AutoDev `replay_ledger` (its `read_entries`), peak RSS | Python stdlib / AutoDev vs ours | verify peak RSS | longest event-loop block | module load | first tree data (`loadFromTail`) | append reflected (status / snapshot) |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ...rows,
    "",
    "CPU time of the same runs (all threads; less sensitive to other load on a shared machine):",
    "",
    "| ledger | our verify | one thread | Python stdlib reference | Python AutoDev | floor | ours / floor | one thread / floor |",
    "|---|---|---|---|---|---|---|---|",
    ...cpuRows,
    "",
    `Timeline summary index (\`LedgerSession.refresh\` from scratch: verify + replay + one summary per entry) of ${timeline.entries.toLocaleString("en-US")} small entries (${(timeline.bytes / 1e6).toFixed(1)} MB): **${fmtMs(idx.ms)}** (CPU ${fmtMs(idx.cpuMs)}), peak RSS ${idx.maxRssMB.toFixed(0)} MB, longest event-loop block ${(idx.maxBlockMs ?? 0).toFixed(0)} ms.`,
    "",
    reopenLine,
    "",
    "Targets (issue 16), from this run:",
    "",
    ...targets,
    `- Window reload with 1 MB appended costs the new bytes: see the line above — ${verdict(reopenLine !== "")}`,
  ];
  process.stdout.write(out.join("\n") + "\n");
  fs.writeFileSync(path.join(DATA, "last-results.md"), out.join("\n") + "\n");
}

if (process.argv[2] === "--child") {
  child(process.argv[3], process.argv[4]).catch((e) => {
    process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
    process.exit(1);
  });
} else {
  main(process.argv.slice(2)).catch((e) => {
    process.stderr.write(`bench failed: ${e instanceof Error ? e.stack : String(e)}\n`);
    process.exit(1);
  });
}
