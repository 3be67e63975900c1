#!/usr/bin/env python3
"""Drives the real Python AutoDev CLI end to end in inline mode and records fixtures (ours).

    python3 test/python/real_runs/autodev_real_run.py --autodev VENV/bin/autodev --python VENV/bin/python \
        --autodev-src SRC --autodev-commit SHA --work SCRATCH --out test/fixtures/autodev-real-run

A small git project (src/calc.py + pytest tests, autodev_real_agent.PROJECT_FILES) goes
through `autodev init --inline`, `autodev plan` (re-run after each plan-phase response, as
`resume` does not continue a plan), `autodev execute`, `autodev resume`, a reviewer
NEEDS_CHANGES that AutoDev retries on the same stale responses until it escalates, the
critic step, the block, `autodev execute --task 1.2`, and completion. AutoDev's QA gates run
pytest for real. We play the agent (autodev_real_agent.py): we read each delegation AutoDev
wrote, make the edits, and write the response at the path its frontmatter names. After each
step: a snapshot plus AutoDev's own answers (autodev_real_snapshot.py). `claude` and
`cursor` on PATH are stubs that log and fail, so any attempt to call an LLM shows; HOME is
a folder of the work dir, so the knowledge hive tier stays there.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import autodev_real_agent as agent
from autodev_real_snapshot import tree_hash
from real_run_sandbox import refuse_llm_calls, sandbox

AGENT_FILES = (".claude", ".cursor")


class Run:
    """The run's state: the live project, where fixtures go, and what each step recorded."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.work = Path(args.work).resolve()
        self.out = Path(args.out).resolve()
        self.project = self.work / "calc"
        self.moved = self.work / "moved-responses"
        if self.work.exists():
            shutil.rmtree(self.work)
        for d in (self.project, self.moved):
            d.mkdir(parents=True)
        box = sandbox(self.work, args, project=self.project)
        self.env = box.env
        self.rec = box.rec
        self.commands: list[dict[str, Any]] = []
        self.agent_log: list[str] = []
        self.files: dict[str, str] = dict(agent.PROJECT_FILES)
        self.agent_files_at_init = ""
        self.autodev_commit = args.autodev_commit

    # --- the project and the agent -------------------------------------------------------
    def sh(self, *argv: str) -> dict[str, Any]:
        return self.rec.run(list(argv), self.project)

    def write_files(self) -> None:
        for rel, text in self.files.items():
            p = self.project / rel
            p.parent.mkdir(parents=True, exist_ok=True)
            if not p.exists() or p.read_text() != text:
                p.write_text(text)

    def autodev(self, *args: str, expect: int | None = 0) -> dict[str, Any]:
        r = self.rec.autodev_cmd(list(args), self.project)
        self.commands.append(r)
        if expect is not None and r["exit_code"] != expect:
            raise SystemExit(f"autodev {' '.join(args)} exited {r['exit_code']}:\n{r['stdout']}\n{r['stderr']}")
        return r

    def delegation(self, task_id: str, role: str) -> dict[str, str]:
        """Read the delegation AutoDev wrote (its YAML frontmatter) and check it is the one expected."""
        path = self.project / ".autodev" / "delegations" / f"{task_id}-{role}.md"
        text = path.read_text()
        front = text.split("---\n")[1]
        fm = {k.strip(): v.strip().strip('"') for k, v in (ln.split(":", 1) for ln in front.splitlines() if ":" in ln)}
        state = json.loads((self.project / ".autodev" / "inline-state.json").read_text())
        if (fm["task_id"], fm["role"]) != (task_id, role) or (state["pending_task_id"], state["pending_role"]) != (
            task_id,
            role,
        ):
            raise SystemExit(f"expected a delegation for {task_id}/{role}, AutoDev waits on {state}")
        return fm

    def respond(self, task_id: str, role: str, text: str, files: list[str] | None = None, duration: float = 0.0) -> None:
        fm = self.delegation(task_id, role)
        body = agent.response(task_id, role, text, files=files, duration=duration)
        (self.project / fm["response_path"]).write_text(json.dumps(body, indent=2) + "\n")
        self.agent_log.append(f"read .autodev/delegations/{task_id}-{role}.md; wrote {fm['response_path']}")

    def edit(self, rel: str, new_text: str, why: str) -> None:
        self.files[rel] = new_text
        self.write_files()
        self.agent_log.append(f"edited {rel}: {why}")

    def pytest_counts(self) -> tuple[int, int, str]:
        r = self.sh("pytest", "-q")
        tail = r["stdout"].strip().splitlines()[-1]
        passed = int(m.group(1)) if (m := re.search(r"(\d+) passed", tail)) else 0
        failed = int(m.group(1)) if (m := re.search(r"(\d+) failed", tail)) else 0
        self.agent_log.append(f"ran pytest -q: {tail}")
        return passed, failed, tail

    def move_responses(self, task_id: str) -> None:
        rdir = self.project / ".autodev" / "responses"
        for p in sorted(rdir.glob(f"{task_id}-*.json")):
            shutil.move(str(p), self.moved / p.name)
            self.agent_log.append(f"moved .autodev/responses/{p.name} out of the project")

    def commit(self, message: str) -> None:
        self.sh("git", "add", "pyproject.toml", "README.md", "src", "tests")
        self.sh("git", "commit", "-q", "-m", message)
        self.agent_log.append(f"user committed the project files: {message!r}")

    # --- recording -----------------------------------------------------------------------
    def step(self, name: str, on_copy: list[list[str]] | None = None, note: str = "") -> None:
        step_dir = self.out / name
        # The agent files `init` renders are kept in 00-init only, while they stay byte-identical.
        if not self.agent_files_at_init:
            self.agent_files_at_init = tree_hash(self.project, AGENT_FILES)
            leave_out: tuple[str, ...] = ()
        else:
            same = tree_hash(self.project, AGENT_FILES) == self.agent_files_at_init
            leave_out = AGENT_FILES if same else ()
        self.rec.snapshot(self.project, step_dir, leave_out)
        answers: dict[str, Any] = {
            "step": name,
            "note": note,
            "left_out_unchanged_since_00_init": list(leave_out),
            "agent_actions": self.agent_log,
            "commands": self.commands,
            "recorded": self.rec.recorded(self.rec.copy_of(self.project, name + "-recorder")),
            "status": self.rec.autodev_cmd(["status"], self.rec.copy_of(self.project, name + "-status")),
            "on_copy": {},
        }
        for args in [["resume"], *(on_copy or [])]:
            answers["on_copy"][" ".join(args)] = self.rec.on_copy(self.project, f"{name}-{'-'.join(args)}", args)
        (step_dir / "autodev-answers.json").write_text(json.dumps(answers, indent=1, sort_keys=True) + "\n")
        self.commands, self.agent_log = [], []
        print(f"recorded {name}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--autodev", required=True)
    ap.add_argument("--python", required=True)
    ap.add_argument("--autodev-src", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--autodev-commit", required=True, help="the AutoDev commit the venv was installed from")
    args = ap.parse_args()
    run = Run(args)
    if run.out.exists():
        shutil.rmtree(run.out)
    run.out.mkdir(parents=True)
    from autodev_real_steps import drive

    drive(run)
    refuse_llm_calls(run.work)
    print("no LLM CLI was called", flush=True)


if __name__ == "__main__":
    main()
