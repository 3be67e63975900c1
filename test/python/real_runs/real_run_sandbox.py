"""The sandbox every real-AutoDev driver runs AutoDev in (ours; autodev_real_run.py,
autodev_real_templates.py, autodev_default_run.py).

A work folder with `home/` (HOME, so the knowledge hive tier stays in it) and `stubs/`, first on
PATH: a `claude` or `cursor` there that is not given a script of its own logs its call to
`forbidden-calls.log` and fails, so any attempt to call an LLM shows. The environment is fixed
(no colour, 120 columns, C.UTF-8, one git author), and one Scrubber replaces the machine's paths
(project, work, AutoDev's source, the venv, Python's library) in what is recorded.
"""

from __future__ import annotations

import argparse
import os
from dataclasses import dataclass
from pathlib import Path

from autodev_real_snapshot import Recorder, Scrubber

FORBIDDEN_LOG = "forbidden-calls.log"


@dataclass
class Sandbox:
    """What a driver needs of its sandbox: the environment AutoDev runs in, the scrubber and the recorder."""

    stubs: Path
    venv_bin: Path
    env: dict[str, str]
    scrub: Scrubber
    rec: Recorder


def sandbox(
    work: Path,
    args: argparse.Namespace,
    project: Path | None = None,
    scripted: dict[str, str] | None = None,
    path_tail: str | None = None,
    extra_env: dict[str, str] | None = None,
) -> Sandbox:
    """Makes `work/stubs` and `work/home` and returns the sandbox; `scripted` maps a stub name to its script body."""
    stubs = work / "stubs"
    for d in (stubs, work / "home"):
        d.mkdir(parents=True, exist_ok=True)
    for name in ("claude", "cursor"):
        stub = stubs / name
        body = (scripted or {}).get(name, f'echo "{name} $*" >> "{work}/{FORBIDDEN_LOG}"\nexit 127')
        stub.write_text(f"#!/bin/sh\n{body}\n")
        stub.chmod(0o755)
    venv_bin = Path(args.autodev).parent
    env = {
        "PATH": f"{stubs}:{venv_bin}:{os.environ['PATH'] if path_tail is None else path_tail}",
        "HOME": str(work / "home"),
        "NO_COLOR": "1",
        "TERM": "dumb",
        "COLUMNS": "120",
        "LANG": "C.UTF-8",
        "GIT_AUTHOR_NAME": "calc dev",
        "GIT_AUTHOR_EMAIL": "dev@calc.invalid",
        "GIT_COMMITTER_NAME": "calc dev",
        "GIT_COMMITTER_EMAIL": "dev@calc.invalid",
        **(extra_env or {}),
    }
    paths = [(str(project), "<project>")] if project is not None else []
    paths += [
        (str(work), "<work>"),
        (str(Path(args.autodev_src).resolve()), "<autodev-src>"),
        (str(venv_bin.parent), "<venv>"),
        (os.path.dirname(os.__file__), "<python-lib>"),
    ]
    scrub = Scrubber(paths)
    rec = Recorder(Path(args.autodev), Path(args.python), env, scrub, work / "copies")
    return Sandbox(stubs, venv_bin, env, scrub, rec)


def refuse_llm_calls(work: Path, what: str = "AutoDev tried to call an LLM CLI") -> None:
    """Stops the driver when a stub logged a call (AutoDev must not have reached a model)."""
    forbidden = work / FORBIDDEN_LOG
    if forbidden.exists():
        raise SystemExit(f"{what}: {forbidden.read_text()}")
