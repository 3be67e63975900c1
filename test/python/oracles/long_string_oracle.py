"""Ledger lines with long strings, written and hashed as Python AutoDev does, for
the canonical scanner's native long-string scan (test/unit/ledger/canonicalNativeScan.test.ts).

Usage: python3 long_string_oracle.py  -> one JSON object per line on stdout:
  {"line": "<the line, ASCII>", "hash": "<sha256(json.dumps(entry without
   self_hash, sort_keys=True))[:16]>",
   "raw": ["<escape>", "<hex of raw bytes>", <json.loads reads them as the same entry>]|null}

Each line is the canonical `json.dumps(entry, sort_keys=True)` of an
append_evidence entry whose payload carries strings of plain ASCII with one
special character (every escape class of ensure_ascii, and plain edge bytes)
at positions around the scanner's thresholds. "raw" names an escape of that
line and raw bytes for the same character: the test writes them in place of
the escape, a line that is not canonical (its bytes are not what json.dumps
writes), which Python reads as the same entry or refuses.
Standard library only.
"""

import hashlib
import json
import sys

# The scanner reads 48 bytes one at a time, then proves plain runs of 256+ bytes natively.
POSITIONS = [0, 1, 47, 48, 49, 50, 51, 52, 53, 255, 256, 300, 302, 303, 304, 305, 306, 307, 308, 311, 560, 4099, 20000]
TAILS = [0, 3, 300]
SPECIALS = [
    '"', "\\", "\n", "\r", "\t", "\b", "\f", "\x00", "\x01", "\x1f", "\x7f", "\x80", "\xe9", "\xff",
    "\u2028", "\u2029", "\ufeff", "\ud800", "\udbff\udfff", "\udc00", "\U0001f600", " ", "~", "/", "u",
]
# Raw bytes for an escape (a raw newline or CR would end the line: not used); json.loads refuses
# the raw controls and reads the others as the same character.
RAW = {"\t": b"\t", "\x00": b"\x00", "\x01": b"\x01", "\x1f": b"\x1f", "\x7f": b"\x7f",
       "\xe9": "\xe9".encode(), "\u2028": "\u2028".encode(), "\x80": "\x80".encode()}


def main() -> None:
    prev = ""
    seq = 0
    out = []
    for pos in POSITIONS:
        for tail in TAILS:
            for special in SPECIALS:
                text = "a" * pos + special + "b" * tail
                # A second long string after the first: the scan's remembered quote and backslash must move on.
                payload = {"note": text, "task_id": "1.1", "z": "c" * (pos % 7 + 290) + special}
                seq += 1
                entry = {"op": "append_evidence", "payload": payload, "prev_hash": prev, "seq": seq,
                         "session_id": "s", "timestamp": "2026-01-01T00:00:00+00:00"}
                digest = hashlib.sha256(json.dumps(entry, sort_keys=True).encode("utf-8")).hexdigest()[:16]
                entry["self_hash"] = digest
                prev = digest
                line = json.dumps(entry, sort_keys=True)
                raw = None
                if special in RAW:
                    escape = json.dumps(special)[1:-1]
                    try:
                        same = json.loads(line.replace(escape, RAW[special].decode("utf-8"))) == entry
                    except ValueError:
                        same = False  # json.loads (strict) refuses a raw control character
                    raw = [escape, RAW[special].hex(), same]
                out.append(json.dumps({"line": line, "hash": digest, "raw": raw}))
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
