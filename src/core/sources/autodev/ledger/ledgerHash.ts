/**
 * The ledger's hash rule (design §5.1): the first 16 hex characters of the
 * SHA-256 of `json.dumps(entry_without_self_hash, sort_keys=True)` in UTF-8.
 */
import { createHash } from "node:crypto";
import { dumpsSorted } from "../../../pyjson/pyJsonDump";
import { PyObject } from "../../../pyjson/pyValue";
import { LedgerEntry, PyDumpError, ledgerEntryHashInput } from "../plan/schemas";

/** Hash of an already-canonical ASCII string (what `json.dumps` with ensure_ascii yields). */
function hashCanonical(canonical: string | Buffer): string {
  const h = createHash("sha256");
  if (typeof canonical === "string") h.update(canonical, "utf8");
  else h.update(canonical);
  return h.digest("hex").slice(0, 16);
}

/** `compute_hash(entry_dict_without_hash)`. */
export function computeHash(entryWithoutSelfHash: PyObject): string {
  return hashCanonical(dumpsSorted(entryWithoutSelfHash));
}

/**
 * The hash Python's `read_entries` recomputes for a validated entry, or a
 * marker when Python itself could not compute it (its JSON-mode dump raises
 * UnicodeEncodeError for a lone surrogate in a nested key); such an entry
 * never verifies, so the marker yields a self_hash mismatch that says why.
 */
export function computeEntryHash(entry: LedgerEntry): string {
  try {
    return computeHash(ledgerEntryHashInput(entry));
  } catch (e) {
    if (e instanceof PyDumpError) return `<not computable: ${e.message}>`;
    throw e;
  }
}
