/**
 * engine_state has no phases (ADR-0146, seed 004): one checkpoint, overwritten at every turn
 * boundary by `ChatRuntime.checkpoint_engine_state`, loaded by `load_engine_state` at startup unless
 * `--no-load-state`; a missing folder is a clean slate, not an error. So its contract has one state
 * and no transitions to check: what applies is the evidence (the three files) and the re-entry point
 * (the turn a restart resumes from). No problem codes come from it; the manifest checks stay the
 * source's own.
 */
import type { ContractView } from "../phaseContract";
import { shortId } from "../../text/displayText";
import type { EngineStateModel } from "./engineStateModel";

const SOURCE = "ADR-0146 (seed 004), Checkpoint Protocol and File Operations";

/** The contract view of one engine_state read. */
export function engineStateContract(model: EngineStateModel): ContractView {
  const m = model.manifest;
  const checkpointed = m.state === "ok";
  const turn = m.turnCount === null ? "an unknown turn" : `turn ${m.turnCount}`;
  const at = m.writtenAtRevision ? ` written at ${shortId(m.writtenAtRevision, 12)}` : "";
  const reentry = checkpointed
    ? `a restart loads the checkpoint of ${turn}${at}${model.stale ? " (not HEAD: it warns and loads it anyway)" : ""}; --no-load-state starts clean`
    : "a restart starts from a clean slate (no checkpoint yet)";
  return {
    phase: checkpointed ? "checkpointed" : "clean slate",
    task: null,
    preconditions: [
      {
        what: "the manifest's schema_version is one the loader reads",
        met: !m.schemaUnsupported,
        file: model.files.manifest,
      },
    ],
    evidence: [
      { what: "the manifest", file: model.files.manifest, line: checkpointed ? 1 : null, present: checkpointed },
      {
        what: "the recognizers",
        file: model.files.recognizers,
        line: model.recognizers.state === "read" ? 1 : null,
        present: model.recognizers.state === "read",
      },
      {
        what: "the discovery candidates",
        file: model.files.candidates,
        line: model.candidates.state === "read" ? 1 : null,
        present: model.candidates.state === "read",
      },
    ],
    next: ["checkpointed"],
    reentry,
    reentryClear: model.refusal === null,
    source: SOURCE,
  };
}
