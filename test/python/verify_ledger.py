"""Stdlib-only reference verifier of an AutoDev ledger (design §5.1 hash rule).

usage: verify_ledger.py LEDGER_FILE
Prints "OK <entries> <last_self_hash>" or "BROKEN line <n>: <reason>" and exits 0/1.
Reads with universal newlines and str.strip() like Python AutoDev's read_entries.
"""
import hashlib
import json
import sys

FIELDS = {"seq", "timestamp", "session_id", "op", "payload", "prev_hash", "self_hash"}


def main(path):
    prev_seq, prev_hash, count = 0, "", 0
    with open(path, "r", encoding="utf-8") as fh:
        for idx, raw in enumerate(fh, start=1):
            line = raw.strip()
            if not line:
                continue
            try:
                obj = json.loads(line)
            except ValueError as exc:
                return f"BROKEN line {idx}: invalid JSON: {exc}"
            if not isinstance(obj, dict) or not set(obj) <= FIELDS or not (FIELDS - {"payload"}) <= set(obj):
                return f"BROKEN line {idx}: fields {sorted(obj) if isinstance(obj, dict) else type(obj).__name__}"
            if obj["seq"] != prev_seq + 1:
                return f"BROKEN line {idx}: seq {obj['seq']} after {prev_seq}"
            if obj["prev_hash"] != prev_hash:
                return f"BROKEN line {idx}: prev_hash"
            body = {k: v for k, v in obj.items() if k != "self_hash"}
            body.setdefault("payload", {})
            want = hashlib.sha256(json.dumps(body, sort_keys=True).encode("utf-8")).hexdigest()[:16]
            if want != obj["self_hash"]:
                return f"BROKEN line {idx}: self_hash computed {want} stored {obj['self_hash']}"
            prev_seq, prev_hash, count = obj["seq"], obj["self_hash"], count + 1
    return f"OK {count} {prev_hash}"


if __name__ == "__main__":
    result = main(sys.argv[1])
    print(result)
    sys.exit(0 if result.startswith("OK") else 1)
