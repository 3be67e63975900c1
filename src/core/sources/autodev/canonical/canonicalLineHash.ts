/**
 * The hash Python computes for a canonical ledger line: sha256 of the line
 * without its `"self_hash": "…", ` member, first 16 hex digits — taken from
 * the line's bytes with the member cut out, in one call for short lines.
 */
import * as crypto from "node:crypto";
import { createHash } from "node:crypto";

type OneShotHash = (algorithm: string, data: Uint8Array, encoding: "hex") => string;
/** `crypto.hash` (Node >= 20.12): one call, no Hash object, for short inputs. */
const oneShot: OneShotHash | undefined = (crypto as unknown as { hash?: OneShotHash }).hash;
const SHORT = 16 << 10;
const scratch = Buffer.allocUnsafeSlow(SHORT);
/** Views `scratch[0, n)` by length, made once each (short lines only): no new view per line. */
const scratchViews: Buffer[] = [];
const VIEW_CACHE = 4096;

/** The first 16 hex digits of sha256 of the line without bytes [cut1, cut2) (its `"self_hash": "…", ` member). */
export function hashWithoutSelf(bytes: Buffer, cut1: number, cut2: number): string {
  const n = bytes.length - (cut2 - cut1);
  if (oneShot !== undefined && bytes.length <= SHORT) {
    // Two builtin moves (no call into Node's Buffer code): the line, then its tail over the member.
    scratch.set(bytes, 0);
    scratch.copyWithin(cut1, cut2, bytes.length);
    const view = n <= VIEW_CACHE ? (scratchViews[n] ??= scratch.subarray(0, n)) : scratch.subarray(0, n);
    return oneShot("sha256", view, "hex").slice(0, 16);
  }
  const h = createHash("sha256");
  h.update(bytes.subarray(0, cut1));
  h.update(bytes.subarray(cut2));
  return h.digest("hex").slice(0, 16);
}
