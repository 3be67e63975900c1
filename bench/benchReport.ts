/**
 * The Markdown of one bench run: the shapes table with the worst shape
 * named, the size series with where a fresh process spends its time, the
 * other sources, and every target of issue 24 met or missed with its figure.
 */
import type { BenchRun } from "./run";
import { fmtMs, ratio, verdict } from "./benchRunner";

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;
const n = (x: number) => x.toLocaleString("en-US");

/** The report's lines. */
export function reportLines(run: BenchRun): string[] {
  const out: string[] = [...run.header, ""];
  const targets: string[] = [];
  const t = (label: string, value: string, met: boolean, why = "") =>
    targets.push(`- ${label}: ${value} — ${verdict(met)}${why ? `; ${why}` : ""}`);

  if (run.shapes.length > 0) {
    out.push(
      `### Ledger shapes at 100 MB (CLI \`verify --json\`, fresh process, default settings; medians of ${run.runs} interleaved runs)`,
      "",
      "| shape | size, entries | ours | floor | **ours / floor** (CPU) | Python stdlib | **Python / ours** | Python AutoDev `replay_ledger` (`read_entries`), peak RSS | verdict, FSM warnings | peak RSS |",
      "|---|---|---|---|---|---|---|---|---|---|",
    );
    for (const s of run.shapes) {
      const a = s.autodev;
      const auto = a
        ? `${fmtMs(a.ms)} (${fmtMs(a.readMs)}), ${a.peakMB.toFixed(0)} MB${a.error ? `; raises: ${a.error.slice(0, 60)}` : ""}`
        : "not run";
      out.push(
        `| \`${s.shape.name}\` | ${mb(s.bytes)}, ${n(s.entries)} | ${fmtMs(s.oursMs)} | ${fmtMs(s.floorMs)} | **${ratio(s.ratio)}** (${ratio(s.cpuRatio)}) | ${fmtMs(s.pythonMs)} | **${(s.pythonMs / s.oursMs).toFixed(1)}×** | ${auto} | ${s.ok ? "ok" : `${s.findings} findings`}, ${n(s.warnings)} | ${s.oursRssMB.toFixed(0)} MB |`,
      );
    }
    out.push("", "Shapes:", "");
    for (const s of run.shapes) out.push(`- \`${s.shape.name}\`: ${s.shape.what}.`);
    const worst = run.shapes.reduce((a, b) => (b.ratio > a.ratio ? b : a));
    const worstPy = run.shapes.reduce((a, b) => (b.pythonMs / b.oursMs < a.pythonMs / a.oursMs ? b : a));
    out.push(
      "",
      `Worst shape against the floor: **\`${worst.shape.name}\`** (${ratio(worst.ratio)}); against Python: **\`${worstPy.shape.name}\`** (${(worstPy.pythonMs / worstPy.oursMs).toFixed(1)}×).`,
      "",
    );
    t(
      `Every shape ≤ 1.5× the floor at 100 MB (worst: \`${worst.shape.name}\`)`,
      ratio(worst.ratio),
      worst.ratio <= 1.5,
      worst.ratio > 1.5 ? `missed by ${ratio(worst.ratio / 1.5)}` : "",
    );
    const floorVsPy = worstPy.pythonMs / worstPy.floorMs;
    t(
      `Every shape ≥ 10× the Python stdlib reference (worst: \`${worstPy.shape.name}\`)`,
      `${(worstPy.pythonMs / worstPy.oursMs).toFixed(1)}×`,
      worstPy.pythonMs / worstPy.oursMs >= 10,
      `on that shape the floor itself is ${floorVsPy.toFixed(1)}× Python`,
    );
  }

  if (run.sizes.length > 0) {
    out.push(
      "### The lifecycle ledger by size (whole process: CLI `verify --json` against the floor; then in-process figures)",
      "",
      "| size, entries | ours | floor | **ours / floor** (CPU) | Node start-up · CLI module load | ours / floor after Node's start-up | Python stdlib / ours | Python AutoDev | peak RSS | one thread · warm re-verify (in-process) | longest event-loop block | first tree data | append reflected (status / snapshot) |",
      "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    );
    for (const s of run.sizes) {
      const a = s.autodev;
      out.push(
        `| ${mb(s.bytes)}, ${n(s.entries)} | ${fmtMs(s.oursMs)} | ${fmtMs(s.floorMs)} | **${ratio(s.ratio)}** (${ratio(s.cpuRatio)}) | ${fmtMs(s.emptyMs)} · ${fmtMs(s.loadMs)} | ${ratio(s.afterStartRatio)} | ${(s.pythonMs / s.oursMs).toFixed(1)}× | ${a ? `${fmtMs(a.ms)} (${fmtMs(a.readMs)}), ${a.peakMB.toFixed(0)} MB` : "not run"} | ${s.oursRssMB.toFixed(0)} MB | ${fmtMs(s.oneThreadMs)} · ${fmtMs(s.warmMs)} | ${s.blockMs.toFixed(0)} ms | ${fmtMs(s.tailMs)} | ${fmtMs(s.appendMs.status)} / ${fmtMs(s.appendMs.snapshot)} |`,
      );
    }
    out.push("");
    for (const s of run.sizes) {
      if (s.reopen) {
        out.push(
          `Window reload of the ${mb(s.bytes)} ledger with ${s.reopen.appendedMB.toFixed(2)} MB appended (resume from the stored verification record, fresh process): ${fmtMs(s.reopen.ms)}, ${s.reopen.readMB.toFixed(2)} MB read, peak RSS ${s.reopen.rssMB.toFixed(0)} MB.`,
          "",
        );
      }
    }
    const ten = run.sizes.find((s) => s.mb === 10);
    if (ten) {
      t(
        "10 MB in a fresh process ≤ 3× the floor",
        `${ratio(ten.ratio)} (after Node's start-up: ${ratio(ten.afterStartRatio)})`,
        ten.ratio <= 3,
        `Node's start-up ${fmtMs(ten.emptyMs)}, the CLI's module load ${fmtMs(ten.loadMs)}`,
      );
    }
    const big = run.sizes.find((s) => s.mb >= 500);
    if (big) {
      t(`Peak RSS of verify at ${mb(big.bytes)} < 150 MB`, `${big.oursRssMB.toFixed(0)} MB`, big.oursRssMB < 150);
    } else targets.push("- Peak RSS of verify at 500 MB < 150 MB: not measured in this run (--quick)");
  }

  if (run.sources.length > 0) {
    out.push(
      "### The other sources (CLI in a fresh process against a parse of the same bytes; medians)",
      "",
      "| source | size | ours | reference | ours / reference | peak RSS | more |",
      "|---|---|---|---|---|---|---|",
    );
    for (const s of run.sources) {
      out.push(
        `| ${s.name} | ${s.what}, ${mb(s.bytes)} | ${fmtMs(s.oursMs)} | ${s.refMs === null ? "—" : `${fmtMs(s.refMs)} (${s.refName})`} | ${s.ratio === null ? "—" : ratio(s.ratio)} | ${s.rssMB.toFixed(0)} MB | ${s.notes.join("; ")} |`,
      );
      if (s.target !== null && s.ratio !== null) {
        t(`${s.name}: ≤ ${s.target}× ${s.refName}`, ratio(s.ratio), s.ratio <= s.target);
      }
      for (const x of s.extraTargets) t(x.label, x.value, x.met);
    }
    const rss = run.sources.reduce((a, b) => (b.rssMB > a.rssMB ? b : a));
    t(`Peak RSS of any source < 300 MB (largest: ${rss.name})`, `${rss.rssMB.toFixed(0)} MB`, rss.rssMB < 300);
    out.push("");
  }
  out.push("### Targets (issue 24), from this run", "", ...targets);
  return out;
}
