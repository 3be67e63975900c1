/**
 * An anchored head: a `{seq, self_hash}` remembered outside the ledger (committed beside the code,
 * pinned in the editor), checked against the ledger as a transparency-log monitor checks a
 * checkpoint. A hash chain catches an edited entry but not a cut tail — delete the last entries
 * and what is left still verifies — so the ledger must also still hold the anchored entry,
 * unchanged: otherwise it was truncated (it ends before the anchor) or rewritten (the anchor's
 * seq now has another hash).
 */

/** A remembered head. */
export interface AnchoredHead {
  readonly seq: number;
  readonly selfHash: string;
}

/** How a ledger stands against an anchored head. */
export type AnchorVerdict =
  | { readonly kind: "extends"; readonly message: string }
  | { readonly kind: "truncated"; readonly endSeq: number; readonly message: string }
  | { readonly kind: "rewritten"; readonly foundHash: string; readonly message: string }
  | { readonly kind: "unverified"; readonly message: string };

/** Parses `SEQ:HASH` (a seq from 1, a hex hash); returns the reason it is not one otherwise. */
export function parseAnchoredHead(raw: string): { ok: true; head: AnchoredHead } | { ok: false; error: string } {
  const m = /^\s*(\d{1,15}):([0-9a-fA-F]{1,128})\s*$/.exec(raw);
  const seq = m ? Number(m[1]) : NaN;
  if (!m || !Number.isSafeInteger(seq) || seq < 1) {
    return {
      ok: false,
      error: `expected SEQ:HASH (an entry's seq from 1 and its self_hash in hex, as \`verify --json\` prints head), got ${JSON.stringify(raw).slice(0, 80)}`,
    };
  }
  return { ok: true, head: { seq, selfHash: m[2].toLowerCase() } };
}

/**
 * Remembers the self_hash of one seq while the ledger streams past (feed it every verified entry
 * summary), so the check needs no second read and no index of the whole ledger.
 */
export class AnchorWatch {
  private found: string | null = null;

  constructor(readonly anchor: AnchoredHead) {}

  /** Feeds one entry (the first entry with the anchor's seq is the one kept). */
  see(seq: number, selfHash: string): void {
    if (this.found === null && seq === this.anchor.seq) this.found = selfHash;
  }

  /** The self_hash seen at the anchor's seq, or null. */
  get hashAtAnchor(): string | null {
    return this.found;
  }

  /** The verdict, given whether the chain verified and the seq of the ledger's last entry (0 when empty). */
  verdict(chainOk: boolean, endSeq: number): AnchorVerdict {
    return judgeAnchor(this.anchor, chainOk, endSeq, this.found);
  }
}

/** The verdict on `anchor` given the chain's state, the last seq and the hash found at the anchor's seq. */
export function judgeAnchor(
  anchor: AnchoredHead,
  chainOk: boolean,
  endSeq: number,
  hashAtAnchor: string | null,
): AnchorVerdict {
  const want = `${anchor.seq}:${anchor.selfHash}`;
  if (!chainOk) {
    return {
      kind: "unverified",
      message: `not checked against ${want}: the hash chain itself does not verify (see the findings above)`,
    };
  }
  if (hashAtAnchor === null) {
    return {
      kind: "truncated",
      endSeq,
      message: `truncated: the ledger ends at seq ${endSeq}, before the anchored entry ${want}; entries were removed from its end (or this is another ledger)`,
    };
  }
  if (hashAtAnchor.toLowerCase() !== anchor.selfHash) {
    return {
      kind: "rewritten",
      foundHash: hashAtAnchor,
      message: `rewritten: entry ${anchor.seq} has hash ${hashAtAnchor}, not the anchored ${anchor.selfHash}; the history up to it was replaced`,
    };
  }
  return {
    kind: "extends",
    message: `the ledger extends the anchored head ${want} (now at seq ${endSeq})`,
  };
}
