"""Appends ledger entries as Python AutoDev does, for the editor bench: each is
one ``update_task_status`` of a task, appended under the plan lock by the
writer's own atomic replace (copy the ledger, append, fsync, ``os.replace``).

With AutoDev's source on PYTHONPATH its own ``append_entry`` and ``plan_lock``
are used; without, the same steps written here with the stdlib (read the last
line's seq and self_hash, hash ``json.dumps(entry, sort_keys=True)``).

usage: python3 python_append.py WORKSPACE TASK_ID STATUS
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


def stdlib_append(cwd: Path, payload: dict) -> int:
    ledger = cwd / ".autodev" / "plan-ledger.jsonl"
    with open(cwd / ".autodev" / ".lock", "a+") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        with open(ledger, "rb") as fh:
            fh.seek(max(0, os.path.getsize(ledger) - (4 << 20)))
            last = [l for l in fh.read().splitlines() if l.strip()][-1]
        head = json.loads(last)
        entry = {
            "seq": head["seq"] + 1,
            "timestamp": datetime.datetime.now(datetime.timezone.utc).isoformat(),
            "session_id": "sess-editor-bench",
            "op": "update_task_status",
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
    payload = {"task_id": task_id, "status": status}
    try:
        from state.ledger import append_entry  # AutoDev's own writer, from PYTHONPATH
        from state.lockfile import plan_lock
    except ImportError:
        seq, writer = stdlib_append(cwd, payload), "stdlib"
    else:

        async def go():
            global REPLACED_AT_MS
            async with plan_lock(cwd):
                entry = await append_entry(cwd, op="update_task_status", payload=payload, session_id="sess-editor-bench")
                REPLACED_AT_MS = time.time_ns() / 1e6  # append_entry returns right after its os.replace
                return entry

        seq, writer = asyncio.run(go()).seq, "autodev"
    st = os.stat(cwd / ".autodev" / "plan-ledger.jsonl")
    written, renamed = st.st_mtime_ns / 1e6, st.st_ctime_ns / 1e6
    out = {"written_at_ms": written, "replaced_at_ms": REPLACED_AT_MS, "renamed_at_ms": renamed, "seq": seq, "writer": writer}
    print(json.dumps(out))


if __name__ == "__main__":
    main()
