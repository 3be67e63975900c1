/**
 * `engine_state/` (ADR-0146) as a state source: a mutable checkpoint an engine rewrites at
 * every turn boundary (`manifest.json`, `recognizers.jsonl`, `discovery_candidates.jsonl`).
 * It has no history, so no timeline; it refreshes when the files are replaced and when HEAD
 * moves (the stale-revision warning compares the manifest with HEAD).
 */
import { contractJson } from "../phaseContract";
import { engineStateContract } from "./engineStateContract";
import { CANDIDATES_FILE, MANIFEST_FILE, RECOGNIZERS_FILE, engineStateManifest } from "./engineStateManifest";
import * as path from "node:path";
import type { SourceLocation, StateSource } from "../stateSource";
import { detectEngineState, relativeTo } from "./engineStateLocation";
import { readEngineState } from "./engineStateModel";
import { unreadableKey } from "../sourceProblems";
import { engineStateTree } from "./engineStateTree";
import { headRefSync, locateGitFiles, refFile } from "./gitHead";

/** Workspace-relative paths to watch: the three files, HEAD, the ref HEAD points to, packed-refs, HEAD's reflog. */
function engineStateWatchGlobs(location: SourceLocation): string[] {
  const rel = (file: string): string => relativeTo(location.workspace, file);
  const globs = [MANIFEST_FILE, RECOGNIZERS_FILE, CANDIDATES_FILE].map((name) => rel(path.join(location.dir, name)));
  const git = locateGitFiles(location.workspace);
  if (git !== null) {
    globs.push(rel(path.join(git.gitDir, "HEAD")));
    const ref = headRefSync(git);
    if (ref !== null) globs.push(rel(refFile(git, ref)));
    globs.push(rel(path.join(git.commonDir, "packed-refs")));
    // The reflog of HEAD grows on every move (commit, checkout, reset), whichever branch HEAD is on:
    // hosts may keep the first watch list across a checkout, when HEAD names another branch.
    globs.push(rel(path.join(git.gitDir, "logs", "HEAD")));
  }
  return globs;
}

/** The CLI `sources` summary, in the exact key order. */
async function summarizeEngineState(location: SourceLocation): Promise<Record<string, unknown>> {
  const model = await readEngineState(location);
  return {
    kind: "engine_state",
    path: location.relDir,
    schema_version: model.manifest.schemaVersion,
    turn_count: model.manifest.turnCount,
    written_at_revision: model.manifest.writtenAtRevision,
    head_revision: model.head.sha,
    recognizers: model.recognizers.state === "refused" ? null : model.recognizers.records,
    candidates: model.candidates.state === "refused" ? null : model.candidates.records,
    contract: contractJson(engineStateContract(model)),
    // Files present but not read (only then): `sources` exits 1 for them.
    ...unreadableKey(model.problems.filter((p) => p.code === "unreadable_file" || p.code === "unreadable_folder")),
  };
}

/** The engine_state source. */
export const engineStateSource: StateSource = {
  ...engineStateManifest,
  detect: detectEngineState,
  watchGlobs: engineStateWatchGlobs,
  check: async (location) => (await readEngineState(location)).problems,
  summarize: summarizeEngineState,
  tree: async (location) => engineStateTree(await readEngineState(location)),
  async readView(location) {
    const model = await readEngineState(location);
    return { problems: model.problems, tree: engineStateTree(model), waiting: null };
  },
};
