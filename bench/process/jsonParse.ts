/**
 * The JavaScript reference of the sources bench: what parsing the same bytes
 * costs with nothing else done — `JSON.parse` of every line of a JSON-lines
 * file (`--lines`), or of the whole file (`--whole`). Blank lines are
 * skipped; a line that does not parse is counted, not thrown.
 *
 * usage: node dist/bench/jsonParse.js FILE --lines|--whole — prints {"records": N, "bad": N}
 */
import * as fs from "node:fs";

/** Parses `file` as JSON lines (or as one document); returns the records read and the lines that did not parse. */
export function parseJson(file: string, whole: boolean): { records: number; bad: number } {
  const text = fs.readFileSync(file, "utf8");
  if (whole) {
    JSON.parse(text);
    return { records: 1, bad: 0 };
  }
  let records = 0;
  let bad = 0;
  for (let s = 0; s < text.length;) {
    let e = text.indexOf("\n", s);
    if (e < 0) e = text.length;
    const line = text.slice(s, e).trim();
    s = e + 1;
    if (!line) continue;
    try {
      JSON.parse(line);
      records++;
    } catch {
      bad++;
    }
  }
  return { records, bad };
}

if (require.main === module) {
  process.stdout.write(JSON.stringify(parseJson(process.argv[2], process.argv[3] === "--whole")) + "\n");
}
