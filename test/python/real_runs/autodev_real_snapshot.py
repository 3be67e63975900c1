"""Snapshots and recorded answers for the real AutoDev run (ours; used by autodev_real_run.py).

A snapshot is the project's tree as AutoDev left it (minus `.git/` and pytest/py_compile
caches, which are not AutoDev's) copied to `<step>/workspace/`, plus `<step>/manifest.json`
listing every file and folder with its mode, size and sha256 — git keeps neither empty
folders (AutoDev's offline impl tournament leaves empty `worktrees/a`, `b`, `ab`) nor modes
(AutoDev's ledger and plan.json are 0600), so tests rebuild both from the manifest.

Every answer about a snapshot is asked on a fresh copy of the whole project (with `.git/`),
because even `autodev status` takes `.autodev/.lock` and `resume` moves the run on.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

NOT_AUTODEVS = {".git", "__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache"}


class Scrubber:
    """Replaces this machine's paths in recorded output with stable placeholders."""

    def __init__(self, pairs: list[tuple[str, str]]) -> None:
        self.pairs = sorted(pairs, key=lambda p: -len(p[0]))

    def __call__(self, text: str) -> str:
        for path, name in self.pairs:
            text = text.replace(path, name)
        return text


def tree_hash(root: Path, names: tuple[str, ...]) -> str:
    """One sha256 over the files of root's named folders (paths and bytes)."""
    h = hashlib.sha256()
    for name in names:
        for p in sorted((root / name).rglob("*")):
            if p.is_file():
                h.update(p.relative_to(root).as_posix().encode() + b"\0" + p.read_bytes())
    return h.hexdigest()


def manifest(root: Path) -> list[dict[str, Any]]:
    """Every entry under root, sorted, with what git would lose."""
    rows: list[dict[str, Any]] = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        base = Path(dirpath)
        for d in dirnames:
            p = base / d
            rows.append({"path": p.relative_to(root).as_posix(), "type": "dir", "mode": oct(p.stat().st_mode & 0o777)})
        for f in sorted(filenames):
            p = base / f
            data = p.read_bytes()
            rows.append(
                {
                    "path": p.relative_to(root).as_posix(),
                    "type": "file",
                    "mode": oct(p.stat().st_mode & 0o777),
                    "size": len(data),
                    "sha256": hashlib.sha256(data).hexdigest(),
                }
            )
    return sorted(rows, key=lambda r: r["path"])


def autodev_files(project: Path) -> dict[str, str]:
    """sha256 of every file under .autodev/, by relative path."""
    root = project / ".autodev"
    out: dict[str, str] = {}
    if root.is_dir():
        for p in sorted(root.rglob("*")):
            if p.is_file():
                out[p.relative_to(project).as_posix()] = hashlib.sha256(p.read_bytes()).hexdigest()
    return out


class Recorder:
    """Runs AutoDev commands and our recorder script, and keeps what they answered."""

    def __init__(self, autodev: Path, python: Path, env: dict[str, str], scrub: Scrubber, copies: Path) -> None:
        self.autodev = autodev
        self.python = python
        self.env = env
        self.scrub = scrub
        self.copies = copies
        self.recorder_script = Path(__file__).with_name("autodev_real_recorder.py")

    def run(self, argv: list[str], cwd: Path, timeout: int = 300) -> dict[str, Any]:
        proc = subprocess.run(argv, cwd=cwd, env=self.env, capture_output=True, text=True, timeout=timeout)
        shown = ["autodev", *argv[1:]] if argv[0] == str(self.autodev) else argv
        return {
            "argv": [self.scrub(a) for a in shown],
            "exit_code": proc.returncode,
            "stdout": self.scrub(proc.stdout),
            "stderr": self.scrub(proc.stderr),
        }

    def autodev_cmd(self, args: list[str], cwd: Path) -> dict[str, Any]:
        return self.run([str(self.autodev), *args], cwd)

    def recorded(self, project: Path) -> Any:
        r = subprocess.run(
            [str(self.python), str(self.recorder_script), str(project)],
            env=self.env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        if r.returncode != 0:
            raise RuntimeError(f"recorder failed on {project}:\n{r.stderr}")
        return json.loads(self.scrub(r.stdout))

    def copy_of(self, project: Path, label: str) -> Path:
        dst = self.copies / label / project.name
        if dst.parent.exists():
            shutil.rmtree(dst.parent)
        dst.parent.mkdir(parents=True)
        shutil.copytree(project, dst, symlinks=True)
        return dst

    def on_copy(self, project: Path, label: str, args: list[str]) -> dict[str, Any]:
        """What `autodev ARGS` does to a copy: its output and what it changed in .autodev/."""
        copy = self.copy_of(project, label)
        before_files = autodev_files(copy)
        before = self.recorded(self.copy_of(project, label + "-rec"))
        pair = self.scrub.pairs
        self.scrub.pairs = [(str(copy), "<copy>"), *pair]
        try:
            result = self.autodev_cmd(args, copy)
            after = self.recorded(copy)
        finally:
            self.scrub.pairs = pair
        after_files = autodev_files(copy)
        seen = before["ledger"].get("count", 0) if isinstance(before["ledger"], dict) else 0
        added_entries = after["ledger"]["entries"][seen:] if "entries" in after["ledger"] else after["ledger"]
        result["effects"] = {
            "files_added": sorted(set(after_files) - set(before_files)),
            "files_removed": sorted(set(before_files) - set(after_files)),
            "files_changed": sorted(k for k in before_files if k in after_files and before_files[k] != after_files[k]),
            "ledger_entries_added": added_entries,
            "suspend_after": after["suspend"],
            "tasks_after": after["replay"]["tasks"] if isinstance(after.get("replay"), dict) else after.get("replay"),
            "evidence_after": after["evidence"],
        }
        return result

    def snapshot(self, project: Path, step_dir: Path, leave_out: tuple[str, ...] = ()) -> None:
        """Copy the project (less caches, `.git/` and the top-level folders in leave_out)."""
        ws = step_dir / "workspace"
        if step_dir.exists():
            shutil.rmtree(step_dir)

        def ignore(d: str, names: list[str]) -> list[str]:
            top = Path(d) == project
            return [n for n in names if n in NOT_AUTODEVS or (top and n in leave_out)]

        shutil.copytree(project, ws, symlinks=True, ignore=ignore)
        (step_dir / "manifest.json").write_text(json.dumps(manifest(ws), indent=1) + "\n")
