/**
 * The problems of an AutoDev run beyond the ledger, for the Problems view and
 * `check`: config.json errors at the key's line, an invalid inline-state.json
 * or pending response at its line, spec drift, tournament files that could not
 * be read, a stopped impl tournament's leftover worktrees and a stopped write's temp files
 * (both only while no AutoDev runs in the folder: until then they are its work), skipped knowledge
 * lines. Codes are stable snake_case.
 */
import type { SourceProblem } from "../../stateSource";
import { SPEC_REL } from "./specDrift";
import { INLINE_STATE_REL } from "../inline/inlinePaths";
import { AUTODEV_DIR, KNOWLEDGE_FILE } from "../autodevPaths";
import type { RunState } from "./runState";
import { TOURNAMENTS_REL } from "../tournaments/tournamentIndex";
import { inlineModeProblems } from "./inlineModeProblems";
import { pushAll, standsFor } from "../../sourceProblems";

/** Every run-state problem of `rs`. */
export function runStateProblems(rs: RunState): SourceProblem[] {
  const out: SourceProblem[] = [];
  const running = rs.running.running === true;
  for (const e of rs.config.errors) {
    out.push({
      file: rs.config.file,
      line: e.line,
      severity: "error",
      code: e.path === "(json)" ? "config_invalid_json" : "config_invalid",
      message: `${e.path === "(json)" || e.path === "(file)" ? "" : `${e.path}: `}${e.message} (AutoDev refuses to start with this config.json; fix the value or remove the key)`,
    });
  }
  for (const e of rs.inline.errors) {
    out.push({
      file: INLINE_STATE_REL,
      line: e.line,
      severity: "error",
      code: "inline_state_invalid",
      message: `${e.path}: ${e.message} (autodev resume cannot load this suspend state)`,
    });
  }
  const w = rs.inline.waiting;
  if (w?.response.state === "invalid" && w.response.error) {
    out.push({
      file: w.responsePath,
      line: w.response.error.line,
      severity: "error",
      code: "inline_response_invalid",
      message: `${w.response.error.path}: ${w.response.error.message} (autodev resume will fail to collect this ${w.role} response for ${w.taskId})`,
    });
  }
  if (w?.response.state === "unfilled" && w.response.error) {
    out.push({
      file: w.responsePath,
      line: w.response.error.line,
      severity: "error",
      code: "inline_response_unfilled",
      message: `${w.responsePath} is still the template (${w.response.error.message}): replace every <replace: …> placeholder with the ${w.role}'s answer for ${w.taskId} before autodev resume; Resume Run refuses until then`,
    });
  }
  if (w?.pathNote) {
    out.push({
      file: INLINE_STATE_REL,
      line: null,
      severity: "warning",
      code: "inline_paths_differ",
      message: w.pathNote,
    });
  }
  for (const r of rs.inline.responses) {
    if ((r.state === "invalid" || r.state === "unfilled") && r.error && r.file !== w?.responsePath) {
      out.push({
        file: r.file,
        line: r.error.line,
        severity: "warning",
        code: r.state === "unfilled" ? "inline_response_unfilled" : "inline_response_invalid",
        message: `${r.error.path}: ${r.error.message}`,
      });
    }
  }
  if (rs.spec?.state === "checked" && !rs.spec.matches) {
    out.push({ file: SPEC_REL, line: null, severity: "warning", code: "spec_drift", message: rs.spec.message });
  }
  if (rs.spec?.state === "error") {
    out.push({ file: SPEC_REL, line: null, severity: "warning", code: "spec_unreadable", message: rs.spec.error });
  }
  for (const e of rs.tournamentErrors) {
    out.push({ file: TOURNAMENTS_REL, line: null, severity: "warning", code: "tournament_unreadable", message: e });
  }
  for (const t of rs.tournaments) {
    for (const e of t.errors) {
      out.push({ file: t.dir, line: null, severity: "warning", code: "tournament_unreadable", message: e });
    }
    // While AutoDev runs, an unfinished tournament's worktrees are its work in progress.
    if (t.leftoverWorktrees && !running) {
      const n = t.leftoverWorktrees.length;
      out.push({
        file: `${t.dir}/worktrees`,
        line: null,
        severity: "warning",
        code: "tournament_worktrees_left",
        message:
          `${t.dir}/worktrees/ is left over from an impl tournament that stopped before it finished (AutoDev was ` +
          `killed or crashed; no AutoDev runs in this folder now): ${n} git worktree${n === 1 ? "" : "s"} ` +
          `(${t.leftoverWorktrees.slice(0, 4).join(", ")}${n > 4 ? ", …" : ""}) that git still lists and AutoDev never ` +
          `removes. Remove each with \`git worktree remove --force <path>\`, then delete the folder`,
      });
    }
  }
  if (!running) {
    for (const file of rs.temps) {
      out.push({
        file,
        line: null,
        severity: "warning",
        code: "autodev_temp_left",
        message:
          "a temp file an AutoDev write left when it stopped between writing and renaming it (killed or crashed; no " +
          "AutoDev runs in this folder now). AutoDev never reads or removes it, and the file it was replacing is " +
          "intact. Delete it",
      });
    }
  }
  for (const s of rs.knowledge.skipped) {
    const inWs = s.file.startsWith(`${AUTODEV_DIR}/`);
    const problem: SourceProblem = {
      file: inWs ? s.file : `${AUTODEV_DIR}/${KNOWLEDGE_FILE}`,
      line: inWs ? s.line : null,
      severity: "warning",
      code: "knowledge_line_skipped",
      message: inWs
        ? `line skipped by AutoDev too: ${s.reason}`
        : `${s.file} line ${s.line} skipped by AutoDev too: ${s.reason}`,
    };
    // The reader's "and N more lines" entry stands for N lines: a collector past its cap counts N, not 1.
    out.push(s.more === undefined ? problem : standsFor(problem, s.more));
  }
  pushAll(out, inlineModeProblems(rs));
  for (const e of rs.knowledge.errors) {
    out.push({
      file: `${AUTODEV_DIR}/${KNOWLEDGE_FILE}`,
      line: null,
      severity: "warning",
      code: "knowledge_unreadable",
      message: e,
    });
  }
  return out;
}
