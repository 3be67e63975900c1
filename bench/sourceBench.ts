/**
 * Target 3 of the bench: the other sources at scale — agloop's `log.json`
 * (1M lines) and a 16 MiB `state.json`, an engine_state JSONL of 1M lines,
 * 500 tournaments and a 100k-line `knowledge.jsonl` — each read by the CLI
 * in a fresh process (`check`, `tournaments`, `knowledge`) against a
 * reference that only parses the same bytes (bench/process/jsonParse.ts, or
 * Python's json.loads + json.dumps for engine_state), plus the agloop
 * timeline index in-process, and each log's all-bad twin against the good one.
 */
import * as path from "node:path";
import { DATA, ROOT, ensureData, runChild } from "./benchRunner";
import { Cmd, Compared, compare, median } from "./process/processRunner";
import { agloopLog, agloopState, engineState, knowledge, tournaments } from "./sourceData";
import { spawnSync } from "node:child_process";

/** One measured row. */
export interface SourceResult {
  readonly name: string;
  readonly what: string;
  readonly records: number;
  readonly bytes: number;
  /** Our whole-process median, the reference's, and the median of their run-by-run ratio. */
  readonly oursMs: number;
  readonly refMs: number | null;
  readonly refName: string;
  readonly ratio: number | null;
  /** The target on `ratio` (null: none). */
  readonly target: number | null;
  readonly rssMB: number;
  /** Extra figures (timeline index, bad/good) as label → text. */
  readonly notes: string[];
  readonly extraTargets: { label: string; value: string; met: boolean }[];
}

const cli = (...args: string[]): Cmd => ({
  argv: ["node", path.join(ROOT, "dist", "cli.js"), ...args],
  okCodes: [0, 1],
});
const parse = (file: string, whole = false): Cmd => ({
  argv: ["node", path.join(ROOT, "dist", "bench", "jsonParse.js"), file, whole ? "--whole" : "--lines"],
});

/** A row of ours (`c`'s second command) against a parse of the same bytes (its first), with no target. */
function againstParse(
  name: string,
  what: string,
  made: { bytes: number; entries: number },
  c: Compared,
  refName: string,
): SourceResult {
  return {
    name,
    what,
    records: made.entries,
    bytes: made.bytes,
    oursMs: c.ms[1],
    refMs: c.ms[0],
    refName,
    ratio: c.ratioToFirst[1],
    target: null,
    rssMB: c.maxRssMB[1],
    notes: [],
    extraTargets: [],
  };
}

const ratioText = (r: number | null): string => (r === null ? "—" : `${r.toFixed(2)}×`);

/** The bad/good figures of `run` (good first, bad second), or what went wrong when the bad run failed. */
function badTwin(run: () => Compared): { note: string; value: string; met: boolean; rssMB: number } {
  try {
    const c = run();
    const r = c.ratioToFirst[1];
    return {
      note: `check ${c.ms[1].toFixed(0)} ms (${r.toFixed(2)}× the good file)`,
      value: `${r.toFixed(2)}×`,
      met: r <= 2,
      rssMB: c.maxRssMB[1],
    };
  } catch (e) {
    const why = (e instanceof Error ? e.message : String(e)).split("\n").find((l) => /error/i.test(l)) ?? String(e);
    return { note: `check FAILED: ${why.slice(0, 300)}`, value: "failed", met: false, rssMB: 0 };
  }
}

/** Runs the Python round-trip reference on `file`: its own seconds. */
function pythonRoundTrip(file: string): number {
  const res = spawnSync("python3", [path.join(ROOT, "bench", "python", "python_roundtrip.py"), file], {
    encoding: "utf8",
  });
  if (res.status !== 0) throw new Error(`python round trip failed: ${res.stderr}`);
  return (JSON.parse(res.stdout) as { seconds: number }).seconds * 1000;
}

/** Measures every source at `scale` (1 = the sizes of issue 24; --quick uses 0.1). */
export async function measureSources(
  scale: number,
  runs: number,
  say: (s: string) => void,
  which?: readonly string[],
): Promise<SourceResult[]> {
  const n = (x: number) => Math.round(x * scale);
  const want = (name: string): boolean => !which || which.includes(name);
  const out: SourceResult[] = [];
  const data = (
    name: string,
    main: string,
    make: (dir: string) => { bytes: number; entries: number },
    recipe?: string,
  ) =>
    ensureData(
      name,
      () => make(path.join(DATA, name)),
      (dir) => path.join(dir, main),
      recipe,
    );

  if (want("agloop-log")) {
    say("agloop log.json: ");
    const log = data(`agloop-log-${n(1e6)}`, ".agloop/log.json", (d) => agloopLog(d, n(1e6), false));
    const badLog = data(`agloop-log-bad-${n(1e6)}`, ".agloop/log.json", (d) => agloopLog(d, n(1e6), true));
    const logFile = path.join(log.dir, ".agloop", "log.json");
    const c = compare([parse(logFile), cli("check", log.dir, "--json"), cli("check", badLog.dir, "--json")], runs);
    const tl = Array.from({ length: Math.min(3, runs) }, () => runChild("timeline", log.dir));
    const tlBad = runChild("timeline", badLog.dir);
    const tlMs = median(tl.map((x) => x.ms));
    const badRatio = median(c.runs[2].map((r, i) => r.ms / c.runs[1][i].ms));
    out.push({
      name: "agloop log.json",
      what: `${log.entries.toLocaleString("en-US")} lines`,
      records: log.entries,
      bytes: log.bytes,
      oursMs: c.ms[1],
      refMs: c.ms[0],
      refName: "JSON.parse per line",
      ratio: c.ratioToFirst[1],
      target: 2,
      rssMB: Math.max(c.maxRssMB[1], c.maxRssMB[2], ...tl.map((x) => x.maxRssMB)),
      notes: [
        `timeline index (in-process, ${Number(tl[0].rows).toLocaleString("en-US")} rows): ${tlMs.toFixed(0)} ms, longest event-loop block ${Math.max(...tl.map((x) => x.maxBlockMs ?? 0)).toFixed(0)} ms`,
        `all lines torn: check ${c.ms[2].toFixed(0)} ms (${badRatio.toFixed(2)}× the good log), timeline ${tlBad.ms.toFixed(0)} ms`,
      ],
      extraTargets: [
        {
          label: `agloop timeline index of ${log.entries.toLocaleString("en-US")} lines ≤ 1 s${scale < 1 ? " (the target is for 1M)" : ""}`,
          value: `${tlMs.toFixed(0)} ms`,
          met: tlMs <= 1000,
        },
        { label: "agloop bad lines ≤ 2× good ones (check)", value: `${badRatio.toFixed(2)}×`, met: badRatio <= 2 },
      ],
    });
  }
  say("done\nagloop state.json: ");

  if (want("agloop-state")) {
    const st = data(`agloop-state-${n(16)}mib`, ".agloop/state.json", (d) => agloopState(d, n(16 * 2 ** 20)), "2");
    const cs = compare([parse(path.join(st.dir, ".agloop", "state.json"), true), cli("check", st.dir, "--json")], runs);
    const stateRow = againstParse(
      "agloop state.json",
      `${(st.bytes / 2 ** 20).toFixed(1)} MiB, ${st.entries.toLocaleString("en-US")} tasks`,
      st,
      cs,
      "JSON.parse of the file",
    );
    // Issue 24 sets no ratio for it: only the memory bound of every source.
    out.push({
      ...stateRow,
      extraTargets: [
        {
          label: `agloop state.json of ${(st.bytes / 2 ** 20).toFixed(1)} MiB checked, peak RSS < 300 MB (no ratio set; ${ratioText(stateRow.ratio)} JSON.parse of the file)`,
          value: `${stateRow.rssMB.toFixed(0)} MB`,
          met: stateRow.rssMB < 300,
        },
      ],
    });
  }
  say("done\nengine_state: ");

  if (want("engine-state")) {
    const es = data(`engine-state-${n(1e6)}`, "engine_state/discovery_candidates.jsonl", (d) =>
      engineState(d, n(1e6), false),
    );
    const esBad = data(`engine-state-bad-${n(1e6)}`, "engine_state/discovery_candidates.jsonl", (d) =>
      engineState(d, n(1e6), true),
    );
    const ce = compare([cli("check", es.dir, "--json")], runs);
    const py = median(
      Array.from({ length: Math.min(2, runs) }, () =>
        pythonRoundTrip(path.join(es.dir, "engine_state", "discovery_candidates.jsonl")),
      ),
    );
    // The all-bad twin on its own: a check that fails there is a finding to report, not the bench's end.
    const bad = badTwin(() => compare([cli("check", es.dir, "--json"), cli("check", esBad.dir, "--json")], 1));
    out.push({
      name: "engine_state JSONL",
      what: `${es.entries.toLocaleString("en-US")} lines`,
      records: es.entries,
      bytes: es.bytes,
      oursMs: ce.ms[0],
      refMs: py,
      refName: "Python json.loads + json.dumps per line",
      ratio: ce.ms[0] / py,
      target: 3,
      rssMB: Math.max(ce.maxRssMB[0], bad.rssMB),
      notes: [`all lines not canonical: ${bad.note}`],
      extraTargets: [{ label: "engine_state bad lines ≤ 2× good ones (check)", value: bad.value, met: bad.met }],
    });
  }
  say("done\ntournaments: ");

  if (want("tournaments")) {
    const tn = data(`tournaments-${n(500)}`, ".bench-complete", (d) => tournaments(d, n(500)));
    const ct = compare([cli("tournaments", tn.dir, "--json"), cli("check", tn.dir, "--json")], runs);
    out.push({
      name: "AutoDev tournaments",
      what: `${tn.entries} tournaments, ${(tn.bytes / 1e6).toFixed(1)} MB`,
      records: tn.entries,
      bytes: tn.bytes,
      oursMs: ct.ms[0],
      refMs: null,
      refName: "—",
      ratio: null,
      target: null,
      rssMB: Math.max(ct.maxRssMB[0], ct.maxRssMB[1]),
      notes: [`\`check\` of the same workspace (ledger, plan, evidence, tournaments): ${ct.ms[1].toFixed(0)} ms`],
      extraTargets: [],
    });
  }
  say("done\nknowledge: ");

  if (want("knowledge")) {
    const kn = data(`knowledge-${n(1e5)}`, ".autodev/knowledge.jsonl", (d) => knowledge(d, n(1e5)));
    const knBad = data(`knowledge-bad-${n(1e5)}`, ".autodev/knowledge.jsonl", (d) => knowledge(d, n(1e5), true));
    const ck = compare(
      [
        parse(path.join(kn.dir, ".autodev", "knowledge.jsonl")),
        cli("knowledge", kn.dir, "--json"),
        cli("knowledge", knBad.dir, "--json"),
      ],
      runs,
    );
    const knBadRatio = median(ck.runs[2].map((r, i) => r.ms / ck.runs[1][i].ms));
    const knowledgeRow: SourceResult = {
      ...againstParse(
        "AutoDev knowledge.jsonl",
        `${kn.entries.toLocaleString("en-US")} lessons`,
        kn,
        ck,
        "JSON.parse per line",
      ),
      rssMB: Math.max(ck.maxRssMB[1], ck.maxRssMB[2]),
      notes: [
        `all lines bad (torn or not a lesson): ${ck.ms[2].toFixed(0)} ms (${knBadRatio.toFixed(2)}× the good file), peak RSS ${ck.maxRssMB[2].toFixed(0)} MB`,
      ],
      extraTargets: [
        {
          label: `knowledge.jsonl of ${kn.entries.toLocaleString("en-US")} lessons read, peak RSS < 300 MB`,
          value: `${Math.max(ck.maxRssMB[1], ck.maxRssMB[2]).toFixed(0)} MB`,
          met: Math.max(ck.maxRssMB[1], ck.maxRssMB[2]) < 300,
        },
        { label: "knowledge bad lines ≤ 2× good ones", value: `${knBadRatio.toFixed(2)}×`, met: knBadRatio <= 2 },
      ],
    };
    // The reader refuses a file over its size limit: then nothing was read, and the time says nothing.
    const refused = (JSON.parse(ck.runs[1][0].stdout) as { errors?: string[] }).errors?.find((e) => /not read/.test(e));
    out.push(
      refused
        ? {
            ...knowledgeRow,
            ratio: null,
            notes: [`NOT READ: ${refused}`],
            extraTargets: knowledgeRow.extraTargets.map((t) => ({ ...t, value: "not read", met: false })),
          }
        : knowledgeRow,
    );
  }
  say("done\n");
  return out;
}
