/**
 * A tournament's passes as the tree, the documents and the CLI describe them: each pass entry of
 * `history.json` or a `pass_NN/result.json` understood as far as it can be (winner, scores, judges,
 * convergence), and their one-line summaries. Pure: tournamentStore.ts reads the files.
 */
import type * as PassSchemas from "./tournamentPassSchemas";
import { dumpsIndent2 } from "../../../pyjson/pyJsonDump";
import { PyFloat, PyValue, isPyObject } from "../../../pyjson/pyValue";

/** One pass of a tournament, as far as it could be understood. */
export interface TournamentPass {
  readonly n: number | null;
  readonly winner: string | null;
  readonly converged: boolean | null;
  /** Candidate → score. */
  readonly scores: ReadonlyArray<readonly [string, number]>;
  /** Each judge's scores per candidate. */
  readonly judges: ReadonlyArray<{ readonly name: string; readonly scores: ReadonlyArray<readonly [string, number]> }>;
  readonly notes: readonly string[];
  /** True when at least a winner, scores or judges were recognised. */
  readonly known: boolean;
  /** The entry as written (indent-2 JSON). */
  readonly rawJson: string;
}

/** A Python JSON value as plain JS (dicts as null-prototype objects, floats as numbers). */
export function pyToPlain(v: PyValue): unknown {
  if (v instanceof PyFloat) return v.value;
  if (typeof v === "bigint") return Number(v);
  if (Array.isArray(v)) return v.map(pyToPlain);
  if (isPyObject(v)) {
    const o: Record<string, unknown> = Object.create(null);
    for (const [k, x] of v) o[k] = pyToPlain(x);
    return o;
  }
  return v;
}

let schemas: typeof PassSchemas | undefined;
/** The loose schemas, loaded on first use: the extension host loads this module for the tree's words, not zod. */
function passSchemas(): typeof PassSchemas {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (schemas ??= require("./tournamentPassSchemas") as typeof PassSchemas);
}
const NAME_KEYS = new Set(["judge", "name", "id", "scores"]);

function judgesOf(raw: unknown): Array<{ name: string; scores: Array<[string, number]> }> {
  const out: Array<{ name: string; scores: Array<[string, number]> }> = [];
  const one = (fallback: string, j: unknown) => {
    const p = passSchemas().JudgeSchema.safeParse(j);
    if (!p.success) return;
    const scores =
      p.data.scores ??
      passSchemas()
        .numericEntries(j)
        .filter(([k]) => !NAME_KEYS.has(k));
    out.push({ name: p.data.judge ?? p.data.name ?? p.data.id ?? fallback, scores });
  };
  if (Array.isArray(raw)) raw.forEach((j, i) => one(`judge ${i + 1}`, j));
  else if (raw && typeof raw === "object") for (const [k, j] of Object.entries(raw)) one(k, j);
  return out;
}

/** Understands one pass entry (of history.json, a result.json, or the evidence's `history`) as far as possible. */
export function describePass(raw: PyValue, fallbackN: number | null): TournamentPass {
  const rawJson = dumpsIndent2(raw);
  const plain = pyToPlain(raw);
  const p = passSchemas().PassSchema.safeParse(plain);
  if (!p.success) {
    return { n: fallbackN, winner: null, converged: null, scores: [], judges: [], notes: [], known: false, rawJson };
  }
  const d = p.data;
  const judges = judgesOf(d.judges);
  const notes =
    d.notes === undefined
      ? []
      : (Array.isArray(d.notes) ? d.notes : [d.notes]).map((x) => (typeof x === "string" ? x : JSON.stringify(x)));
  const scores = d.scores ?? [];
  return {
    n: d.pass_num ?? d.pass ?? d.round ?? d.pass_number ?? fallbackN,
    winner: d.winner ?? null,
    converged: d.converged ?? null,
    scores,
    judges,
    notes,
    known: d.winner !== undefined || scores.length > 0 || judges.length > 0,
    rawJson,
  };
}

/** "A 0.61 · B 0.39" */
export function formatScores(scores: ReadonlyArray<readonly [string, number]>): string {
  return scores.map(([k, v]) => `${k} ${Math.round(v * 1000) / 1000}`).join(" · ");
}

/** "pass 2: AB won (A 0.5 · AB 0.5), converged" */
export function passSummary(p: TournamentPass): string {
  const head = p.n === null ? "pass" : `pass ${p.n}`;
  if (!p.known) return `${head}: unrecognised entry`;
  const parts = [p.winner ? `${p.winner} won` : "no winner recorded"];
  if (p.scores.length) parts[0] += ` (${formatScores(p.scores)})`;
  if (p.judges.length) parts.push(`${p.judges.length} judge${p.judges.length === 1 ? "" : "s"}`);
  if (p.converged) parts.push("converged");
  return `${head}: ${parts.join(", ")}`;
}
