"""Python reference of the engine_state bench: ``json.loads`` then the writer's
``json.dumps(obj, sort_keys=True, separators=(",", ":"))`` of every line of a
JSONL file, compared with the line (ADR-0146's round-trip invariant, as the
checkpoint's own loader and writer do it). Stdlib only.

usage: python3 bench/python/python_roundtrip.py FILE
Prints one JSON object: {"seconds", "cpu_seconds", "records", "non_canonical"}
(interpreter start-up excluded).
"""
import json
import sys
import time


def main():
    start, cpu_start = time.perf_counter(), time.process_time()
    records = differ = 0
    with open(sys.argv[1], "r", encoding="utf-8") as fh:
        for line in fh.read().splitlines():
            if not line.strip():
                continue
            obj = json.loads(line)
            records += 1
            if json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False) != line and json.dumps(
                obj, sort_keys=True, separators=(",", ":")
            ) != line:
                differ += 1
    print(json.dumps({
        "seconds": time.perf_counter() - start,
        "cpu_seconds": time.process_time() - cpu_start,
        "records": records,
        "non_canonical": differ,
    }))


if __name__ == "__main__":
    main()
