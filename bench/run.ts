/**
 * `npm run bench`: generates (once, cached in bench/data/) the ledgers of
 * every shape (ledgerShapes.ts) and the other sources' state at scale, then
 * measures, in one run, side by side:
 *
 * 1. every ledger shape at 100 MB: the CLI's verify in a fresh process
 *    against the floor (read + sha256 per line), the Python stdlib
 *    reference and Python AutoDev's own replay (shapeBench.ts);
 * 2. the lifecycle ledger at 10, 100 and 500 MB: the same, plus where a
 *    fresh process spends its time (Node's start-up, module load, the
 *    verify), one thread, a warm re-verify, first tree data, an append
 *    reflected and a window reload (sizeBench.ts);
 * 3. the other sources at scale (sourceBench.ts);
 * 4. live in the editor: activation, RSS and external appends reflected in
 *    the tree and Problems, inside code-server (editorBench.ts, bench/editor/);
 * and writes the tables with each target met or missed into
 * docs/benchmarks.md (between its bench markers) and bench/data/last-results.md.
 *
 * Options: --quick (shapes at 100 MB, 3 runs, no 500 MB, no Python AutoDev,
 * sources at a tenth of their size, no editor bench) · --runs N · --shapes a,b · --sizes 10,100,500
 * · --editor / --no-editor · --appends N (per ledger in the editor bench, default 20)
 * · --editor-folders small,big,snapshots (only these folders in the editor bench) · --append-runs N
 * (with --baseline: the editor's appends run N times for each checkout, alternating)
 * · --starts N (host starts measuring activation alone, default 5) · --baseline DIR (another built
 *   checkout whose extension starts alternately with ours: an A/B of activation)
 * · --autodev-src DIR (or AUTODEV_PY_SRC; AUTODEV_PYTHON names its interpreter)
 * · --no-docs (do not touch docs/benchmarks.md)
 * · --only shapes,sizes,sources,editor (run only those parts: the table goes to
 *   bench/data/last-partial.md, never to the docs, which hold whole runs only)
 * · --sources agloop-log,agloop-state,engine-state,tournaments,knowledge (only these sources; implies a partial run).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { child } from "./process/benchChild";
import { DATA, ROOT, autodevSrc, machine } from "./benchRunner";
import { SHAPES } from "./ledgerShapes";
import { type ShapeResult, measureShape } from "./shapeBench";
import { type SizeResult, measureSize } from "./sizeBench";
import { measureSources } from "./sourceBench";
import { reportLines, type BenchRun } from "./benchReport";
import { measureEditor } from "./editorBench";

async function main(argv: string[]): Promise<void> {
  const opt = (name: string) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const quick = argv.includes("--quick");
  const runs = Number(opt("runs") ?? (quick ? 3 : 5));
  const names = opt("shapes")?.split(",");
  const sizes = (opt("sizes") ?? (quick ? "10,100" : "10,100,500")).split(",").map(Number);
  const pySrc = quick ? null : autodevSrc(argv);
  const onlySources = opt("sources")?.split(",");
  const only = opt("only")?.split(",") ?? (onlySources ? ["sources"] : undefined);
  const part = (name: string) => !only || only.includes(name);
  fs.mkdirSync(DATA, { recursive: true });
  const load0 = os.loadavg()[0];
  const t0 = performance.now();
  const say = (s: string) => process.stderr.write(s);

  const shapes: ShapeResult[] = [];
  for (const shape of SHAPES.filter((s) => part("shapes") && (!names || names.includes(s.name)))) {
    say(`shape ${shape.name}: `);
    shapes.push(measureShape(shape, 100, runs, quick ? 1 : 2, pySrc));
    say("done\n");
  }
  const sizeList: SizeResult[] = [];
  for (const mb of part("sizes") ? sizes : []) {
    say(`lifecycle ${mb} MB: `);
    sizeList.push(await measureSize(mb, mb >= 500 ? Math.max(2, runs - 2) : runs, pySrc, mb === Math.max(...sizes)));
    say("done\n");
  }
  const sources = part("sources") ? await measureSources(quick ? 0.1 : 1, Math.min(runs, 3), say, onlySources) : [];
  let editor: BenchRun["editor"] = null;
  if (part("editor") && ((!quick && !argv.includes("--no-editor")) || argv.includes("--editor") || only)) {
    say("editor (code-server): ");
    editor = measureEditor(
      {
        appends: Number(opt("appends") ?? 20),
        starts: Number(opt("starts") ?? 5),
        baseline: opt("baseline"),
        folders: opt("editor-folders")?.split(","),
        appendRuns: Number(opt("append-runs") ?? 0),
      },
      say,
    );
    say("done\n");
  }
  const minutes = (performance.now() - t0) / 60_000;
  const header = [
    `Machine: ${machine().join("; ")}; load average ${load0.toFixed(1)} → ${os.loadavg()[0].toFixed(1)} during the run (${minutes.toFixed(1)} min, \`npm run bench${quick ? " -- --quick" : ""}\`).`,
  ];
  const leftOut = [
    only ? `--only ${only.join(",")}` : "",
    quick ? "--quick" : "",
    argv.includes("--no-editor") ? "--no-editor" : "",
    opt("sizes") ? `--sizes ${opt("sizes")}` : "",
  ]
    .filter(Boolean)
    .join(" ");
  const lines = reportLines({
    quick,
    leftOut,
    runs,
    header,
    shapes,
    sizes: sizeList,
    sources,
    editor,
    autodev: pySrc !== null,
  });
  const text = lines.join("\n") + "\n";
  process.stdout.write(text);
  fs.writeFileSync(path.join(DATA, only ? "last-partial.md" : "last-results.md"), text);
  if (!only && !argv.includes("--no-docs")) writeDocs(text);
}

const BEGIN = "<!-- bench:begin (generated by npm run bench; edit bench/benchReport.ts instead) -->";
const END = "<!-- bench:end -->";

/** Replaces the generated part of docs/benchmarks.md. */
function writeDocs(text: string): void {
  const file = path.join(ROOT, "docs", "benchmarks.md");
  const old = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : `# Benchmarks\n\n${BEGIN}\n${END}\n`;
  const a = old.indexOf(BEGIN);
  const b = old.indexOf(END);
  const next =
    a >= 0 && b > a
      ? `${old.slice(0, a + BEGIN.length)}\n${text}${old.slice(b)}`
      : `${old.trimEnd()}\n\n${BEGIN}\n${text}${END}\n`;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, next);
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
