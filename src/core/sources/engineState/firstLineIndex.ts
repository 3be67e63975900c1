/**
 * The first line each id was seen on, in a few dozen bytes per id: a million candidate ids
 * cost about 50 MB, not the 500 MB a `Map<string, number>` of them did (V8 keeps an id sliced
 * out of a parsed line as a view of that whole line, so such a map held every line of the file).
 *
 * An id of 64 lowercase hex digits (the writer's sha256) is kept as its 32 bytes; any other
 * id as the sha256 of its UTF-16 code units, in a table of its own, so the two kinds never meet.
 * Two different ids of the second kind are taken as one only if their sha256 collide.
 */
import { createHash, randomBytes } from "node:crypto";

const KEY_BYTES = 32;
const HEX64 = /^[0-9a-f]{64}$/;

/** Value of a lowercase hex digit's char code (only used after {@link HEX64} matched). */
function hexValue(code: number): number {
  return code <= 0x39 ? code - 0x30 : code - 0x57;
}

/**
 * An open-addressing table from 32-byte keys to a line number, in typed arrays (nothing per
 * entry for the garbage collector to trace). The hash is seeded per process, so a hostile
 * file cannot line its ids up in one probe chain.
 */
class DigestTable {
  private keys = new Uint8Array(KEY_BYTES * 1024);
  private lines = new Float64Array(1024);
  /** Entry index + 1 per slot; 0 is an empty slot. At most half full. */
  private slots = new Int32Array(2048);
  private count = 0;
  private readonly seed = randomBytes(4).readUInt32LE(0);

  /** The line stored for `key`, or, when there is none, stores `lineNo` and returns undefined. */
  firstOrAdd(key: Uint8Array, lineNo: number): number | undefined {
    const mask = this.slots.length - 1;
    for (let slot = this.hash(key, 0) & mask; ; slot = (slot + 1) & mask) {
      const entry = this.slots[slot];
      if (entry === 0) {
        this.insert(slot, key, lineNo);
        return undefined;
      }
      if (this.sameKey(entry - 1, key)) return this.lines[entry - 1];
    }
  }

  /** A seeded 32-bit hash of the 32 bytes of `bytes` from `at`. */
  private hash(bytes: Uint8Array, at: number): number {
    let h = this.seed;
    for (let i = at; i < at + KEY_BYTES; i += 4) {
      const word = bytes[i] | (bytes[i + 1] << 8) | (bytes[i + 2] << 16) | (bytes[i + 3] << 24);
      h = Math.imul(h ^ word, 0x85ebca6b);
      h ^= h >>> 13;
    }
    h = Math.imul(h ^ (h >>> 16), 0xc2b2ae35);
    return (h ^ (h >>> 16)) >>> 0;
  }

  private sameKey(entry: number, key: Uint8Array): boolean {
    const at = entry * KEY_BYTES;
    for (let i = 0; i < KEY_BYTES; i++) if (this.keys[at + i] !== key[i]) return false;
    return true;
  }

  private insert(slot: number, key: Uint8Array, lineNo: number): void {
    const entry = this.count++;
    if (entry === this.lines.length) {
      const keys = new Uint8Array(this.keys.length * 2);
      keys.set(this.keys);
      this.keys = keys;
      const lines = new Float64Array(this.lines.length * 2);
      lines.set(this.lines);
      this.lines = lines;
    }
    const at = entry * KEY_BYTES;
    for (let i = 0; i < KEY_BYTES; i++) this.keys[at + i] = key[i];
    this.lines[entry] = lineNo;
    this.slots[slot] = entry + 1;
    if (this.count * 2 > this.slots.length) this.rehash();
  }

  /** Doubles the slots and puts every entry back. */
  private rehash(): void {
    this.slots = new Int32Array(this.slots.length * 2);
    const mask = this.slots.length - 1;
    for (let entry = 0; entry < this.count; entry++) {
      let slot = this.hash(this.keys, entry * KEY_BYTES) & mask;
      while (this.slots[slot] !== 0) slot = (slot + 1) & mask;
      this.slots[slot] = entry + 1;
    }
  }
}

/** Remembers the first line of every id it is shown, in bounded memory per id. */
export class FirstLineIndex {
  private readonly hexIds = new DigestTable();
  private readonly otherIds = new DigestTable();
  private readonly scratch = new Uint8Array(KEY_BYTES);

  /** The line `id` was first seen on; when this is its first sighting, records `lineNo` and returns undefined. */
  firstOrAdd(id: string, lineNo: number): number | undefined {
    if (HEX64.test(id)) {
      for (let i = 0; i < KEY_BYTES; i++) {
        this.scratch[i] = (hexValue(id.charCodeAt(2 * i)) << 4) | hexValue(id.charCodeAt(2 * i + 1));
      }
      return this.hexIds.firstOrAdd(this.scratch, lineNo);
    }
    const digest = createHash("sha256").update(id, "utf16le").digest();
    return this.otherIds.firstOrAdd(digest, lineNo);
  }
}
