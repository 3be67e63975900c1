/**
 * "Is this path inside that folder?" — the one lexical answer every confinement check uses. Both
 * paths are compared as given (resolve links first for a check of where a file really is); a path
 * is inside when it is the folder itself or below it. A name that merely starts with two dots
 * (`..notes`) is inside; `..` and `../x` are not; on Windows a path on another drive is not.
 */
import * as path from "node:path";

/** `p` relative to `root` ("" for `root` itself) when `p` is `root` or below it, else null. */
export function relativeInside(root: string, p: string): string | null {
  const rel = path.relative(root, p);
  if (rel === ".." || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel)) return null;
  return rel;
}

/** True when `p` is `root` or below it. */
export function isInside(root: string, p: string): boolean {
  return relativeInside(root, p) !== null;
}

/** True when `p` is below `root` (not `root` itself). */
export function isBelow(root: string, p: string): boolean {
  const rel = relativeInside(root, p);
  return rel !== null && rel !== "";
}
