#!/usr/bin/env python3
"""Changes one task's status the way Python AutoDev's update_task_status does:
under fcntl.flock on .autodev/.lock, append an update_task_status entry, write
plan.json (indent=2) and append a snapshot entry; stdlib only, design section 5.1
hash rule. The plan comes from the last snapshot in the ledger.

usage: set_status.py DIR TASK STATUS
"""
import datetime
import fcntl
import hashlib
import json
import os
import sys
import tempfile


def now():
    return datetime.datetime.now(datetime.timezone.utc).isoformat()


def atomic_write(path, data, prefix):
    fd, tmp = tempfile.mkstemp(prefix=prefix, suffix=".tmp", dir=os.path.dirname(path))
    with os.fdopen(fd, "wb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)


def main(root, task_id, status):
    ad = os.path.join(root, ".autodev")
    ledger = os.path.join(ad, "plan-ledger.jsonl")
    fd = os.open(os.path.join(ad, ".lock"), os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o644)
    fcntl.flock(fd, fcntl.LOCK_EX)
    try:
        entries = [json.loads(l) for l in open(ledger, encoding="utf-8") if l.strip()]
        plan = next(e["payload"]["plan"] for e in reversed(entries) if e["op"] == "snapshot")
        state = {"seq": entries[-1]["seq"], "prev": entries[-1]["self_hash"], "data": open(ledger, "rb").read()}

        def append(op, payload):
            body = {"seq": state["seq"] + 1, "timestamp": now(), "session_id": "python-it", "op": op, "payload": payload, "prev_hash": state["prev"]}
            body["self_hash"] = hashlib.sha256(json.dumps(body, sort_keys=True).encode("utf-8")).hexdigest()[:16]
            state["data"] += (json.dumps(body, sort_keys=True) + "\n").encode("utf-8")
            atomic_write(ledger, state["data"], ".ledger.")
            state["seq"], state["prev"] = body["seq"], body["self_hash"]

        append("update_task_status", {"task_id": task_id, "status": status})
        for ph in plan["phases"]:
            for t in ph["tasks"]:
                if t["id"] == task_id:
                    t["status"] = status
        plan["updated_at"] = now()
        atomic_write(os.path.join(ad, "plan.json"), (json.dumps(plan, indent=2) + "\n").encode("utf-8"), ".plan.")
        append("snapshot", {"plan": plan})
    finally:
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)
    print("OK", flush=True)


if __name__ == "__main__":
    main(*sys.argv[1:4])
