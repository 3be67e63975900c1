#!/usr/bin/env python3
"""A Python writer for concurrency tests: takes fcntl.flock on .autodev/.lock
(as filelock does), appends COUNT audit entries with design section 5.1's hash
rule (json.dumps(sort_keys=True) + sha256[:16]) by temp file + fsync + rename.

usage: concurrent_writer.py DIR COUNT TAG

With AUTODEV_PY_SRC set to a checkout of the AutoDev repository (and filelock,
structlog importable) the REAL writer appends instead: AutoDev's own
PlanManager.ledger_append, which takes filelock's lock and calls append_entry.
The first output line says which: "WRITER real" or "WRITER reproduction".
"""
import datetime
import fcntl
import hashlib
import json
import os
import sys
import tempfile
import time


def last_head(path):
    last = None
    if os.path.exists(path):
        with open(path, "r", encoding="utf-8") as fh:
            for line in fh:
                if line.strip():
                    last = line.strip()
    if last is None:
        return 0, ""
    obj = json.loads(last)
    return obj["seq"], obj["self_hash"]


def append(root, payload, session):
    ledger = os.path.join(root, ".autodev", "plan-ledger.jsonl")
    seq, prev = last_head(ledger)
    body = {"seq": seq + 1, "timestamp": datetime.datetime.now(datetime.timezone.utc).isoformat(),
            "session_id": session, "op": "impl_tournament_complete", "payload": payload, "prev_hash": prev}
    body["self_hash"] = hashlib.sha256(json.dumps(body, sort_keys=True).encode("utf-8")).hexdigest()[:16]
    line = json.dumps(body, sort_keys=True) + "\n"
    fd, tmp = tempfile.mkstemp(prefix=".ledger.", suffix=".tmp", dir=os.path.dirname(ledger))
    with os.fdopen(fd, "wb") as out:
        if os.path.exists(ledger):
            with open(ledger, "rb") as src:
                out.write(src.read())
        out.write(line.encode("utf-8"))
        out.flush()
        os.fsync(out.fileno())
    os.replace(tmp, ledger)


def main_real(root, count, tag):
    import asyncio
    from pathlib import Path

    sys.path.insert(0, os.path.join(os.environ["AUTODEV_PY_SRC"], "src"))
    from state.plan_manager import PlanManager  # type: ignore

    async def loop():
        pm = PlanManager(Path(root), session_id="python-" + tag, lock_timeout_s=60.0)
        for n in range(count):
            await pm.ledger_append("impl_tournament_complete", {"writer": tag, "n": n})

    asyncio.run(loop())
    print("DONE", count, flush=True)


def main(root, count, tag):
    lock = os.path.join(root, ".autodev", ".lock")
    for n in range(count):
        fd = os.open(lock, os.O_RDWR | os.O_TRUNC | os.O_CREAT, 0o644)
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                time.sleep(0.005)
        try:
            append(root, {"writer": tag, "n": n}, "python-" + tag)
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
            os.close(fd)
    print("DONE", count, flush=True)


if __name__ == "__main__":
    if os.environ.get("AUTODEV_PY_SRC"):
        print("WRITER real", flush=True)
        main_real(sys.argv[1], int(sys.argv[2]), sys.argv[3])
    else:
        print("WRITER reproduction", flush=True)
        main(sys.argv[1], int(sys.argv[2]), sys.argv[3])
