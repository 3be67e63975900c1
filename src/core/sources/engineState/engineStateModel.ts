/**
 * One read of an `engine_state/` checkpoint: the manifest, both JSONL files, HEAD, and every
 * problem in file then line order. `check`, `summarize` and `tree` all derive from it.
 */
import * as path from "node:path";
import { ProblemCollector, sortProblems } from "../sourceProblems";
import type { SourceLocation, SourceProblem } from "../stateSource";
import { inspectEngineStateDir, type EngineStateLocation } from "./engineStateLocation";
import { CANDIDATES_FILE, MANIFEST_FILE, RECOGNIZERS_FILE } from "./engineStateManifest";
import { readGitHead, type GitHead } from "./gitHead";
import { checkJsonlFile, type JsonlFileModel } from "./jsonlCheck";
import { checkManifest, NO_MANIFEST, staleReason, type ManifestInfo } from "./manifestCheck";
import { candidateView, duplicateCandidateIds, recognizerView } from "./recordViews";

/** Everything read from one checkpoint folder. */
export interface EngineStateModel {
  readonly location: SourceLocation;
  /** Workspace-relative paths of the three files. */
  readonly files: { readonly manifest: string; readonly recognizers: string; readonly candidates: string };
  readonly manifest: ManifestInfo;
  readonly head: GitHead;
  /** Why the checkpoint is stale, or null. */
  readonly stale: string | null;
  readonly recognizers: JsonlFileModel;
  readonly candidates: JsonlFileModel;
  /** Why the folder was not read at all, or null. */
  readonly refusal: string | null;
  readonly problems: readonly SourceProblem[];
}

const NOT_READ: JsonlFileModel = { state: "missing", records: 0, entries: [], omitted: 0 };

/** Reads the checkpoint at `location` (never throws for bad data; links out and FIFOs are refused). */
export async function readEngineState(location: SourceLocation): Promise<EngineStateModel> {
  const rel = (name: string): string => (location.relDir === "." ? name : `${location.relDir}/${name}`);
  const files = { manifest: rel(MANIFEST_FILE), recognizers: rel(RECOGNIZERS_FILE), candidates: rel(CANDIDATES_FILE) };
  const problems = new ProblemCollector(); // at most PROBLEMS_PER_FILE per file: a million bad lines are counted, not listed
  const head = await readGitHead(location.workspace);
  const given = (location as EngineStateLocation).refusal;
  const inspected = given === undefined ? await inspectEngineStateDir(location.workspace, location.dir) : null;
  const refusal =
    given ??
    (inspected?.kind === "refused"
      ? inspected.reason
      : inspected?.kind === "not_folder"
        ? `${location.relDir} is not a folder`
        : null);
  if (refusal !== null) {
    problems.push({
      file: location.relDir,
      line: null,
      severity: "error",
      code: "unreadable_folder",
      message: `The engine_state folder is not read: ${refusal}. Point autodev.engineStateDir at a folder inside the workspace.`,
    });
    return {
      location,
      files,
      manifest: NO_MANIFEST,
      head,
      stale: null,
      recognizers: NOT_READ,
      candidates: NOT_READ,
      refusal,
      problems: problems.result(),
    };
  }
  const at = (name: string): string => path.join(location.dir, name);
  const manifest = await checkManifest(at(MANIFEST_FILE), files.manifest, location.workspace, problems);
  const stale = staleReason(manifest, head.sha);
  if (stale !== null) {
    problems.push({
      file: files.manifest,
      line: manifest.revisionLine,
      severity: "warning",
      code: "stale_revision",
      message: `The checkpoint is stale: ${stale}. The writer loads it anyway (a reboot is recovery); clear ${location.relDir}/ if the engine behaves unexpectedly.`,
    });
  }
  const recognizers = await checkJsonlFile(at(RECOGNIZERS_FILE), files.recognizers, location.workspace, problems, {
    view: recognizerView,
  });
  const candidates = await checkJsonlFile(at(CANDIDATES_FILE), files.candidates, location.workspace, problems, {
    visit: duplicateCandidateIds(files.candidates),
    view: candidateView,
  });
  return {
    location,
    files,
    manifest,
    head,
    stale,
    recognizers,
    candidates,
    refusal: null,
    problems: sortProblems(problems.result()),
  };
}
