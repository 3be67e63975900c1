/**
 * The demo's tournaments, written as Python AutoDev's tournament engine writes
 * them (`tournament/core.py` `Tournament.run`, `tournament/state.py`
 * `TournamentArtifactStore`): `initial_a.md`, `pass_NN/{version_a,critic,
 * version_b,version_ab}.md` and `result.json` (a `PassResult` dump),
 * `incumbent_after_NN.md` after each pass A lost, then `final_output.md` and
 * `history.json`. Winners come from the judges' rankings by Python's Borda
 * count with the tie going to A; the loop stops after `convergence_k` passes
 * in a row kept A, or at `max_rounds`. JSON is `json.dumps(obj, indent=2,
 * ensure_ascii=False) + "\n"` (the demo's tournament text is ASCII, which the
 * writer checks, so Python's escaping rules never come into it).
 */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { pyJsonDumps } from "../core/pyjson/pyJsonDump";
import { PyFloat } from "../core/pyjson/pyValue";
import { toPyDeep } from "../core/pyjson/toPyDeep";

/** A pass winner, as Python labels the three candidates. */
export type DemoLabel = "A" | "B" | "AB";

/** One candidate of a tournament: its Markdown as written to disk and the text its hash is taken over. */
export interface DemoVariant {
  readonly markdown: string;
  readonly hashInput: string;
  /** An impl candidate's diff (the evidence's `final_diff` when it wins). */
  readonly diff?: string;
}

/** One scripted pass: the critic's text, the two challengers, each judge's ranking (best first; null: no RANKING line). */
interface DemoPassScript {
  readonly critic: string;
  readonly b: DemoVariant;
  readonly ab: DemoVariant;
  readonly rankings: ReadonlyArray<readonly DemoLabel[] | null>;
}

/** A whole tournament to write. */
export interface DemoTournamentScript {
  readonly id: string;
  readonly phase: "plan" | "impl";
  readonly convergenceK: number;
  readonly maxRounds: number;
  readonly initial: DemoVariant;
  readonly passes: readonly DemoPassScript[];
  /** `time.time()` when the first pass ended; later passes follow a few seconds apart. */
  readonly startedAt: number;
}

/** What the run produced: the pass dumps (as in history.json) and the result the runners log and record. */
export interface DemoTournamentResult {
  readonly history: Array<Record<string, unknown>>;
  readonly winnerLast: DemoLabel;
  readonly converged: boolean;
  readonly final: DemoVariant;
}

const LABELS: readonly DemoLabel[] = ["A", "B", "AB"];

/** `hashlib.sha256(text.encode()).hexdigest()[:16]`, the content handlers' `hash`. */
export function shortHash(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex").slice(0, 16);
}

/** Python's `aggregate_rankings` with the conservative tiebreak: `(winner, scores, valid judges)`. */
export function bordaWinner(rankings: ReadonlyArray<readonly DemoLabel[] | null>): {
  winner: DemoLabel;
  scores: Record<DemoLabel, number>;
  valid: number;
} {
  const scores: Record<DemoLabel, number> = { A: 0, B: 0, AB: 0 };
  const valid = rankings.filter((r): r is readonly DemoLabel[] => r !== null);
  for (const ranking of valid) ranking.forEach((label, pos) => (scores[label] += LABELS.length - pos));
  const priority = (l: DemoLabel) => (l === "A" ? 0 : LABELS.indexOf(l) + 1);
  const winner = [...LABELS].sort((x, y) => scores[y] - scores[x] || priority(x) - priority(y))[0];
  return { winner, scores, valid: valid.length };
}

/** A judge's display order (position → label), rotated per judge and pass so no candidate keeps a slot. */
function displayOrder(pass: number, judge: number): Record<string, DemoLabel> {
  const orders: DemoLabel[][] = [
    ["B", "AB", "A"],
    ["AB", "A", "B"],
    ["A", "B", "AB"],
    ["B", "A", "AB"],
    ["AB", "B", "A"],
    ["A", "AB", "B"],
  ];
  const order = orders[(pass * 2 + judge) % orders.length];
  return { "1": order[0], "2": order[1], "3": order[2] };
}

/** The judge detail `_run_judges` records: canonical ranking, display order, raw response. */
function judgeDetail(pass: number, judge: number, ranking: readonly DemoLabel[] | null): Record<string, unknown> {
  const order = displayOrder(pass, judge);
  const position = (l: DemoLabel) => Object.keys(order).find((k) => order[k] === l)!;
  if (ranking === null) {
    return {
      ranking: null,
      order,
      raw_response: "All three proposals look reasonable; I cannot pick one without running them.",
    };
  }
  const best = position(ranking[0]);
  return {
    ranking: [...ranking],
    order,
    raw_response: `Proposal ${best} is the most complete and keeps the interface stable.\nRANKING: ${ranking.map(position).join(", ")}`,
  };
}

/** `json.dumps(obj, indent=2, ensure_ascii=False) + "\n"`, for ASCII content. */
function pyJsonIndent2(obj: unknown): string {
  const text = pyJsonDumps(toPyDeep(obj), { indent: 2 }) + "\n";
  if (/\\u[0-9a-f]{4}/.test(text)) {
    throw new Error("demo tournament JSON must be ASCII (ensure_ascii=False would write it raw)");
  }
  return text;
}

function write(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

/** Plays `script` and writes its artifact folder `dir` as `TournamentArtifactStore` does; throws on a script Python could not produce. */
export function writeDemoTournament(dir: string, script: DemoTournamentScript): DemoTournamentResult {
  write(path.join(dir, "initial_a.md"), script.initial.markdown);
  let incumbent = script.initial;
  let streak = 0;
  const history: Array<Record<string, unknown>> = [];
  script.passes.forEach((p, i) => {
    const passNum = i + 1;
    if (passNum > script.maxRounds || streak >= script.convergenceK) {
      throw new Error(`${script.id}: pass ${passNum} after the tournament ended`);
    }
    const { winner, scores, valid } = bordaWinner(p.rankings);
    const chosen = { A: incumbent, B: p.b, AB: p.ab }[winner];
    const result = {
      pass_num: passNum,
      winner,
      scores,
      valid_judges: valid,
      elapsed_s: new PyFloat(31.417 + 7.3 * i),
      judge_details: p.rankings.map((r, j) => judgeDetail(passNum, j, r)),
      incumbent_hash_before: shortHash(incumbent.hashInput),
      incumbent_hash_after: shortHash(chosen.hashInput),
      meta:
        script.phase === "impl"
          ? { timestamp: new PyFloat(script.startedAt + 38.5 * i), phase: "impl" }
          : { timestamp: new PyFloat(script.startedAt + 38.5 * i) },
    };
    const pdir = path.join(dir, `pass_${String(passNum).padStart(2, "0")}`);
    write(path.join(pdir, "version_a.md"), incumbent.markdown);
    write(path.join(pdir, "critic.md"), p.critic);
    write(path.join(pdir, "version_b.md"), p.b.markdown);
    write(path.join(pdir, "version_ab.md"), p.ab.markdown);
    write(path.join(pdir, "result.json"), pyJsonIndent2(result));
    history.push(result);
    if (winner === "A") streak += 1;
    else {
      streak = 0;
      incumbent = chosen;
      write(path.join(dir, `incumbent_after_${String(passNum).padStart(2, "0")}.md`), incumbent.markdown);
    }
  });
  if (streak < script.convergenceK && script.passes.length < script.maxRounds) {
    throw new Error(`${script.id}: stops before converging or reaching max_rounds`);
  }
  write(path.join(dir, "final_output.md"), incumbent.markdown);
  write(path.join(dir, "history.json"), pyJsonIndent2(history));
  const winnerLast = (history.length ? history[history.length - 1].winner : "A") as DemoLabel;
  // impl_tournament_runner's rule: fewer passes than max_rounds, or the last k passes kept A.
  const converged = script.passes.length < script.maxRounds || streak >= script.convergenceK;
  return { history, winnerLast, converged, final: incumbent };
}

/** The fields of an `ImplBundle` that `ImplContentHandler.render_as_markdown` and `hash` use. */
export interface DemoImplBundle {
  readonly taskId: string;
  readonly label: DemoLabel;
  readonly files: readonly string[];
  readonly tests: readonly [passed: number, failed: number];
  readonly description: string;
  readonly notes?: string;
  readonly diff: string;
}

/** An impl candidate: `render_as_markdown` and `hash` (`variant_label + "\n" + diff`) of `ImplContentHandler`. */
export function implVariant(b: DemoImplBundle): DemoVariant {
  const [passed, failed] = b.tests;
  const results = `RESULTS: passed=${passed} failed=${failed} total=${passed + failed}`;
  const parts = [
    `# ImplBundle ${b.label}`,
    "",
    `- task_id: ${b.taskId}`,
    `- variant_label: ${b.label}`,
    `- files_changed: ${b.files.join(", ") || "(none)"}`,
  ];
  parts.push(
    `- tests: passed=${passed} failed=${failed} total=${passed + failed}`,
    "",
    "## Task description",
    "",
    b.description || "(empty)",
    "",
  );
  if (b.notes) parts.push("## Notes", "", b.notes, "");
  parts.push(
    "## Diff",
    "",
    "```diff",
    b.diff || "(empty)",
    "```",
    "",
    "## Test output (excerpt)",
    "",
    "```",
    results,
    "```",
    "",
  );
  return { markdown: parts.join("\n"), hashInput: `${b.label}\n${b.diff}`, diff: b.diff };
}

/** A plan candidate: the plan Markdown, hashed as a whole (`PlanContentHandler.hash`). */
export function planVariant(markdown: string): DemoVariant {
  return { markdown, hashInput: markdown };
}
