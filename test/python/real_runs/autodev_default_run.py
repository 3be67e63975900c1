#!/usr/bin/env python3
"""Drives the real Python AutoDev CLI in its default mode and records fixtures and a live recording (ours).

    python3 test/python/real_runs/autodev_default_run.py --autodev VENV/bin/autodev --python VENV/bin/python \
        --autodev-src SRC --autodev-commit SHA --work SCRATCH --out test/fixtures/autodev-default-run

`autodev init` (platform auto: AutoDev health-checks `claude --version` and picks claude_code),
`autodev plan "<intent>"` and `autodev execute`, unattended, with plan and impl tournaments on
(AutoDev's defaults). The `claude` on PATH is autodev_default_claude.py, a scripted stand-in that
answers by role (autodev_default_agent.py); `cursor` is a stub that logs and fails. Everything
else is AutoDev: its QA gates run pytest, its tournaments make git worktrees, it writes the
ledger, plan.json, evidence, knowledge and tournament files.

Snapshots are taken while AutoDev runs: the stand-in pauses at chosen agent calls (STANDIN_SCRIPT
"pause"), the driver copies the project and asks AutoDev about the copy, then lets the call go
on. Every command runs under strace; autodev_default_trace.py turns the trace into the live
recording (`live-<command>.jsonl.gz`, see autodev_default_live.py), with the pauses cut out.
autodev_default_faults.py records the failure cases from a copy of the planned project.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any, Callable

from autodev_default_live import write_live
from autodev_default_trace import STRACE_CALLS, Tracer
from autodev_real_snapshot import tree_hash
from real_run_sandbox import refuse_llm_calls, sandbox
import autodev_default_agent as agent

HERE = Path(__file__).resolve().parent
AGENT_FILES = (".claude", ".cursor")


class Run:
    """One scratch project driven by AutoDev, and where its fixtures go."""

    def __init__(self, args: argparse.Namespace, name: str = "calc") -> None:
        self.args = args
        self.work = Path(args.work).resolve()
        self.out = Path(args.out).resolve()
        self.project = self.work / name
        self.standin = self.work / f"standin-{name}"
        for d in (self.project, self.standin):
            d.mkdir(parents=True, exist_ok=True)
        self.script = self.standin / "script.json"
        self.script.write_text("{}")
        claude = f'exec "{Path(args.python).resolve()}" "{HERE / "autodev_default_claude.py"}" "$@"'
        box = sandbox(self.work, args, project=self.project, scripted={"claude": claude}, path_tail="/usr/bin:/bin",
                      extra_env={"STANDIN_DIR": str(self.standin), "STANDIN_SCRIPT": str(self.script)})
        self.stubs, self.venv_bin, self.env, self.scrub, self.rec = box.stubs, box.venv_bin, box.env, box.scrub, box.rec
        self.rec.recorder_script = HERE / "autodev_default_recorder.py"
        self.agent_files_at_init = ""
        self.calls_seen = 0
        self.commands: list[dict[str, Any]] = []

    def set_script(self, script: dict[str, Any]) -> None:
        self.script.write_text(json.dumps(script))

    def new_calls(self) -> list[dict[str, Any]]:
        """The stand-in's calls since the last step (scrubbed; no timestamps)."""
        log = self.standin / "calls.jsonl"
        rows = [json.loads(x) for x in log.read_text().splitlines()] if log.exists() else []
        new, self.calls_seen = rows[self.calls_seen:], len(rows)
        return [{k: (self.scrub(v) if isinstance(v, str) else [self.scrub(a) for a in v] if k == "argv" else v)
                 for k, v in r.items() if k not in ("t0", "t1")} for r in new]

    def sh(self, *argv: str) -> dict[str, Any]:
        return self.rec.run(list(argv), self.project)

    def git(self, *argv: str) -> str:
        return subprocess.run(["git", *argv], cwd=self.project, env=self.env, capture_output=True, text=True, check=True).stdout

    def make_project(self) -> None:
        for rel, text in agent.PROJECT_FILES.items():
            p = self.project / rel
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_text(text)
        self.git("init", "-q", "-b", "main")
        self.git("add", ".")
        self.git("commit", "-q", "-m", "calc: add")

    def autodev(self, args: list[str], label: str, on_pause: Callable[[str], None] | None = None,
                strace_extra: list[str] | None = None, kill_when: Callable[[], int | None] | None = None) -> dict[str, Any]:
        """Run `autodev ARGS` under strace; snapshot at each stand-in pause; write the live recording."""
        tdir = self.work / "traces" / label
        shutil.rmtree(tdir, ignore_errors=True)
        tdir.mkdir(parents=True)
        argv = ["strace", "-ff", "-ttt", "-y", "-xx", "-s", "4194304", "-o", str(tdir / "tr"), "-e", f"trace={STRACE_CALLS}",
                *(strace_extra or []), str(self.rec.autodev), *args]
        before = self.work / "before" / label
        shutil.rmtree(before, ignore_errors=True)
        shutil.copytree(self.project / ".autodev", before / ".autodev", symlinks=True)
        pauses: list[tuple[float, float]] = []
        pdir = self.standin / "pauses"
        t_start = time.time()
        proc = subprocess.Popen(argv, cwd=self.project, env=self.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        killed = None
        while proc.poll() is None:
            for m in sorted(pdir.glob("*.pause")) if pdir.is_dir() else []:
                t0 = time.time()
                name = m.name[: -len(".pause")]
                m.rename(pdir / f"{name}.seen")
                if on_pause:
                    on_pause(name)
                (pdir / f"{name}.go").write_text("")
                pauses.append((t0, time.time()))
            if kill_when and killed is None:
                killed = kill_when()
            time.sleep(0.02)
        stdout, stderr = proc.communicate()
        r = {"argv": ["autodev", *args], "exit_code": proc.returncode, "stdout": self.scrub(stdout),
             "stderr": self.scrub(stderr), "killed": killed}
        self.commands.append(r)
        events = Tracer(self.project).events(tdir)
        r["live"] = write_live(self.out / f"live-{label}.jsonl.gz", events, pauses, t_start, self.project, before)
        return r

    def step(self, name: str, note: str, on_copy: list[list[str]] | None = None, running: bool = False) -> None:
        """Snapshot the project now, with AutoDev's answers about it (running: AutoDev waits on a paused call)."""
        step_dir = self.out / name
        if not self.agent_files_at_init:
            self.agent_files_at_init = tree_hash(self.project, AGENT_FILES)
            leave_out: tuple[str, ...] = ()
        else:
            leave_out = AGENT_FILES if tree_hash(self.project, AGENT_FILES) == self.agent_files_at_init else ()
        self.rec.snapshot(self.project, step_dir, leave_out)
        worktrees = subprocess.run(["git", "worktree", "list", "--porcelain"], cwd=self.project, env=self.env,
                                   capture_output=True, text=True).stdout
        answers: dict[str, Any] = {
            "step": name,
            "note": note,
            "autodev_running": running,
            "left_out_unchanged_since_00_init": list(leave_out),
            "agent_calls": self.new_calls(),
            "commands": self.commands,
            "lock_free": lock_free(self.project),
            "git_worktrees": [self.scrub(b) for b in worktrees.strip().split("\n\n") if b],
            "recorded": self.rec.recorded(self.rec.copy_of(self.project, name + "-recorder")),
            "status": self.rec.autodev_cmd(["status"], self.rec.copy_of(self.project, name + "-status")),
            "on_copy": {},
        }
        for args in on_copy or []:
            answers["on_copy"][" ".join(args)] = self.rec.on_copy(self.project, f"{name}-{'-'.join(args)}", args)
        step_dir.joinpath("autodev-answers.json").write_text(json.dumps(answers, indent=1, sort_keys=True) + "\n")
        self.commands = []
        print(f"recorded {name}", flush=True)


def lock_free(project: Path) -> bool | None:
    """True when nothing holds `.autodev/.lock` (one non-blocking flock attempt, dropped at once)."""
    import fcntl

    p = project / ".autodev" / ".lock"
    if not p.exists():
        return None
    with open(p, "rb") as fh:
        try:
            fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        fcntl.flock(fh, fcntl.LOCK_UN)
    return True


PAUSES = [
    {"name": "01-plan-tournament-pass-2", "role": "synthesizer", "task": "plan", "nth": 2,
     "note": "plan tournament pass 2: pass_01 written (B won), pass 2's critic and architect_b answered; no ledger yet"},
    {"name": "03-1.1-developer", "role": "developer", "task": "1.1",
     "note": "execute: 1.1 in_progress, the developer is called in the project"},
    {"name": "04-1.1-tournament-worktree-b", "role": "developer", "task": "1.1", "variant": "B",
     "note": "1.1 impl tournament pass 1: the developer runs in worktree b-… (the worktree exists)"},
    {"name": "05-1.2-reviewer-after-retry", "role": "reviewer", "task": "1.2", "nth": 2,
     "note": "1.2: the reviewer sent it back once (retry 1); the developer redid it; the reviewer is called again"},
    {"name": "06-1.2-tournament-pass-2-judge", "role": "judge", "task": "1.2", "nth": 2,
     "note": "1.2 impl tournament pass 2: pass_01 written (B won); the judge is called while all four worktrees exist"},
    {"name": "07-3.1-critic", "role": "critic_sounding_board", "task": "3.1",
     "note": "3.1: the reviewer never approves; retry 3 reached the limit; the critic is called before the block"},
]


def write_run_json(run: Run, args: argparse.Namespace) -> None:
    from autodev_real_steps import versions

    meta = {"intent": agent.INTENT, "autodev_commit": args.autodev_commit, "versions": versions(run)}  # type: ignore[arg-type]
    meta["versions"]["strace -V"] = run.sh("strace", "-V")["stdout"].splitlines()[0]
    (run.out / "run.json").write_text(json.dumps(meta, indent=1) + "\n")


def main() -> None:
    ap = argparse.ArgumentParser()
    for a in ("--autodev", "--python", "--autodev-src", "--work", "--out", "--autodev-commit"):
        ap.add_argument(a, required=True)
    args = ap.parse_args()
    work, out = Path(args.work).resolve(), Path(args.out).resolve()
    shutil.rmtree(work, ignore_errors=True)
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    run = Run(args)
    run.make_project()
    notes = {p["name"]: p["note"] for p in PAUSES}
    run.set_script({"pause": [{k: v for k, v in p.items() if k != "note"} for p in PAUSES]})
    r = run.rec.autodev_cmd(["init"], run.project)
    run.commands.append(r)
    run.step("00-init", "autodev init (platform auto)")
    run.autodev(["plan", agent.INTENT], "plan", on_pause=lambda n: run.step(n, notes[n], running=True))
    run.step("02-plan-stored", "autodev plan exited: the tournament's plan stored")
    shutil.copytree(run.project, work / "planned", symlinks=True)
    run.autodev(["execute"], "execute", on_pause=lambda n: run.step(n, notes[n], running=True))
    run.step("08-run-done", "autodev execute exited: 1.1, 1.2, 2.1 complete, 3.1 blocked",
             on_copy=[["resume"], ["execute", "--task", "3.1"]])
    write_run_json(run, args)
    if os.environ.get("SKIP_FAULTS") != "1":
        from autodev_default_faults import record_faults

        record_faults(args, work / "planned")
    refuse_llm_calls(work, "AutoDev called cursor")


if __name__ == "__main__":
    main()
