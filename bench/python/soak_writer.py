"""Writes an AutoDev ledger for the soak bench through Python AutoDev's own PlanManager
(``update_task_status``: its lock, its atomic replace, its snapshots and plan.json), in bursts:
BURST status changes back to back, then a pause, for SECONDS seconds. Tasks cycle between
in_progress and blocked (both moves TASK_TRANSITIONS allows). Writes one JSON line per write to
file descriptor 3 (AutoDev logs to stdout): {"seq": N, "at_ms": <epoch ms right after the write
returned>}, and {"done": true} at the end.

usage: python soak_writer.py WORKSPACE SECONDS [BURST] [PAUSE_S]   (AutoDev's src on PYTHONPATH)
"""
import asyncio
import json
import os
import sys
import time
from pathlib import Path

from state.plan_manager import PlanManager  # AutoDev's own writer


def last_seq(cwd: Path) -> int:
    """The seq of the ledger's last line (read from its tail, not the whole file)."""
    ledger = cwd / ".autodev" / "plan-ledger.jsonl"
    with open(ledger, "rb") as fh:
        fh.seek(0, 2)
        size = fh.tell()
        fh.seek(max(0, size - (1 << 20)))
        last = [line for line in fh.read().splitlines() if line.strip()][-1]
    return json.loads(last)["seq"]


REPORT = os.fdopen(3, "w")


def report(obj: dict) -> None:
    REPORT.write(json.dumps(obj) + "\n")
    REPORT.flush()


async def main() -> None:
    cwd, seconds = Path(sys.argv[1]), float(sys.argv[2])
    burst = int(sys.argv[3]) if len(sys.argv) > 3 else 8
    pause = float(sys.argv[4]) if len(sys.argv) > 4 else 1.0
    pm = PlanManager(cwd, session_id="sess-soak")
    plan = await pm.load()
    tasks = [t.id for p in plan.phases for t in p.tasks if t.status in ("pending", "in_progress", "blocked")]
    state = {t.id: t.status for p in plan.phases for t in p.tasks}
    end = time.time() + seconds
    i = 0
    while time.time() < end:
        for _ in range(burst):
            task = tasks[i % len(tasks)]
            i += 1
            nxt = "blocked" if state[task] == "in_progress" else "in_progress"
            await pm.update_task_status(task, nxt)
            state[task] = nxt
            report({"seq": last_seq(cwd), "at_ms": time.time_ns() / 1e6})
        await asyncio.sleep(pause)
    report({"done": True})


asyncio.run(main())
