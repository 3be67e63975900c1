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
import { generateBigLedger, generateSmallEntriesLedger } from "./generate";
import { ChildResult, child } from "./benchChild";
import {
  DATA,
  autodevSrc,
  best,
  ensureData,
  fmtMs,
  ledgerOf,
  machine,
  ratio,
  runAutodev,
  runChild,
  runPython,
  verdict,
} from "./benchRunner";

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
    if (auto && auto.entries !== d.entries) {
      throw new Error(`Python AutoDev read ${auto.entries} entries of ${d.entries}`);
    }
    const v = ours.reduce((a, b) => (b.ms < a.ms ? b : a));
    const v1 = single.reduce((a, b) => (b.ms < a.ms ? b : a));
    const warm = Math.min(...ours.map((o) => Number(o.warmMs)));
    const p = py.reduce((a, b) => (b.ms < a.ms ? b : a));
    const fl = floor.reduce((a, b) => (b.ms < a.ms ? b : a));
    for (const x of [v, v1]) {
      if (!x.ok || x.entries !== d.entries) throw new Error(`verify of ${d.mb} MB did not pass: ${JSON.stringify(x)}`);
    }
    if (!p.ok || p.entries !== d.entries) {
      throw new Error(`python reference on ${d.mb} MB did not pass: ${JSON.stringify(p)}`);
    }
    const peak = Math.max(...ours.map((o) => o.maxRssMB), ...single.map((o) => o.maxRssMB));
    const block = Math.max(...ours.map((o) => o.maxBlockMs ?? 0));
    const tail = best(runs, () => runChild("tail", d.dir)).best;
    process.stderr.write(".");
    const app = best(Math.max(1, runs - 1), () => {
      const c = runChild("append", d.dir);
      return {
        ms: Number(c.smallMs) + Number(c.snapMs),
        smallMs: Number(c.smallMs),
        smallBytes: Number(c.smallBytes),
        snapMs: Number(c.snapMs),
        snapBytes: Number(c.snapBytes),
      };
    }).best;
    if (d.mb === Math.max(...sizes)) {
      const setup = runChild("reopenSetup", d.dir);
      try {
        const re = runChild("reopen", String(setup.scratch));
        if (re.mode !== "resumed" || !re.ok || re.entries !== setup.entries) {
          throw new Error(`reopen did not resume: ${JSON.stringify(re)}`);
        }
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
    cpuRows.push(
      `| ${(d.bytes / 1e6).toFixed(0)} MB | ${fmtMs(oc)} | ${fmtMs(sc)} | ${fmtMs(pc)} | ${auto ? fmtMs(auto.cpuMs) : "—"} | ${fmtMs(fc)} | ${ratio(oc / fc)} | ${ratio(sc / fc)} |`,
    );
    const mbps = d.bytes / 1e6 / (v.ms / 1000);
    rows.push(
      `| ${(d.bytes / 1e6).toFixed(0)} MB | ${d.entries.toLocaleString("en-US")} | ${fmtMs(v.ms)} (${mbps.toFixed(0)} MB/s) | ${fmtMs(v1.ms)} | ${fmtMs(warm)} | ${fmtMs(fl.ms)} | ` +
        `**${ratio(v.ms / fl.ms)}** | ${ratio(v1.ms / fl.ms)} | ${fmtMs(p.ms)} | ${auto ? `${fmtMs(auto.ms)} (${fmtMs(auto.readMs)}), ${auto.peakMB.toFixed(0)} MB` : "not run"} | ` +
        `${(p.ms / v.ms).toFixed(1)}× / ${auto ? `${(auto.ms / v.ms).toFixed(1)}×` : "—"} | ${peak.toFixed(0)} MB | ${block.toFixed(0)} ms | ${fmtMs(Number(v.loadMs))} | ${fmtMs(tail.ms)} | ` +
        `${fmtMs(Number(app.smallMs))} (+${app.smallBytes} B) / ${fmtMs(Number(app.snapMs))} (+${(Number(app.snapBytes) / 1024).toFixed(0)} KB) |`,
    );
    const vf = v.ms / fl.ms;
    if (d.mb >= 100) {
      targets.push(
        `- Full verify, fresh process, ${d.mb} MB ≤ 1.5× the floor: ${ratio(vf)} (one thread: ${ratio(v1.ms / fl.ms)}) — ${verdict(vf <= 1.5)}`,
      );
    } else targets.push(`- Full verify, fresh process, ${d.mb} MB ≤ 4× the floor: ${ratio(vf)} — ${verdict(vf <= 4)}`);
    if (d.mb >= 500) targets.push(`- Peak RSS at ${d.mb} MB < 150 MB: ${peak.toFixed(0)} MB — ${verdict(peak < 150)}`);
  }
  process.stderr.write("measuring timeline index: ");
  const idx = best(runs, () => runChild("index", timeline.dir)).best;
  process.stderr.write("done\n");
  if (idx.entries !== timeline.entries || !idx.ok) throw new Error(`timeline index incomplete: ${JSON.stringify(idx)}`);
  targets.push(
    `- Timeline index of ${timeline.entries.toLocaleString("en-US")} entries ≤ 1 s: ${fmtMs(idx.ms)} (CPU ${fmtMs(idx.cpuMs)}) — ${verdict(idx.ms <= 1000)}; event-loop blocks ≤ 50 ms: ${(idx.maxBlockMs ?? 0).toFixed(0)} ms — ${verdict((idx.maxBlockMs ?? 0) <= 50)}`,
  );
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
