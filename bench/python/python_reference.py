"""Python reference for the benchmark: what AutoDev's ``read_entries`` does per line.

Stdlib only. For every line (universal newlines, ``str.strip()``, blank lines
skipped): ``json.loads``, the field checks, seq and prev_hash links, then
``sha256(json.dumps(entry_without_self_hash, sort_keys=True))[:16]`` against
the stored ``self_hash``. No pydantic and no replay, so this is a lower bound
of what the real AutoDev spends. A bad line (not JSON, wrong fields, a broken
link or hash) is counted and reading goes on, so a damaged ledger is read to
its end, as our verify reads it (AutoDev itself stops at the first).

usage: python3 bench/python/python_reference.py LEDGER_FILE
Prints one JSON object: {"seconds": <float>, "cpu_seconds": <float>, "entries": <int>, "bad": <int>, "ok": <bool>, "error": <str|null>}
(entries: lines that parsed as entries; bad: lines with a problem; error: the first problem)
(the times cover reading and verifying, not interpreter start-up).
"""
import hashlib
import json
import sys
import time

FIELDS = {"seq", "timestamp", "session_id", "op", "payload", "prev_hash", "self_hash"}


def verify(path):
    prev_seq, prev_hash, count, bad, first = 0, "", 0, 0, None
    with open(path, "r", encoding="utf-8", errors="surrogateescape") as fh:
        for idx, raw in enumerate(fh, start=1):
            line = raw.strip()
            if not line:
                continue
            problem = None
            try:
                obj = json.loads(line)
            except ValueError:
                obj, problem = None, f"line {idx}: not JSON"
            if obj is not None and (
                not isinstance(obj, dict) or not set(obj) <= FIELDS or not (FIELDS - {"payload"}) <= set(obj)
            ):
                obj, problem = None, f"line {idx}: fields"
            if obj is not None:
                count += 1
                if obj["seq"] != prev_seq + 1:
                    problem = f"line {idx}: seq {obj['seq']} after {prev_seq}"
                elif obj["prev_hash"] != prev_hash:
                    problem = f"line {idx}: prev_hash"
                body = {k: v for k, v in obj.items() if k != "self_hash"}
                body.setdefault("payload", {})
                want = hashlib.sha256(json.dumps(body, sort_keys=True).encode("utf-8")).hexdigest()[:16]
                if problem is None and want != obj["self_hash"]:
                    problem = f"line {idx}: self_hash"
                prev_seq, prev_hash = obj["seq"], obj["self_hash"]
            if problem is not None:
                bad += 1
                first = first or problem
    return count, bad, first


def main():
    start, cpu_start = time.perf_counter(), time.process_time()
    count, bad, error = verify(sys.argv[1])
    seconds, cpu_seconds = time.perf_counter() - start, time.process_time() - cpu_start
    print(json.dumps({"seconds": seconds, "cpu_seconds": cpu_seconds, "entries": count, "bad": bad, "ok": error is None, "error": error}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
