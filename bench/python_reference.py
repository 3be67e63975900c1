"""Python reference for the benchmark: what AutoDev's ``read_entries`` does per line.

Stdlib only. For every line (universal newlines, ``str.strip()``, blank lines
skipped): ``json.loads``, the field checks, seq and prev_hash links, then
``sha256(json.dumps(entry_without_self_hash, sort_keys=True))[:16]`` against
the stored ``self_hash``. No pydantic and no replay, so this is a lower bound
of what the real AutoDev spends.

usage: python3 bench/python_reference.py LEDGER_FILE
Prints one JSON object: {"seconds": <float>, "cpu_seconds": <float>, "entries": <int>, "ok": <bool>, "error": <str|null>}
(the times cover reading and verifying, not interpreter start-up).
"""
import hashlib
import json
import sys
import time

FIELDS = {"seq", "timestamp", "session_id", "op", "payload", "prev_hash", "self_hash"}


def verify(path):
    prev_seq, prev_hash, count = 0, "", 0
    with open(path, "r", encoding="utf-8") as fh:
        for idx, raw in enumerate(fh, start=1):
            line = raw.strip()
            if not line:
                continue
            obj = json.loads(line)
            if not isinstance(obj, dict) or not set(obj) <= FIELDS or not (FIELDS - {"payload"}) <= set(obj):
                return count, f"line {idx}: fields"
            if obj["seq"] != prev_seq + 1:
                return count, f"line {idx}: seq {obj['seq']} after {prev_seq}"
            if obj["prev_hash"] != prev_hash:
                return count, f"line {idx}: prev_hash"
            body = {k: v for k, v in obj.items() if k != "self_hash"}
            body.setdefault("payload", {})
            want = hashlib.sha256(json.dumps(body, sort_keys=True).encode("utf-8")).hexdigest()[:16]
            if want != obj["self_hash"]:
                return count, f"line {idx}: self_hash"
            prev_seq, prev_hash, count = obj["seq"], obj["self_hash"], count + 1
    return count, None


def main():
    start, cpu_start = time.perf_counter(), time.process_time()
    count, error = verify(sys.argv[1])
    seconds, cpu_seconds = time.perf_counter() - start, time.process_time() - cpu_start
    print(json.dumps({"seconds": seconds, "cpu_seconds": cpu_seconds, "entries": count, "ok": error is None, "error": error}))
    return 0 if error is None else 1


if __name__ == "__main__":
    sys.exit(main())
