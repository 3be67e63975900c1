/**
 * Output helpers for the CLI: `--json` goes through the Python-compatible
 * serializer (so big ints and floats survive exactly); text goes to stdout,
 * problems to stderr.
 */
import { pyJsonDumps } from "../core/pyjson/pyJsonDump";
import { toPyDeep as toPy } from "../sample/toPyDeep";

/** Writes one JSON document (Python's `json.dumps(obj, indent=2)` layout) and a newline. */
export function printJson(v: unknown): void {
  process.stdout.write(pyJsonDumps(toPy(v), { indent: 2 }) + "\n");
}

/** Writes a line of text to stdout. */
export function println(s = ""): void {
  process.stdout.write(s + "\n");
}

/** Writes a line to stderr. */
export function eprintln(s: string): void {
  process.stderr.write(s + "\n");
}

/** Pads/truncates for a text table column. */
export function col(s: string, width: number): string {
  return s.length > width ? s.slice(0, width - 1) + "…" : s.padEnd(width);
}
