/**
 * Test helpers for the `.autodev/` readers: the python-full fixture (copied to a temp folder,
 * with its hive home) and test/python/autodev_oracle.py answering in batch. The oracle uses
 * the real AutoDev modules when AUTODEV_PY_SRC points at a clone, else its own reproduction;
 * `oracleKind` says which. Fails (never skips) without python3 + pydantic.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT, copyFixture } from "../fixtures";

/** A temp copy of test/fixtures/python-full: the workspace and the home folder holding the hive. */
export function copyFullFixture(): { root: string; ws: string; home: string } {
  const root = copyFixture("python-full");
  return { root, ws: path.join(root, "workspace"), home: path.join(root, "home") };
}

/** Which oracle answered the last batch ("real" or "reproduction"). */
export let oracleKind = "";

/** Sends requests to test/python/autodev_oracle.py and returns its answers, in order. */
export function askOracle<T = Record<string, unknown>>(requests: readonly object[]): T[] {
  const script = path.join(REPO_ROOT, "test/python/autodev_oracle.py");
  if (!fs.existsSync(script)) throw new Error(`${script} not found`);
  const r = spawnSync("python3", [script], {
    input: requests.map((q) => JSON.stringify(q)).join("\n") + "\n",
    encoding: "utf8",
    timeout: 120_000,
    env: process.env,
  });
  if (r.status !== 0) throw new Error(`autodev_oracle.py failed (${r.status}): ${r.stderr}`);
  const lines = r.stdout.trim().split("\n");
  oracleKind = (JSON.parse(lines[0]) as { oracle: string }).oracle;
  const out = lines.slice(1).map((l) => JSON.parse(l) as T);
  if (out.length !== requests.length) throw new Error(`oracle answered ${out.length} of ${requests.length}`);
  return out;
}

/** The only `plan-*` / `impl-*` tournament folder name of the fixture. */
export function tournamentId(ws: string, phase: "plan" | "impl"): string {
  const ids = fs.readdirSync(path.join(ws, ".autodev/tournaments")).filter((n) => n.startsWith(`${phase}-`));
  if (ids.length !== 1) throw new Error(`expected one ${phase} tournament, found ${ids.join(", ")}`);
  return ids[0];
}
