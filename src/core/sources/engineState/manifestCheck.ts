/**
 * `manifest.json` read as the writer's loader reads it (`read_text().strip()`; empty means
 * "no manifest"; `json.loads`; `schema_version` defaults to 0 and must be an int no newer
 * than 1, else the loader refuses the checkpoint), plus the ADR's stale-revision warning.
 */
import { decodeUtf8Strict } from "../../text/utf8";
import { pyStrip } from "../../pyjson/pyBuiltins";
import { parsePyJson, PyJsonError } from "../../pyjson/pyJsonParse";
import { isPyObject, PyFloat, type PyObject, type PyValue } from "../../pyjson/pyValue";
import { displayValue } from "../../text/displayText";
import { canonicalDump } from "./canonicalJsonLine";
import { readGuarded } from "../../fs/guardedOpen";
import { refusalReason } from "./refusalReason";
import type { ProblemSink } from "../sourceProblems";

/** The newest `schema_version` the writer (AssetOverflow/core 0b19e083) loads. */
const SUPPORTED_SCHEMA_VERSION = 1;
/** Largest manifest read (the writer's is under 100 bytes). */
const MAX_MANIFEST_BYTES = 1 << 20;

/** The manifest as far as it could be read. */
export interface ManifestInfo {
  /** missing: no file; empty: blank (the loader's "no manifest"); invalid: unreadable or not an object. */
  readonly state: "missing" | "empty" | "ok" | "invalid";
  /** `schema_version` when it is an int (a bool counts, as in Python), else null. */
  readonly schemaVersion: number | null;
  /** `schema_version` as written (canonical JSON), or null when absent. */
  readonly schemaVersionText: string | null;
  /** True when the loader refuses this schema version. */
  readonly schemaUnsupported: boolean;
  readonly turnCount: number | null;
  readonly turnCountText: string | null;
  /** `written_at_revision` when it is a string; null when absent or not a string. */
  readonly writtenAtRevision: string | null;
  readonly writtenAtRevisionText: string | null;
  /** 1-based line of the `written_at_revision` key, or null. */
  readonly revisionLine: number | null;
}

/** The manifest of a folder without one. */
export const NO_MANIFEST: ManifestInfo = {
  state: "missing",
  schemaVersion: null,
  schemaVersionText: null,
  schemaUnsupported: false,
  turnCount: null,
  turnCountText: null,
  writtenAtRevision: null,
  writtenAtRevisionText: null,
  revisionLine: null,
};

/** Python's `isinstance(v, int)` as a JS number (bools are ints), or null. */
function pyIntValue(v: PyValue | undefined): number | null {
  if (typeof v === "boolean") return v ? 1 : 0;
  if (typeof v === "number" && Number.isInteger(v)) return v;
  if (typeof v === "bigint") return Number(v);
  return null;
}

/** 1-based line and column of UTF-16 index `index` in `text`. */
function lineColumn(text: string, index: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf("\n"); i >= 0 && i < index; i = text.indexOf("\n", i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: index - lineStart + 1 };
}

/** The line of the first occurrence of `"key"` in `text` (the writer puts one key per line), or null. */
function keyLine(text: string, key: string): number | null {
  const at = text.indexOf(`"${key}"`);
  return at < 0 ? null : lineColumn(text, at).line;
}

/** Reads and checks `manifest.json`; `file` is absolute, `rel` the path shown in problems. */
export async function checkManifest(
  file: string,
  rel: string,
  workspace: string,
  problems: ProblemSink,
): Promise<ManifestInfo> {
  const read = await readGuarded(file, { root: workspace, maxBytes: MAX_MANIFEST_BYTES, notDirIsMissing: true });
  if (read.kind === "missing") return NO_MANIFEST;
  const invalid = (message: string, line: number | null = null, column?: number): ManifestInfo => {
    problems.push({ file: rel, line, ...(column ? { column } : {}), severity: "error", code: "invalid_json", message });
    return { ...NO_MANIFEST, state: "invalid" };
  };
  if (read.kind === "refused") {
    problems.push({
      file: rel,
      line: null,
      severity: "error",
      code: "unreadable_file",
      message: `${rel} ${refusalReason(read.refusal)}; expected a regular file inside the workspace folder. Replace it with the writer's manifest.json.`,
    });
    return { ...NO_MANIFEST, state: "invalid" };
  }
  const text = decodeUtf8Strict(read.bytes);
  if (text === null) {
    return invalid(`${rel} is not valid UTF-8: the writer's loader (read_text) raises UnicodeDecodeError.`);
  }
  const content = pyStrip(text);
  if (content === "") return { ...NO_MANIFEST, state: "empty" };
  const offset = text.indexOf(content);
  let value: PyValue;
  try {
    value = parsePyJson(content);
  } catch (e) {
    if (!(e instanceof PyJsonError)) throw e;
    const at = lineColumn(text, offset + e.index);
    return invalid(
      `${rel} is not valid JSON (${e.msg} at line ${at.line} column ${at.column}); json.loads refuses it, so the checkpoint does not load.`,
      at.line,
      at.column,
    );
  }
  if (!isPyObject(value)) {
    return invalid(
      `${rel} must hold a JSON object {"schema_version", "turn_count", "written_at_revision"}; found ${kindOf(value)}.`,
      1,
    );
  }
  return describeManifest(value, text, rel, problems);
}

function kindOf(v: PyValue): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "a list";
  if (v instanceof PyFloat) return "a float";
  return typeof v === "string" ? "a string" : typeof v === "boolean" ? "a boolean" : "a number";
}

function describeManifest(manifest: PyObject, text: string, rel: string, problems: ProblemSink): ManifestInfo {
  const version = manifest.get("schema_version");
  const turns = manifest.get("turn_count");
  const revision = manifest.get("written_at_revision");
  const schemaVersion = version === undefined ? 0 : pyIntValue(version);
  const schemaUnsupported = schemaVersion === null || schemaVersion > SUPPORTED_SCHEMA_VERSION;
  const versionText = version === undefined ? null : canonicalDump(version, false);
  if (schemaUnsupported) {
    const found =
      schemaVersion === null
        ? `${displayValue(versionText ?? "", 40)}, which is not an integer`
        : `${versionText}, newer than ${SUPPORTED_SCHEMA_VERSION}`;
    problems.push({
      file: rel,
      line: keyLine(text, "schema_version") ?? 1,
      severity: "error",
      code: "unsupported_schema_version",
      message: `${rel} has schema_version ${found}: the writer's loader refuses this checkpoint (IncompatibleEngineStateError). Run the build that wrote it, or clear ${rel.replace(/\/[^/]*$/, "/")} explicitly.`,
    });
  }
  return {
    state: "ok",
    schemaVersion: version === undefined ? null : schemaVersion,
    schemaVersionText: versionText,
    schemaUnsupported,
    turnCount: pyIntValue(turns),
    turnCountText: turns === undefined ? null : displayValue(canonicalDump(turns, false), 60),
    writtenAtRevision: typeof revision === "string" ? revision : null,
    writtenAtRevisionText:
      revision === undefined ? null : typeof revision === "string" ? revision : canonicalDump(revision, false),
    revisionLine: keyLine(text, "written_at_revision"),
  };
}

/** Why the manifest is stale against `head` (a full commit id), or null when it is not. */
export function staleReason(manifest: ManifestInfo, head: string | null): string | null {
  if (manifest.state !== "ok" || head === null || manifest.writtenAtRevisionText === null) return null;
  const revision = manifest.writtenAtRevision;
  if (revision === "unknown" || revision === "") return null;
  if (revision !== null && head.startsWith(revision)) return null;
  const written =
    revision === null
      ? `"${displayValue(manifest.writtenAtRevisionText, 40)}" (not a string)`
      : `"${displayValue(revision, 40)}"`;
  return `written at revision ${written}, but HEAD is ${head.slice(0, 12)}`;
}
