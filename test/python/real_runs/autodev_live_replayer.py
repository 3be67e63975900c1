"""A stand-in AutoDev process that replays a live recording into the folder it runs in (ours).

The editor test (test/integration/autodevLiveReplay.test.ts) copies this file to `<tmp>/bin/autodev`
and starts it as `python3 <tmp>/bin/autodev <command>` in the workspace, the command line and working
directory AutoDev's own process has, so the editor's process look-up finds it as it found AutoDev.
It then does what AutoDev did under `.autodev/` during that command, call by call, at the recorded
times (`autodev_default_live.py`'s format and `replay()`), and takes and releases a real
`flock(LOCK_EX)` on `.autodev/.lock` where AutoDev did.

Environment:
    AUTODEV_REPLAY_PYDIR       test/python (for autodev_default_live)
    AUTODEV_REPLAY_RECORDING   the `live-<command>.jsonl.gz` to replay
    AUTODEV_REPLAY_GAP_CAP_MS  a bounded speed-up: a gap between two calls longer than this is cut to
                               it (calls closer together keep their real spacing); unset = real speed
    AUTODEV_REPLAY_PAUSE_AT    comma-separated event indexes after which to pause (the snapshot points)

Protocol on stdout, one JSON object a line: `{"ready": true}` once started; `{"i": N, "at": MS}`
after event N was applied (`at`: wall-clock ms, `Date.now()`'s clock); `{"paused": N}` at a pause
point, then it waits for a line on stdin (the pause is cut from the schedule, as the recording cut
the snapshot pauses); `{"done": true, "held": BOOL}` at the end. It never exits on its own: the test
ends it with SIGKILL (as the recorded kills were) or by closing stdin (a clean exit, as AutoDev's).
"""

from __future__ import annotations

import fcntl
import gzip
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, os.environ["AUTODEV_REPLAY_PYDIR"])
from autodev_default_live import replay  # noqa: E402


def say(obj: dict) -> None:
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def main() -> None:
    root = Path.cwd()
    with gzip.open(os.environ["AUTODEV_REPLAY_RECORDING"], "rt", encoding="utf-8") as fh:
        events = [json.loads(line) for line in fh if line.strip()][1:]
    cap = float(os.environ.get("AUTODEV_REPLAY_GAP_CAP_MS") or "inf")
    pause_at = {int(x) for x in os.environ.get("AUTODEV_REPLAY_PAUSE_AT", "").split(",") if x.strip()}
    lock_fd: int | None = None
    say({"ready": True})
    if sys.stdin.readline() == "":
        return
    start = time.monotonic()
    sched = 0.0
    prev = 0.0
    for i, ev in enumerate(events):
        sched += min(ev["t"] - prev, cap)
        prev = ev["t"]
        wait = start + sched / 1000 - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        if ev["op"] == "lock":
            lock_fd = os.open(root / ev["path"], os.O_RDWR | os.O_CREAT, 0o666)
            fcntl.flock(lock_fd, fcntl.LOCK_EX)
        elif ev["op"] == "unlock":
            if lock_fd is not None:
                fcntl.flock(lock_fd, fcntl.LOCK_UN)
                os.close(lock_fd)
                lock_fd = None
        else:
            replay([ev], root)
        say({"i": i, "at": time.time() * 1000})
        if i in pause_at:
            paused = time.monotonic()
            say({"paused": i})
            if sys.stdin.readline() == "":
                return
            start += time.monotonic() - paused
    say({"done": True, "held": lock_fd is not None})
    sys.stdin.readline()


if __name__ == "__main__":
    main()
