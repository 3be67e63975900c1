"""The default-mode run's failure cases, each from a copy of the planned project (ours).

    10-agent-call-failed     the stand-in exits 1 on 1.1's first developer call and prints
                             non-JSON on the second; `autodev execute --task 1.1`
    11-agent-cli-missing     no `claude` (nor `cursor`) on PATH; `autodev execute`
    12-killed-in-tournament  SIGKILL to AutoDev while its 1.1 impl tournament runs the developer
                             in worktree b-… (the stand-in hangs there until the kill)
    13-killed-holding-lock   SIGKILL to AutoDev while it holds `.autodev/.lock` (strace delays
                             the return of every flock by 0.4 s, so the driver's probe sees it held)
    14-killed-mid-write      SIGKILL to AutoDev between writing a temp file and renaming it
                             (strace delays every rename by 0.4 s; the kill comes once a `.*.tmp` shows)

Each is recorded like a step of the main run (snapshot, AutoDev's answers, live recording), and
`autodev resume` is run on a copy of each killed state (with the stand-in answering normally).
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import time
from pathlib import Path
from typing import Callable

from autodev_default_run import Run, lock_free


def autodev_pid(strace_pid: int) -> int | None:
    """The process strace started (AutoDev's python), from /proc."""
    try:
        kids = Path(f"/proc/{strace_pid}/task/{strace_pid}/children").read_text().split()
    except OSError:
        return None
    return int(kids[0]) if kids else None


def strace_pid_of(run: Run) -> int | None:
    for p in Path("/proc").iterdir():
        if p.name.isdigit():
            try:
                cmd = (p / "cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if cmd and cmd[0].endswith(b"strace") and str(run.work / "traces").encode() in b" ".join(cmd):
                return int(p.name)
    return None


def killer(run: Run, ready: Callable[[], bool], also: Callable[[], list[int]] = lambda: []) -> Callable[[], int | None]:
    """A kill_when for Run.autodev: SIGKILL AutoDev (and the given helpers) once ready() holds."""

    def check() -> int | None:
        if not ready():
            return None
        sp = strace_pid_of(run)
        pid = autodev_pid(sp) if sp else None
        if pid is None:
            return None
        os.kill(pid, signal.SIGKILL)
        for extra in also():
            try:
                os.kill(extra, signal.SIGKILL)
            except ProcessLookupError:
                pass
        return pid

    return check


def fresh(args: argparse.Namespace, planned: Path, name: str) -> Run:
    work = Path(args.work).resolve()
    shutil.copytree(planned, work / name, symlinks=True)
    run = Run(args, name=name)
    run.agent_files_at_init = ""
    return run


def record_faults(args: argparse.Namespace, planned: Path) -> None:
    # 10: a failed agent call, then garbage, then a good answer.
    run = fresh(args, planned, "failed-call")
    run.set_script({"fail": [{"role": "developer", "task": "1.1", "times": 1, "how": "exit"},
                             {"role": "developer", "task": "1.1", "times": 1, "how": "garbage"}]})
    run.autodev(["execute", "--task", "1.1"], "agent-call-failed")
    run.step("10-agent-call-failed", "1.1's developer call exited 1, the next printed non-JSON; AutoDev retried")

    # 11: no agent CLI at all.
    run = fresh(args, planned, "no-cli")
    run.env["PATH"] = f"{run.venv_bin}:/usr/bin:/bin"
    run.rec.env = run.env
    run.autodev(["execute"], "agent-cli-missing")
    run.step("11-agent-cli-missing", "no claude or cursor on PATH: autodev execute")

    # 12: killed while the impl tournament runs in a worktree.
    run = fresh(args, planned, "killed-tournament")
    marker = run.standin / "hang-b"
    run.set_script({"hang": {"role": "developer", "variant": "B", "marker": str(marker)}})
    hung = lambda: [int(marker.read_text())] if marker.exists() else []  # noqa: E731
    run.autodev(["execute", "--task", "1.1"], "killed-in-tournament", kill_when=killer(run, marker.exists, hung))
    time.sleep(0.5)
    run.set_script({})
    run.step("12-killed-in-tournament", "SIGKILL to AutoDev while the developer ran in worktree b-… of 1.1's impl tournament",
             on_copy=[["resume"]])

    # 13: killed while holding .autodev/.lock.
    run = fresh(args, planned, "killed-lock")
    held = lambda: lock_free(run.project) is False  # noqa: E731
    run.autodev(["execute", "--task", "1.1"], "killed-holding-lock",
                strace_extra=["-e", "inject=flock:delay_exit=400000"], kill_when=killer(run, held))
    run.step("13-killed-holding-lock", "SIGKILL to AutoDev while it held .autodev/.lock", on_copy=[["resume"]])

    # 14: killed between a temp file's write and its rename.
    run = fresh(args, planned, "killed-write")
    tmp_seen = lambda: any((run.project / ".autodev").rglob(".*.tmp"))  # noqa: E731
    run.autodev(["execute", "--task", "1.1"], "killed-mid-write",
                strace_extra=["-e", "inject=rename:delay_enter=400000"], kill_when=killer(run, tmp_seen))
    run.step("14-killed-mid-write", "SIGKILL to AutoDev after it wrote a temp file, before its rename", on_copy=[["resume"]])
