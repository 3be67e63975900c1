#!/usr/bin/env python3
"""Test helper: takes `.autodev/.lock` exactly as Python AutoDev's filelock does on POSIX.

filelock's UnixFileLock (3.x): os.open(path, O_RDWR | O_TRUNC | O_CREAT, mode), then
fcntl.flock(fd, LOCK_EX | LOCK_NB), retried every poll_interval (0.05 s) until the timeout;
release = flock(LOCK_UN) + close, the file stays. Needs only the standard library.

Modes (every line printed is "<WORD> <unix time in ms>" or "<WORD> <detail>", flushed):
  hold LOCK [--timeout S] [--seconds N] [--blocking] [--announce-wait]
      acquire (filelock-style polling, or a blocking flock with --blocking), print
      "ACQUIRED <ms>", hold until N seconds pass or stdin reaches EOF, release,
      print "RELEASED <ms>". Exit 2 and "TIMEOUT <ms>" if not acquired in time.
  try LOCK
      one flock(LOCK_EX | LOCK_NB) attempt: "ACQUIRED <ms>" (then released, exit 0)
      or "BLOCKED <ExceptionClass>" (exit 1).
  wait LOCK [--timeout S] [--blocking] [--announce-wait]
      acquire like filelock, print "ACQUIRED <ms>", release at once; exit 2 on timeout.
      --announce-wait prints "WAITING <ms>" first if the lock was held at the first attempt.
  increment LOCK --counter FILE --times N [--sleep S]
      N times: acquire like filelock, read the integer in FILE (missing = 0), sleep,
      write it + 1, release. Prints "DONE <N>".
"""

from __future__ import annotations

import argparse
import fcntl
import os
import select
import sys
import time

POLL_INTERVAL = 0.05  # filelock's default
MODE = 0o644  # filelock 3.x default mode


def now_ms() -> str:
    return f"{time.time() * 1000:.3f}"


def say(*words: object) -> None:
    print(*words, flush=True)


def open_lock_file(path: str) -> int:
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    return os.open(path, os.O_RDWR | os.O_TRUNC | os.O_CREAT, MODE)


def try_flock(path: str) -> int | None:
    """One filelock `_acquire`: the fd when locked, None when another process holds it."""
    fd = open_lock_file(path)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return None
    return fd


def acquire(path: str, timeout: float, blocking: bool = False, announce: bool = False) -> int | None:
    """filelock.FileLock.acquire: poll every 0.05 s until `timeout` (or one blocking flock).

    With `announce`, prints "WAITING <ms>" once, when the first attempt finds the lock held.
    """
    deadline = time.monotonic() + timeout
    announced = False
    while True:
        fd = try_flock(path)
        if fd is not None:
            return fd
        if announce and not announced:
            say("WAITING", now_ms())
            announced = True
        if blocking:
            fd = open_lock_file(path)
            fcntl.flock(fd, fcntl.LOCK_EX)
            return fd
        if time.monotonic() >= deadline:
            return None
        time.sleep(POLL_INTERVAL)


def release(fd: int) -> None:
    fcntl.flock(fd, fcntl.LOCK_UN)
    os.close(fd)


def cmd_hold(args: argparse.Namespace) -> int:
    fd = acquire(args.lock, args.timeout, args.blocking, args.announce_wait)
    if fd is None:
        say("TIMEOUT", now_ms())
        return 2
    say("ACQUIRED", now_ms())
    deadline = time.monotonic() + args.seconds
    stdin_open = True
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            break
        if not stdin_open:
            time.sleep(min(left, 0.05))
            continue
        ready, _, _ = select.select([sys.stdin], [], [], left)
        if ready and not os.read(sys.stdin.fileno(), 4096):
            break  # EOF: the test wants the lock back
    release(fd)
    say("RELEASED", now_ms())
    return 0


def cmd_try(args: argparse.Namespace) -> int:
    fd = open_lock_file(args.lock)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as exc:
        os.close(fd)
        say("BLOCKED", type(exc).__name__)
        return 1
    say("ACQUIRED", now_ms())
    release(fd)
    return 0


def cmd_wait(args: argparse.Namespace) -> int:
    fd = acquire(args.lock, args.timeout, args.blocking, args.announce_wait)
    if fd is None:
        say("TIMEOUT", now_ms())
        return 2
    say("ACQUIRED", now_ms())
    release(fd)
    return 0


def cmd_increment(args: argparse.Namespace) -> int:
    for _ in range(args.times):
        fd = acquire(args.lock, args.timeout)
        if fd is None:
            say("TIMEOUT", now_ms())
            return 2
        try:
            try:
                with open(args.counter, encoding="utf-8") as f:
                    value = int(f.read().strip() or "0")
            except FileNotFoundError:
                value = 0
            time.sleep(args.sleep)
            with open(args.counter, "w", encoding="utf-8") as f:
                f.write(str(value + 1))
        finally:
            release(fd)
    say("DONE", args.times)
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="mode", required=True)
    for name in ("hold", "try", "wait", "increment"):
        p = sub.add_parser(name)
        p.add_argument("lock")
        p.add_argument("--timeout", type=float, default=30.0)
        p.add_argument("--blocking", action="store_true")
        p.add_argument("--announce-wait", action="store_true")
        if name == "hold":
            p.add_argument("--seconds", type=float, default=3600.0)
        if name == "increment":
            p.add_argument("--counter", required=True)
            p.add_argument("--times", type=int, required=True)
            p.add_argument("--sleep", type=float, default=0.002)
    args = parser.parse_args()
    handler = {"hold": cmd_hold, "try": cmd_try, "wait": cmd_wait, "increment": cmd_increment}[args.mode]
    return handler(args)


if __name__ == "__main__":
    sys.exit(main())
