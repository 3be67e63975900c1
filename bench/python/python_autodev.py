"""Reference column for the benchmark: Python AutoDev's own ``replay_ledger``.

Imports the real AutoDev (``state.ledger`` from a checkout of its ``src/``,
found through PYTHONPATH; real pydantic models) and times, on one workspace:

- ``read_entries``: what AutoDev does to read and chain-check the ledger
  (json.loads + ``LedgerEntry.model_validate`` + hash per line);
- ``replay_ledger``: ``read_entries`` plus replaying every entry into a Plan,
  i.e. what ``autodev`` pays to rebuild the plan from the ledger.

``read_entries`` runs once, inside ``replay_ledger``: the module's function is
wrapped to time that part, so the file is read only once.

usage: PYTHONPATH=<AutoDev>/src python3 bench/python/python_autodev.py WORKSPACE_DIR
Prints one JSON object: {"read_seconds", "replay_seconds", "cpu_seconds",
"peak_rss_mb", "entries", "ok", "error"} (interpreter start-up and imports excluded).
"""
import json
import resource
import sys
import time
from pathlib import Path


def main():
    import state.ledger as ledger  # AutoDev's module, from PYTHONPATH

    spent = {"read": 0.0}
    original = ledger.read_entries

    def timed_read_entries(cwd):
        t = time.perf_counter()
        try:
            return original(cwd)
        finally:
            spent["read"] += time.perf_counter() - t

    ledger.read_entries = timed_read_entries
    start, cpu_start = time.perf_counter(), time.process_time()
    error, entries = None, 0
    try:
        plan, found = ledger.replay_ledger(Path(sys.argv[1]))
        entries = len(found)
        if plan is None:
            error = "no plan"
    except Exception as exc:  # a verdict to report, not a crash of the bench
        error = f"{type(exc).__name__}: {exc}"
    seconds, cpu_seconds = time.perf_counter() - start, time.process_time() - cpu_start
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({
        "read_seconds": spent["read"],
        "replay_seconds": seconds,
        "cpu_seconds": cpu_seconds,
        "peak_rss_mb": peak_kb / 1024,
        "entries": entries,
        "ok": error is None,
        "error": error,
    }))
    return 0 if error is None else 1


if __name__ == "__main__":
    sys.exit(main())
