/**
 * What a file descriptor really is: the check after every guarded open
 * (fileGuard.ts) and every confined write (confinedDir.ts).
 *
 * The checks before an open (`lstat`, `realpath`, a walk without links) look
 * at a path; `O_NOFOLLOW` only covers its last component. A folder above the
 * file swapped for a link between the checks and the open (an attacker's loop
 * exchanging `.agloop` with a link to an outside folder) makes the open reach
 * the outside file. So after the open we ask the kernel where the descriptor
 * is: on Linux `/proc/self/fd/N` names the opened file's real path (with
 * " (deleted)" once it was unlinked or replaced); elsewhere the caller walks
 * the path again and compares device and inode with `fstat`.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { isInside } from "./pathInside";

let procWorks: boolean | undefined;

/** True when `/proc/self/fd/N` names open descriptors (Linux); probed once. */
function procFdAvailable(): boolean {
  if (procWorks === undefined) {
    try {
      const fd = fs.openSync(__filename, "r");
      try {
        procWorks = path.isAbsolute(fs.readlinkSync(`/proc/self/fd/${fd}`));
      } finally {
        fs.closeSync(fd);
      }
    } catch {
      procWorks = false;
    }
  }
  return procWorks;
}

/** Tests: pretends `/proc` is absent (false) or probes again (undefined), to run the fresh-walk path on Linux. */
export function setProcFdAvailableForTest(value: boolean | undefined): void {
  procWorks = value;
}

/** Where an open descriptor is, as the kernel says. */
export interface DescriptorPath {
  /** The real path (no link in it). */
  readonly real: string;
  /** True when the file was unlinked or replaced (by rename) after it was opened: a consistent old version. */
  readonly replaced: boolean;
}

const DELETED = " (deleted)";

/** `/proc/self/fd/N` of `fd`, or null where the kernel cannot say (no `/proc`, or an anonymous file). */
export function descriptorPathSync(fd: number): DescriptorPath | null {
  if (!procFdAvailable()) return null;
  let link: string;
  try {
    link = fs.readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return null;
  }
  return parseLink(link);
}

/** The async twin of {@link descriptorPathSync}. */
export async function descriptorPath(fd: number): Promise<DescriptorPath | null> {
  if (!procFdAvailable()) return null;
  let link: string;
  try {
    link = await fs.promises.readlink(`/proc/self/fd/${fd}`);
  } catch {
    return null;
  }
  return parseLink(link);
}

function parseLink(link: string): DescriptorPath | null {
  if (!path.isAbsolute(link)) return null; // "pipe:[…]", "anon_inode:…": not a file of a folder
  const replaced = link.endsWith(DELETED);
  return { real: replaced ? link.slice(0, -DELETED.length) : link, replaced };
}

/** What a check of an opened descriptor against the place it should be found. */
export type PlaceCheck =
  | { readonly kind: "ok" }
  /** Elsewhere inside the root than expected (a component became a link), or outside it. */
  | { readonly kind: "elsewhere"; readonly real: string; readonly inside: boolean };

/**
 * Checks the kernel's path of a descriptor: inside `realRoot`, and exactly
 * `expected` when given (a walk that allows no link: the real path is the
 * path itself).
 */
export function checkPlace(at: DescriptorPath, realRoot: string | null, expected: string | null): PlaceCheck {
  const inside = realRoot === null || isInside(realRoot, at.real);
  if (!inside || (expected !== null && at.real !== expected)) return { kind: "elsewhere", real: at.real, inside };
  return { kind: "ok" };
}

/** True when two stats are the same file (device and inode). */
export function sameFile(a: fs.Stats, b: fs.Stats): boolean {
  return a.ino === b.ino && a.dev === b.dev;
}
