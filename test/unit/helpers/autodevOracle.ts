/**
 * Test helpers for the `.autodev/` readers: the python-full fixture (copied to a temp folder,
 * with its hive home) and the real AutoDev's answers to the differential tests' questions
 * (test/python/oracles/autodev_oracle.py, which asks AutoDev's own modules: `AutodevConfig`,
 * `InlineResponseFile`, `InlineSuspendState`, `KnowledgeStore`). With AUTODEV_PY_SRC set (an
 * AutoDev checkout; AUTODEV_PYTHON the Python that has its dependencies) the real modules answer
 * live, and with AUTODEV_RECORD_ORACLE=1 too their answers are recorded in
 * test/fixtures/autodev-oracle/answers.json. Without AUTODEV_PY_SRC (CI) the recorded answers are
 * the oracle: a question with no recorded answer fails the test, saying how to record it. No test
 * checks against our own reading of AutoDev.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT, copyFixture } from "../fixtures";

/** A temp copy of test/fixtures/python-full: the workspace and the home folder holding the hive. */
export function copyFullFixture(): { root: string; ws: string; home: string } {
  const root = copyFixture("python-full");
  return { root, ws: path.join(root, "workspace"), home: path.join(root, "home") };
}

/** The recorded answers of the real AutoDev, by the sha256 of the question's JSON. */
export const ORACLE_ANSWERS = path.join(REPO_ROOT, "test/fixtures/autodev-oracle/answers.json");

/** Who answered the last batch: the real AutoDev live, or its recorded answers. */
export let oracleKind: "real" | "recorded" | "" = "";

interface AnswerBook {
  readonly autodev: string;
  readonly answers: Record<string, unknown>;
}

function keyOf(request: object): string {
  return createHash("sha256").update(JSON.stringify(request)).digest("hex");
}

function readBook(): AnswerBook {
  return JSON.parse(fs.readFileSync(ORACLE_ANSWERS, "utf8")) as AnswerBook;
}

/** Asks the real AutoDev modules through test/python/oracles/autodev_oracle.py. */
function askLive(requests: readonly object[]): unknown[] {
  const script = path.join(REPO_ROOT, "test/python/oracles/autodev_oracle.py");
  const r = spawnSync(process.env.AUTODEV_PYTHON ?? "python3", [script], {
    input: requests.map((q) => JSON.stringify(q)).join("\n") + "\n",
    encoding: "utf8",
    timeout: 120_000,
    env: process.env,
  });
  if (r.status !== 0) throw new Error(`autodev_oracle.py failed (${r.status}): ${r.stderr}`);
  const lines = r.stdout.trim().split("\n");
  const kind = (JSON.parse(lines[0]) as { oracle: string }).oracle;
  if (kind !== "real") throw new Error(`autodev_oracle.py answered as ${kind}, not the real AutoDev`);
  const out = lines.slice(1).map((l) => JSON.parse(l) as unknown);
  if (out.length !== requests.length) throw new Error(`oracle answered ${out.length} of ${requests.length}`);
  return out;
}

/** Records answers into the book (sorted keys, so a re-recording diffs cleanly). */
function record(requests: readonly object[], answers: readonly unknown[]): void {
  const book = fs.existsSync(ORACLE_ANSWERS) ? readBook() : { autodev: "", answers: {} };
  const all: Record<string, unknown> = { ...book.answers };
  requests.forEach((q, i) => (all[keyOf(q)] = answers[i]));
  const sorted = Object.fromEntries(
    Object.keys(all)
      .sort()
      .map((k) => [k, all[k]]),
  );
  const autodev = process.env.AUTODEV_ORACLE_VERSION ?? book.autodev;
  fs.mkdirSync(path.dirname(ORACLE_ANSWERS), { recursive: true });
  fs.writeFileSync(ORACLE_ANSWERS, JSON.stringify({ autodev, answers: sorted }, null, 1) + "\n");
}

/** The real AutoDev's answers to `requests`, in order (live with AUTODEV_PY_SRC, else recorded). */
export function askOracle<T = Record<string, unknown>>(requests: readonly object[]): T[] {
  if (process.env.AUTODEV_PY_SRC) {
    const out = askLive(requests);
    if (process.env.AUTODEV_RECORD_ORACLE === "1") record(requests, out);
    oracleKind = "real";
    return out as T[];
  }
  const book = readBook();
  const missing = requests.filter((q) => !(keyOf(q) in book.answers));
  if (missing.length > 0) {
    throw new Error(
      `${missing.length} of ${requests.length} questions have no answer of the real AutoDev in ${path.relative(REPO_ROOT, ORACLE_ANSWERS)} (first: ${JSON.stringify(missing[0]).slice(0, 200)}); record them: AUTODEV_PY_SRC=<AutoDev checkout> AUTODEV_PYTHON=<its venv python> AUTODEV_RECORD_ORACLE=1 npm run test:one -- <this test file>`,
    );
  }
  oracleKind = "recorded";
  return requests.map((q) => book.answers[keyOf(q)] as T);
}

/** The only `plan-*` / `impl-*` tournament folder name of the fixture. */
export function tournamentId(ws: string, phase: "plan" | "impl"): string {
  const ids = fs.readdirSync(path.join(ws, ".autodev/tournaments")).filter((n) => n.startsWith(`${phase}-`));
  if (ids.length !== 1) throw new Error(`expected one ${phase} tournament, found ${ids.join(", ")}`);
  return ids[0];
}
