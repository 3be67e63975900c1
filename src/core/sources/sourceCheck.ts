/**
 * The state sources found in a folder, and one source's check as a JSON document: what the CLI's
 * `check --json` and the language-model tool `autodev_state_check` both give for each (kind,
 * path, ok, and the problems with file and line), so the two say the same of the same folder.
 */
import { capProblems, problemsOk } from "./sourceProblems";
import { STATE_SOURCES } from "./sourceRegistry";
import type { SourceLocation, SourceProblem, StateSource } from "./stateSource";
import { errorText } from "../text/errorText";

/** One problem in a check document. */
export interface ProblemJson {
  readonly file: string;
  readonly line: number | null;
  readonly severity: string;
  readonly code: string;
  readonly message: string;
}

/** One source's entry in a check document. */
export interface SourceCheckJson {
  readonly kind: string;
  readonly path: string;
  readonly ok: boolean;
  readonly problems: ProblemJson[];
}

/** Every source of `sources` found in `dir`, in registration order. */
export async function detectSources(
  dir: string,
  sources: readonly StateSource[] = STATE_SOURCES,
): Promise<{ source: StateSource; location: SourceLocation }[]> {
  const out: { source: StateSource; location: SourceLocation }[] = [];
  for (const source of sources) {
    const location = await source.detect(dir);
    if (location) out.push({ source, location });
  }
  return out;
}

/** A source's problems, at most PROBLEMS_PER_FILE per file; a check that throws is one `check_failed` problem. */
async function problemsOf(source: StateSource, location: SourceLocation): Promise<readonly SourceProblem[]> {
  try {
    return capProblems(await source.check(location));
  } catch (e) {
    return [
      {
        file: location.relDir,
        line: null,
        severity: "error",
        code: "check_failed",
        message: `the ${source.displayName} check stopped: ${errorText(e)}`,
      },
    ];
  }
}

/** The check document of the source at `location`: ok when no problem is an error. */
export async function sourceCheckJson(source: StateSource, location: SourceLocation): Promise<SourceCheckJson> {
  const problems = await problemsOf(source, location);
  return {
    kind: source.kind,
    path: location.relDir,
    ok: problemsOk(problems),
    problems: problems.map((p) => ({
      file: p.file,
      line: p.line,
      severity: p.severity,
      code: p.code,
      message: p.message,
    })),
  };
}
