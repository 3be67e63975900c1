"""Appends ledger entries as Python AutoDev does, for the editor bench: each is
one ``update_task_status`` of a task, appended under the plan lock by the
writer's own atomic replace (copy the ledger, append, fsync, ``os.replace``).

With AutoDev's source on PYTHONPATH its own ``append_entry`` and ``plan_lock``
are used; without, the same steps written here with the stdlib (read the last
line's seq and self_hash, hash ``json.dumps(entry, sort_keys=True)``).

With a fourth argument `snapshot`, the status change is followed by a snapshot of the whole plan, as
PlanManager.update_task_status appends them: the plan of the ledger's last snapshot with the task's
status set and `updated_at` stamped, written by AutoDev's own `snapshot_plan` (plan.json, then the
snapshot entry: a second copy, append and `os.replace`) under the same lock. The times are then those
of the snapshot's replace, and "seq" is the snapshot's (the status change is seq - 1).

usage: python3 python_append.py WORKSPACE TASK_ID STATUS [snapshot]
Prints one JSON object: {"written_at_ms": <the new ledger's mtime, epoch ms: its last write, before
fsync and os.replace>, "replaced_at_ms": <epoch ms right after the writer's os.replace returned: when
readers can first see the new ledger>, "renamed_at_ms": <the new ledger's ctime, epoch ms: the kernel's own
time of the rename (or of the last write, when the file system does not touch ctime on rename), before
the writer's call returns>, "seq": N, "writer": "autodev"|"stdlib"}
"""
import asyncio
import datetime
import fcntl
import hashlib
import json
import os
import sys
import tempfile
import time
from pathlib import Path


REPLACED_AT_MS = 0.0


def now_iso() -> str:
    return datetime.datetime.now(datetime.timezone.utc).isoformat()


def last_snapshot_plan(ledger: Path) -> dict:
    """The plan of the ledger's last plan-carrying entry (read from its last 16 MiB)."""
    with open(ledger, "rb") as fh:
        fh.seek(max(0, os.path.getsize(ledger) - (16 << 20)))
        lines = [l for l in fh.read().splitlines() if l.strip()]
    for raw in reversed(lines):
        if raw.startswith(b'{"op": "snapshot"') or raw.startswith(b'{"op": "init_plan"') or raw.startswith(b'{"op": "update_plan"'):
            return json.loads(raw)["payload"]["plan"]
    raise SystemExit("no snapshot in the ledger's last 16 MiB")


def with_status(plan: dict, task_id: str, status: str) -> dict:
    for phase in plan["phases"]:
        for task in phase["tasks"]:
            if task["id"] == task_id:
                task["status"] = status
    plan["updated_at"] = now_iso()
    return plan


def stdlib_append(cwd: Path, payload: dict, op: str = "update_task_status") -> int:
    ledger = cwd / ".autodev" / "plan-ledger.jsonl"
    with open(cwd / ".autodev" / ".lock", "a+") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        with open(ledger, "rb") as fh:
            fh.seek(max(0, os.path.getsize(ledger) - (4 << 20)))
            last = [l for l in fh.read().splitlines() if l.strip()][-1]
        head = json.loads(last)
        entry = {
            "seq": head["seq"] + 1,
            "timestamp": now_iso(),
            "session_id": "sess-editor-bench",
            "op": op,
            "payload": payload,
            "prev_hash": head["self_hash"],
        }
        entry["self_hash"] = hashlib.sha256(json.dumps(entry, sort_keys=True).encode()).hexdigest()[:16]
        fd, tmp = tempfile.mkstemp(prefix=".ledger.", suffix=".tmp", dir=str(ledger.parent))
        with os.fdopen(fd, "wb") as out, open(ledger, "rb") as src:
            while True:
                block = src.read(1 << 20)
                if not block:
                    break
                out.write(block)
            out.write((json.dumps(entry, sort_keys=True) + "\n").encode())
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, ledger)
        global REPLACED_AT_MS
        REPLACED_AT_MS = time.time_ns() / 1e6
        return entry["seq"]


def main():
    cwd, task_id, status = Path(sys.argv[1]), sys.argv[2], sys.argv[3]
    snapshot = len(sys.argv) > 4 and sys.argv[4] == "snapshot"
    payload = {"task_id": task_id, "status": status}
    ledger = cwd / ".autodev" / "plan-ledger.jsonl"
    try:
        from state.ledger import append_entry, snapshot_plan  # AutoDev's own writer, from PYTHONPATH
        from state.lockfile import plan_lock
        from state.schemas import Plan
    except ImportError:
        seq, writer = stdlib_append(cwd, payload), "stdlib"
        if snapshot:
            plan = with_status(last_snapshot_plan(ledger), task_id, status)
            seq = stdlib_append(cwd, {"plan": plan}, "snapshot")
    else:

        async def go():
            global REPLACED_AT_MS
            async with plan_lock(cwd):
                entry = await append_entry(cwd, op="update_task_status", payload=payload, session_id="sess-editor-bench")
                REPLACED_AT_MS = time.time_ns() / 1e6  # append_entry returns right after its os.replace
                if snapshot:
                    # update_task_status's own steps after the entry (its full re-read of the ledger aside).
                    plan = Plan.model_validate(with_status(last_snapshot_plan(ledger), task_id, status))
                    entry = await snapshot_plan(cwd, plan, session_id="sess-editor-bench")
                    REPLACED_AT_MS = time.time_ns() / 1e6
                return entry

        seq, writer = asyncio.run(go()).seq, "autodev"
    st = os.stat(cwd / ".autodev" / "plan-ledger.jsonl")
    written, renamed = st.st_mtime_ns / 1e6, st.st_ctime_ns / 1e6
    out = {"written_at_ms": written, "replaced_at_ms": REPLACED_AT_MS, "renamed_at_ms": renamed, "seq": seq, "writer": writer}
    print(json.dumps(out))


if __name__ == "__main__":
    main()
