/**
 * Output helpers for the CLI: `--json` goes through the Python-compatible
 * serializer (so big ints and floats survive exactly); text goes to stdout,
 * problems to stderr.
 */
import { pyJsonDumps } from "../core/pyjson/pyJsonDump";
import { toPyDeep as toPy } from "../core/pyjson/toPyDeep";
import { truncateText } from "../core/text/displayText";
import { escapeHidden } from "../core/text/untrustedText";

/** Writes one JSON document (Python's `json.dumps(obj, indent=2)` layout) and a newline. */
export function printJson(v: unknown): void {
  process.stdout.write(pyJsonDumps(toPy(v), { indent: 2 }) + "\n");
}

/**
 * Writes one line of human-readable text to stdout. A value from a state file may hold a newline
 * or CR (a task id `1.1\nledger ok`), so nothing in `s` may start a line: newline, CR and every
 * other hidden character are shown as escapes (tabs kept); text of several lines is printed a line a call.
 */
export function println(s = ""): void {
  process.stdout.write(oneLineOut(s) + "\n");
}

/** Writes text of our own (help, usage) of several lines, a line at a time through {@link println}. */
export function printLines(text: string): void {
  for (const line of text.split("\n")) println(line);
}

/** Writes one line to stderr, as {@link println} (a runaway message cut). */
export function eprintln(s: string): void {
  process.stderr.write(oneLineOut(truncateText(s, 20_000)) + "\n");
}

/** `s` with every hidden character escaped but tabs (a table's columns). */
function oneLineOut(s: string): string {
  return s.includes("\t")
    ? s
        .split("\t")
        .map((part) => escapeHidden(part))
        .join("\t")
    : escapeHidden(s);
}

/**
 * Exits with `code` once everything written to stdout and stderr has been
 * handed to the OS: through a pipe Node writes asynchronously, and
 * `process.exit` right after a write would cut the output of a slow reader.
 * A reader that went away (EPIPE) ends the wait.
 */
export function exitAfterOutput(code: number): void {
  process.exitCode = code;
  finishedWith = code;
  let pending = 2;
  const done = (): void => {
    if (--pending === 0) process.exit(code);
  };
  for (const stream of [process.stdout, process.stderr]) {
    stream.once("error", () => process.exit(code));
    stream.write("", done);
  }
}

/** The command's exit status once it has finished (a reader leaving after that does not change it). */
let finishedWith: number | undefined;

/** Exit status when stdout's reader went away before the output was complete (128 + SIGPIPE, as a shell reports it). */
export const EXIT_STDOUT_CLOSED = 141;

/**
 * Makes a reader that goes away mid-output (`autodev-state report … | head`) end the process
 * quietly with {@link EXIT_STDOUT_CLOSED} (or the command's own status if it had finished) instead of an unhandled EPIPE and a stack trace; any
 * other stdout error ends it with 70. Installed once, before a command writes.
 */
export function exitQuietlyWhenStdoutCloses(): void {
  if (process.stdout.listenerCount("error") > 0) return;
  process.stdout.on("error", (e: NodeJS.ErrnoException) => {
    process.exit(finishedWith ?? (e.code === "EPIPE" ? EXIT_STDOUT_CLOSED : 70));
  });
}

/** Pads/truncates for a text table column. */
export function col(raw: string, width: number): string {
  const s = escapeHidden(raw);
  return s.length > width ? s.slice(0, width - 1) + "…" : s.padEnd(width);
}
