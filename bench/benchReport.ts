/**
 * The Markdown of one bench run: the shapes table with the worst shape
 * named, the size series with where a fresh process spends its time, the
 * other sources, and every target of issue 24 met or missed with its figure.
 */
import { fmtMs, ratio, verdict } from "./benchRunner";
import type { Activation, EditorResult } from "./editorBench";
import type { ShapeResult } from "./shapeBench";
import type { SizeResult } from "./sizeBench";
import type { SourceResult } from "./sourceBench";

/** What one run measured, for the report. */
export interface BenchRun {
  readonly quick: boolean;
  /** Why a part was left out of this run, in the options' own words ("--quick", "--only shapes,sources"). */
  readonly leftOut: string;
  readonly runs: number;
  readonly header: string[];
  readonly shapes: ShapeResult[];
  readonly sizes: SizeResult[];
  readonly sources: SourceResult[];
  /** The editor bench (null: not run, with why). */
  readonly editor: EditorResult | { error: string } | null;
  readonly autodev: boolean;
}

/** Issue 24 / 34: verify of every shape at 100 MB+ within this factor of the floor (wall, fresh process). */
const FLOOR_TARGET = 1.5;

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
      "| shape | size, entries | ours | floor | **ours / floor** (CPU) | ≤ 1.5× the floor | Python stdlib | **Python / ours** | Python AutoDev `replay_ledger` (`read_entries`), peak RSS | verdict, FSM warnings | peak RSS |",
      "|---|---|---|---|---|---|---|---|---|---|---|",
    );
    for (const s of run.shapes) {
      const a = s.autodev;
      const auto = a
        ? `${fmtMs(a.ms)} (${fmtMs(a.readMs)}), ${a.peakMB.toFixed(0)} MB${a.error ? `; raises: ${a.error.slice(0, 60)}` : ""}`
        : "not run";
      out.push(
        `| \`${s.shape.name}\` | ${mb(s.bytes)}, ${n(s.entries)} | ${fmtMs(s.oursMs)} | ${fmtMs(s.floorMs)} | **${ratio(s.ratio)}** (${ratio(s.cpuRatio)}) | ${s.ratio <= FLOOR_TARGET ? "met" : "missed"} | ${fmtMs(s.pythonMs)} | **${(s.pythonMs / s.oursMs).toFixed(1)}×** | ${auto} | ${s.ok ? "ok" : `${s.findings} findings`}, ${n(s.warnings)} | ${s.oursRssMB.toFixed(0)} MB |`,
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
      `Worst shape: \`${worst.shape.name}\` at ${ratio(worst.ratio)} the floor (target ≤ ${ratio(FLOOR_TARGET)}: ${worst.ratio <= FLOOR_TARGET ? "met" : "missed"}; ${run.shapes.filter((s) => s.ratio <= FLOOR_TARGET).length} of ${run.shapes.length} shapes met).`,
      "",
    );
    t(
      `Every shape ≤ 1.5× the floor at 100 MB (worst: \`${worst.shape.name}\`)`,
      ratio(worst.ratio),
      worst.ratio <= FLOOR_TARGET,
      worst.ratio > FLOOR_TARGET ? `missed by ${ratio(worst.ratio / FLOOR_TARGET)}` : "",
    );
    const floorVsPy = worstPy.pythonMs / worstPy.floorMs;
    // Where even the floor (read + sha256, Node's start-up included) is under 10× Python, no verifier meets the target.
    const beyondFloor = run.shapes.filter((s) => s.pythonMs / s.floorMs < 10);
    const beyond =
      beyondFloor.length === 0
        ? ""
        : `; the floor itself is under 10× Python on ${beyondFloor.length} of ${run.shapes.length} shapes (${beyondFloor
            .map((s) => `\`${s.shape.name}\` ${(s.pythonMs / s.floorMs).toFixed(1)}×`)
            .join(", ")}): there no verifier can meet it`;
    t(
      `Every shape ≥ 10× the Python stdlib reference (worst: \`${worstPy.shape.name}\`)`,
      `${(worstPy.pythonMs / worstPy.oursMs).toFixed(1)}×`,
      worstPy.pythonMs / worstPy.oursMs >= 10,
      `on that shape the floor itself is ${floorVsPy.toFixed(1)}× Python${beyond}`,
    );
  }

  if (run.sizes.length > 0) {
    out.push(
      "### The lifecycle ledger by size (whole process: CLI `verify --json` against the floor; then in-process figures)",
      "",
      "| size, entries | ours | floor | **ours / floor** (CPU) | Node start-up · CLI start (`--version`) | ours without the code cache | ours / floor after Node's start-up | Python stdlib / ours | Python AutoDev | peak RSS | one thread · warm re-verify (in-process) | longest event-loop block | first tree data | append reflected (status / snapshot) |",
      "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    );
    for (const s of run.sizes) {
      const a = s.autodev;
      out.push(
        `| ${mb(s.bytes)}, ${n(s.entries)} | ${fmtMs(s.oursMs)} | ${fmtMs(s.floorMs)} | **${ratio(s.ratio)}** (${ratio(s.cpuRatio)}) | ${fmtMs(s.emptyMs)} · ${fmtMs(s.loadMs)} | ${fmtMs(s.noCacheMs)} | ${Number.isNaN(s.afterStartRatio) ? "—" : ratio(s.afterStartRatio)} | ${(s.pythonMs / s.oursMs).toFixed(1)}× | ${a ? `${fmtMs(a.ms)} (${fmtMs(a.readMs)}), ${a.peakMB.toFixed(0)} MB` : "not run"} | ${s.oursRssMB.toFixed(0)} MB | ${fmtMs(s.oneThreadMs)} · ${fmtMs(s.warmMs)} | ${s.blockMs.toFixed(0)} ms | ${fmtMs(s.tailMs)} | ${fmtMs(s.appendMs.status)} / ${fmtMs(s.appendMs.snapshot)} |`,
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
      // The issue's target is the whole process (what the user waits for). The stricter figure after
      // Node's own start-up (which the floor pays too) divides by the floor's few milliseconds of work,
      // so it swings by 2–4× between runs; it is judged too, on its own line.
      t("10 MB in a fresh process ≤ 3× the floor (whole process)", ratio(ten.ratio), ten.ratio <= 3);
      const work = `Node's start-up ${fmtMs(ten.emptyMs)}, the CLI's start ${fmtMs(ten.loadMs)}, the floor's own work ${fmtMs(ten.floorMs - ten.emptyMs)}`;
      const strict =
        "The same after Node's start-up (stricter: what our CLI adds, against the floor's own read and hash)";
      if (Number.isNaN(ten.afterStartRatio)) targets.push(`- ${strict}: not measurable in this run; ${work}`);
      else t(strict, ratio(ten.afterStartRatio), ten.afterStartRatio <= 3, work);
    }
    const big = run.sizes.find((s) => s.mb >= 500);
    if (big) {
      t(`Peak RSS of verify at ${mb(big.bytes)} < 150 MB`, `${big.oursRssMB.toFixed(0)} MB`, big.oursRssMB < 150);
    } else targets.push(`- Peak RSS of verify at 500 MB < 150 MB: not measured in this run (${run.leftOut})`);
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
  const e = run.editor;
  if (e && "error" in e) {
    out.push("### Live in the editor", "", `Not measured: ${e.error}.`, "");
    targets.push(`- Live in the editor: not measured (${e.error})`);
  } else if (e && e.appendRuns) {
    out.push(
      "### Live in the editor: appends, this checkout and --baseline alternating",
      "",
      ...appendRunRows(e.appendRuns),
      "",
    );
  } else if (e) {
    const small = e.appends.small;
    const big = e.appends.big;
    const snap = e.appends.snapshots;
    const wSmall = e.appendsFromWrite?.small;
    const wBig = e.appendsFromWrite?.big;
    const fromWrite = (w: typeof wSmall) => (w ? `; from its last write ${fmtMs(w.p50)} / ${fmtMs(w.p95)}` : "");
    const editorWatcher = (k: "small" | "big" | "snapshots") => {
      const a = e.appendsEditorWatcher?.[k];
      const b = e.appends[k];
      return a && a.n > 0 && b
        ? [
            `| the same, ${mb(e.ledgerBytes[k])}${k === "snapshots" ? " PlanManager ledger (status change and snapshot)" : ""}, heard through the editor's file watcher alone (no watch in the state worker, as before), alternating with the rows above in the same host: p50 / p95 of ${a.n}; worker's watch / editor's alone | ${fmtMs(a.p50)} / ${fmtMs(a.p95)}; ratio ${ratio(b.p50 / a.p50)} / ${ratio(b.p95 / a.p95)} |`,
          ]
        : [];
    };
    out.push(
      `### Live in the editor (VS Code ${e.vscode} in code-server, extension host on Node ${e.node}; bench/editor/)`,
      "",
      "| what | figure |",
      "|---|---|",
      ...activationRows(e),
      `| first verify of every folder after activation (1 MB and 100 MB ledgers${snap ? ", the 100 MB PlanManager ledger" : ""}, agloop, engine_state) | ${fmtMs(e.firstVerifyMs)} |`,
      `| extension host RSS with the three sources open | ${e.rssMB.toFixed(0)} MB |`,
      `| external append (Python AutoDev's writer) → tree and Problems updated, ${mb(e.ledgerBytes.small)} ledger, p50 / p95 of ${small.n}, from the writer's atomic replace | ${fmtMs(small.p50)} / ${fmtMs(small.p95)}${fromWrite(wSmall)} |`,
      `| the same, ${mb(e.ledgerBytes.big)} ledger (from its last write: the writer's fsync of the 100 MB copy and its replace come between) | ${fmtMs(big.p50)} / ${fmtMs(big.p95)}${fromWrite(wBig)} |`,
      ...(snap
        ? [
            `| a status change and its snapshot of the whole plan (PlanManager's two appends: the entry, then the snapshot, each an atomic replace), ${mb(e.ledgerBytes.snapshots)} PlanManager ledger, p50 / p95 of ${snap.n}, from the snapshot's replace | ${fmtMs(snap.p50)} / ${fmtMs(snap.p95)}${fromWrite(e.appendsFromWrite?.snapshots)} |`,
          ]
        : []),
      ...editorWatcher("small"),
      ...editorWatcher("big"),
      ...editorWatcher("snapshots"),
      ...timelineRow(e),
      "",
    );
    t(
      `Append → tree and Problems at ${mb(e.ledgerBytes.big)}: p95 ≤ 300 ms`,
      `p95 ${fmtMs(big.p95)} (p50 ${fmtMs(big.p50)}; ${mb(e.ledgerBytes.small)}: ${fmtMs(small.p50)} / ${fmtMs(small.p95)})`,
      big.p95 <= 300,
    );
    if (snap) {
      t(
        `Append of a status change and its snapshot → tree and Problems, ${mb(e.ledgerBytes.snapshots)} PlanManager ledger: p95 ≤ 100 ms`,
        `p95 ${fmtMs(snap.p95)} (p50 ${fmtMs(snap.p50)})`,
        snap.p95 <= 100,
      );
    }
    const tla = e.timelineAppends;
    if (tla) {
      t(
        `Append → the timeline webview repainted with the new row, ${mb(e.ledgerBytes[tla.folder] ?? 0)} ledger: p95 ≤ 300 ms`,
        `p95 ${fmtMs(tla.timeline.p95)} (p50 ${fmtMs(tla.timeline.p50)})`,
        tla.timeline.p95 <= 300,
      );
    } else targets.push("- Append → the timeline webview repainted: not measured in this run");
    const act = activationFigure(e);
    t(
      `Activation ≤ 50 ms of extension host time before the first paint request (${act.what})`,
      fmtMs(act.hostMs),
      act.hostMs <= 50,
    );
  } else targets.push(`- Live in the editor: not run (${run.leftOut}; \`npm run bench -- --editor\` runs it)`);
  out.push("### Targets (issue 24), from this run", "", ...targets);
  return out;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** The table's row of the timeline phase (none in older runs). */
function timelineRow(e: EditorResult): string[] {
  const tla = e.timelineAppends;
  if (!tla) return [];
  return [
    `| the same, ${mb(e.ledgerBytes[tla.folder] ?? 0)} ledger, with the timeline open on it: → the timeline webview repainted with the new row (its own report, after the paint), p50 / p95 of ${tla.timeline.n}; → tree and Problems in the same appends | ${fmtMs(tla.timeline.p50)} / ${fmtMs(tla.timeline.p95)}; ${fmtMs(tla.treeAndProblems.p50)} / ${fmtMs(tla.treeAndProblems.p95)} |`,
  ];
}

/** The activation figure the target is judged on: the median of the host starts, else the one run's. */
function activationFigure(e: EditorResult): { hostMs: number; what: string } {
  const ours = e.starts?.ours ?? [];
  return ours.length > 0
    ? { hostMs: median(ours.map((a) => a.hostMs)), what: `median of ${ours.length} host starts` }
    : { hostMs: e.activation.hostMs, what: "one host start" };
}

/** The activation rows: over the host starts (the first without a compile cache), and the A/B when there is one. */
function activationRows(e: EditorResult): string[] {
  const total = (a: Activation) =>
    a.totalHostMs === undefined ? "" : `; until its start-up work ended ${fmtMs(a.totalHostMs)}`;
  const ours = e.starts?.ours ?? [];
  if (ours.length === 0) {
    return [
      `| activation: extension host main-thread time until the Plan tree's first \`getChildren\` answered (wall) | ${fmtMs(e.activation.hostMs)} (${fmtMs(e.activation.wallMs)})${total(e.activation)} |`,
    ];
  }
  const med = (xs: Activation[], f: (a: Activation) => number | undefined) => {
    const v = xs.map(f).filter((x): x is number => x !== undefined);
    return v.length ? fmtMs(median(v)) : "—";
  };
  const rows = [
    `| activation: extension host main-thread time until the Plan tree's first \`getChildren\` answered (wall), median of ${ours.length} host starts in one user-data folder | ${med(ours, (a) => a.hostMs)} (${med(ours, (a) => a.wallMs)}); until the start-up work ended ${med(ours, (a) => a.totalHostMs)}; first start (no compile cache yet) ${fmtMs(ours[0].hostMs)}; each: ${ours.map((a) => fmtMs(a.hostMs)).join(", ")} |`,
  ];
  const base = e.starts?.baseline;
  if (base && base.starts.length > 0) {
    const b = median(base.starts.map((a) => a.hostMs));
    const o = median(ours.map((a) => a.hostMs));
    rows.push(
      `| the same, \`--baseline ${base.dir}\` started alternately (B A B A …): baseline / this checkout, medians; each baseline start | ${fmtMs(b)} / ${fmtMs(o)}, ratio ${ratio(o / b)}; ${base.starts.map((a) => fmtMs(a.hostMs)).join(", ")} |`,
    );
  }
  return rows;
}

/** The A/B of the editor's appends: each folder's p50 / p95 per run and their medians, ours / baseline. */
function appendRunRows(runs: NonNullable<EditorResult["appendRuns"]>): string[] {
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
  const rows = [
    "| folder | baseline p50 / p95 (each run) | ours p50 / p95 (each run) | ours / baseline, medians |",
    "|---|---|---|---|",
  ];
  for (const folder of Object.keys(runs.ours[0] ?? {})) {
    const of = (side: typeof runs.ours) => side.map((r) => r[folder]).filter(Boolean);
    const [b, o] = [of(runs.baseline), of(runs.ours)];
    const each = (xs: typeof b) => xs.map((x) => `${fmtMs(x.p50)} / ${fmtMs(x.p95)}`).join("; ");
    const r = (k: "p50" | "p95") => ratio(med(o.map((x) => x[k])) / med(b.map((x) => x[k])));
    rows.push(`| ${folder} | ${each(b)} | ${each(o)} | ${r("p50")} / ${r("p95")} |`);
  }
  return rows;
}
