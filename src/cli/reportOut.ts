/**
 * Where `report --out FILE` may write: never into a state folder (any source's — the ledger,
 * `plan.json` or evidence replaced by a report is state lost), and the file is replaced the crash-safe
 * way (temp file beside it, fsync, rename, fsync the folder) keeping an existing file's mode.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { InvalidInputError } from "../core/errors";
import { atomicWriteFile } from "../core/fs/atomicFile";
import { isInside } from "../core/fs/pathInside";
import { STATE_SOURCES } from "../core/sources/sourceRegistry";
import type { StateSource } from "../core/sources/stateSource";

/** The real path of `p`, or of its nearest existing ancestor with the rest appended (a path not yet made). */
function realish(p: string): string {
  const rest: string[] = [];
  let at = path.resolve(p);
  for (;;) {
    try {
      return path.join(fs.realpathSync(at), ...rest.reverse());
    } catch {
      const up = path.dirname(at);
      if (up === at) return path.join(at, ...rest.reverse());
      rest.push(path.basename(at));
      at = up;
    }
  }
}

const inside = (child: string, parent: string): boolean => {
  return isInside(parent, child);
};

/**
 * Throws (exit 2, nothing written) when `out` is inside a state folder: one the report reads (`stateDirs`)
 * or one any source detects in a folder above `out` (its real path, links followed).
 */
export async function refuseStateFolderOut(
  out: string,
  stateDirs: readonly string[],
  sources: readonly StateSource[] = STATE_SOURCES,
): Promise<void> {
  const target = realish(path.join(realish(path.dirname(out)), path.basename(out)));
  const refuse = (dir: string): never => {
    throw new InvalidInputError(
      `--out ${out} is inside the state folder ${dir}; a report there would replace or mix with the state it reports on. Nothing was written; write it outside (e.g. --out run-report.md)`,
    );
  };
  for (const d of stateDirs) if (inside(target, realish(d))) refuse(d);
  for (let up = path.dirname(target); ; up = path.dirname(up)) {
    for (const source of sources) {
      const found = await source.detect(up).catch(() => null);
      if (found && inside(target, realish(found.dir))) refuse(found.dir);
    }
    if (path.dirname(up) === up) break;
  }
}

/**
 * Writes the pieces to a temp file beside `target`, fsyncs it, renames it over `target` and fsyncs
 * the folder (never a half report); an existing file keeps its mode, a new one is 0644 (less the umask).
 */
export async function writeReportFile(target: string, chunks: Iterable<string>): Promise<void> {
  await atomicWriteFile(target, chunks, `.${path.basename(target)}.`, { mode: 0o644, keepMode: true });
}
