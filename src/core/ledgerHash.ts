/**
 * The ledger's hash rule (design §5.1): the first 16 hex characters of the
 * SHA-256 of `json.dumps(entry_without_self_hash, sort_keys=True)` in UTF-8.
 */
import { createHash } from "node:crypto";
import { dumpsSorted } from "./pyJsonDump";
import { PyObject } from "./pyValue";

/** Hash of an already-canonical ASCII string (what `json.dumps` with ensure_ascii yields). */
export function hashCanonical(canonical: string | Buffer): string {
  const h = createHash("sha256");
  if (typeof canonical === "string") h.update(canonical, "utf8");
  else h.update(canonical);
  return h.digest("hex").slice(0, 16);
}

/** `compute_hash(entry_dict_without_hash)`. */
export function computeHash(entryWithoutSelfHash: PyObject): string {
  return hashCanonical(dumpsSorted(entryWithoutSelfHash));
}
