/**
 * The source-generic subcommands of `autodev-state`: `check` (every problem
 * of every state folder found in DIR) and `sources` (each one's summary).
 * Both walk STATE_SOURCES, so a new source needs no change here.
 */
import { ParsedArgs, withOptionalDir } from "./cliArgs";
import { eprintln, printJson, println } from "./cliOutput";
import { requireDir } from "./cliArgs";
import { STATE_SOURCES } from "../core/sources/sourceRegistry";
import { detectSources, SourceCheckJson, sourceCheckJson } from "../core/sources/sourceCheck";
import { errorText } from "../core/text/errorText";
import { StateSource } from "../core/sources/stateSource";

/** The `check --json` document. */
export interface CheckJson {
  readonly ok: boolean;
  readonly sources: SourceCheckJson[];
}

/** The `check` document for `dir`, or null when `dir` holds no source. */
export async function checkDir(
  dir: string,
  sources: readonly StateSource[] = STATE_SOURCES,
): Promise<CheckJson | null> {
  const found = await detectSources(dir, sources);
  if (found.length === 0) return null;
  const out: SourceCheckJson[] = [];
  for (const { source, location } of found) out.push(await sourceCheckJson(source, location));
  return { ok: out.every((s) => s.ok), sources: out };
}

/** The `sources` document for `dir` (one summary per source), or null when `dir` holds no source. */
export async function summarizeDir(
  dir: string,
  sources: readonly StateSource[] = STATE_SOURCES,
): Promise<Record<string, unknown>[] | null> {
  const found = await detectSources(dir, sources);
  if (found.length === 0) return null;
  const out: Record<string, unknown>[] = [];
  for (const { source, location } of found) {
    try {
      out.push({ ...(await source.summarize(location)), kind: source.kind, path: location.relDir });
    } catch (e) {
      out.push({ kind: source.kind, path: location.relDir, error: errorText(e) });
    }
  }
  // `kind` and `path` first, whatever the summary's own key order.
  return out.map(({ kind, path, ...rest }) => ({ kind, path, ...rest }));
}

/** Says DIR holds no state folder (stderr) and returns exit code 2. */
export function noSource(dir: string, sources: readonly StateSource[]): number {
  eprintln(
    `autodev-state: no state folder in ${dir} (known sources: ${sources.map((s) => s.displayName).join(", ")}). Run it in the repository root, or pass DIR.`,
  );
  return 2;
}

/** `check [DIR] [--json]`: exit 0 when no error, 1 when any, 2 when DIR holds no source. */
export async function cmdCheck(args: ParsedArgs, sources: readonly StateSource[] = STATE_SOURCES): Promise<number> {
  const { dir } = withOptionalDir(args.positionals, []);
  requireDir(dir);
  const doc = await checkDir(dir, sources);
  if (!doc) return noSource(dir, sources);
  if (args.switches.has("json")) printJson(doc);
  else {
    for (const s of doc.sources) {
      const errors = s.problems.filter((p) => p.severity === "error").length;
      println(
        `${s.kind} ${s.path}: ${s.ok ? "ok" : "BROKEN"} (${errors} error${errors === 1 ? "" : "s"}, ${s.problems.length - errors} other)`,
      );
      for (const p of s.problems) {
        println(`  ${p.file}${p.line !== null ? `:${p.line}` : ""}: ${p.severity} ${p.code}: ${p.message}`);
      }
    }
  }
  return doc.ok ? 0 : 1;
}

/** True when a summary says something present could not be read (`error`, or a non-empty `unreadable`). */
function summaryFailed(s: Record<string, unknown>): boolean {
  return s.error !== undefined || (Array.isArray(s.unreadable) && s.unreadable.length > 0);
}

/** `sources [DIR] [--json]`: each source found in DIR with its summary; exit 1 when one could not be read, 2 when none. */
export async function cmdSources(args: ParsedArgs, sources: readonly StateSource[] = STATE_SOURCES): Promise<number> {
  const { dir } = withOptionalDir(args.positionals, []);
  requireDir(dir);
  const doc = await summarizeDir(dir, sources);
  if (!doc) return noSource(dir, sources);
  if (args.switches.has("json")) printJson(doc);
  else {
    for (const s of doc) {
      const extra = Object.entries(s)
        .filter(([k, v]) => k !== "kind" && k !== "path" && (v === null || typeof v !== "object"))
        .map(([k, v]) => `${k}=${String(v)}`);
      const lists = Object.entries(s)
        .filter(([k, v]) => Array.isArray(v) && k !== "unreadable")
        .map(([k, v]) => `${(v as unknown[]).length} ${k}`);
      println(`${s.kind} ${s.path}: ${[...extra, ...lists].join(" · ")}`);
      for (const u of Array.isArray(s.unreadable) ? (s.unreadable as unknown[]) : []) {
        println(`  not read: ${String(u)}`);
      }
    }
  }
  return doc.some(summaryFailed) ? 1 : 0;
}
