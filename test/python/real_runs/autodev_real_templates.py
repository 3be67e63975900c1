#!/usr/bin/env python3
"""What the real AutoDev does with the response template *Create Response* writes, untouched (ours).

    python3 test/python/real_runs/autodev_real_templates.py --autodev VENV/bin/autodev --python VENV/bin/python \
        --template-module out/src/core/sources/autodev/inline/responseFile.js \
        --fixtures test/fixtures/autodev-real-run --work SCRATCH \
        --out test/fixtures/autodev-real-run-templates/autodev-answers.json

For each step of the real run where AutoDev waits on an execute-phase role (developer, reviewer,
test_engineer, critic_sounding_board), the step's snapshot is rebuilt as a git project (the
project files of the step before the task started are the commit, as in the run; the snapshot's
files on top), our template for that task and role is written where AutoDev reads the answer
(the bytes come from our own `responseTemplate`, run under node, so the recording is of the
template we ship), and `autodev resume` runs. Recorded: the template, AutoDev's own validation of
it (`InlineResponseFile`, through autodev_real_recorder.py), what `resume` printed and exited
with, and what it changed (ledger entries, tasks, suspend state, files). Where AutoDev refuses
the template, the agent's real answer from the run (the response file of the next snapshot) is
then written over it and `resume` runs again, to record whether the run goes on.

For comparison, the templates we wrote before (TEMPLATES_BEFORE, kept here as they were) are run
the same way on the reviewer and test_engineer steps: the traps the new template removes.
`claude` and `cursor` on PATH are stubs that log and fail, as in autodev_real_run.py.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

from autodev_real_snapshot import autodev_files
from real_run_sandbox import refuse_llm_calls, sandbox

# The templates *Create Response* wrote before issue 31 (text field only; the rest as now, success: true).
TEMPLATES_BEFORE = {
    "reviewer": "<replace: first line APPROVED, NEEDS_CHANGES or REJECTED; then one '- issue' line per problem>",
    "test_engineer": "<replace: what you ran and what it printed>\nRESULTS: passed=0 failed=0 total=0",
}

# (case, step AutoDev waits at, step whose project files were committed, task, role, step holding the real answer)
CASES = [
    ("developer", "06-1.1-developer-waiting", "00-init", "1.1", "developer", "07-1.1-reviewer-waiting"),
    ("reviewer", "07-1.1-reviewer-waiting", "00-init", "1.1", "reviewer", "08-1.1-test-engineer-waiting"),
    ("test_engineer", "08-1.1-test-engineer-waiting", "00-init", "1.1", "test_engineer", "09-1.1-complete"),
    ("critic", "13-1.2-escalated-critic-waiting", "09-1.1-complete", "1.2", "critic_sounding_board", "14-1.2-blocked"),
]
PROJECT_FILES = ("README.md", "pyproject.toml", "src", "tests")


def before_template(task_id: str, role: str) -> str:
    """The response file the old *Create Response* wrote (its exact layout)."""
    body = [
        '  "schema_version": "1.0",',
        f"  \"task_id\": {json.dumps(task_id)},",
        f"  \"role\": {json.dumps(role)},",
        '  "success": true,',
        f"  \"text\": {json.dumps(TEMPLATES_BEFORE[role])},",
        '  "error": null,',
        '  "duration_s": 0.0,',
        '  "files_changed": [],',
        '  "diff": null',
    ]
    return "{\n" + "\n".join(body) + "\n}\n"


class Driver:
    def __init__(self, args: argparse.Namespace) -> None:
        self.fixtures = Path(args.fixtures).resolve()
        self.work = Path(args.work).resolve()
        self.module = Path(args.template_module).resolve()
        self.node = args.node
        if self.work.exists():
            shutil.rmtree(self.work)
        box = sandbox(self.work, args)
        self.env = box.env
        self.scrub = box.scrub
        self.rec = box.rec

    def ours(self, task_id: str, role: str) -> str:
        script = "process.stdout.write(require(process.argv[1]).responseTemplate(process.argv[2], process.argv[3]))"
        return subprocess.run(
            [self.node, "-e", script, str(self.module), task_id, role], capture_output=True, text=True, check=True
        ).stdout

    def project(self, label: str, step: str, base: str) -> Path:
        """The step's snapshot as a git project whose HEAD holds the base step's project files."""
        p = self.work / label / "calc"
        p.mkdir(parents=True)
        base_ws = self.fixtures / base / "workspace"
        for name in PROJECT_FILES:
            src = base_ws / name
            (shutil.copytree if src.is_dir() else shutil.copy2)(src, p / name)
        git = ["git", "-C", str(p)]
        for argv in (["init", "-q", "-b", "main"], ["add", *PROJECT_FILES], ["commit", "-q", "-m", f"as at {base}"]):
            subprocess.run(git + argv, env=self.env, check=True, capture_output=True)
        ws = self.fixtures / step / "workspace"
        shutil.copytree(ws, p, dirs_exist_ok=True)
        rows = json.loads((self.fixtures / step / "manifest.json").read_text())
        for r in rows:
            if r["type"] == "dir":
                (p / r["path"]).mkdir(parents=True, exist_ok=True)
        for r in sorted(rows, key=lambda r: (r["type"] != "file", -len(r["path"]))):
            (p / r["path"]).chmod(int(r["mode"], 8))
        return p

    def resume(self, project: Path, rel: str) -> dict[str, Any]:
        """`autodev resume` on the project: its output and what it changed."""
        before_files = autodev_files(project)
        before = self.rec.recorded(self.rec.copy_of(project, project.parent.name + "-before"))
        pairs = self.scrub.pairs
        self.scrub.pairs = [(str(project), "<project>"), *pairs]
        try:
            result = self.rec.autodev_cmd(["resume"], project)
            after = self.rec.recorded(self.rec.copy_of(project, project.parent.name + "-after"))
        finally:
            self.scrub.pairs = pairs
        after_files = autodev_files(project)
        seen = before["ledger"].get("count", 0)
        result["validation_before"] = before["responses"].get(rel.rsplit("/", 1)[1])
        result["effects"] = {
            "files_added": sorted(set(after_files) - set(before_files)),
            "files_removed": sorted(set(before_files) - set(after_files)),
            "ledger_entries_added": after["ledger"]["entries"][seen:],
            "suspend_before": before["suspend"],
            "suspend_after": after["suspend"],
            "tasks_after": after["replay"]["tasks"],
        }
        return result

    def critic_moved(self, step: str, base: str, task_id: str, rel: str, answer_step: str) -> dict[str, Any]:
        """The way on the critic-wait warning gives: the task's read answers moved away, the critic answered."""
        project = self.project("critic-moved", step, base)
        moved = []
        for p in sorted((project / ".autodev" / "responses").glob(f"{task_id}-*.json")):
            moved.append(p.name)
            shutil.move(str(p), self.work / "critic-moved" / p.name)
        (project / rel).write_text((self.fixtures / answer_step / "workspace" / rel).read_text())
        return {"moved": moved, "answer_from": answer_step, "resume": self.resume(project, rel)}

    def case(self, name: str, step: str, base: str, task_id: str, role: str, answer_step: str, template: str) -> dict:
        label = f"{name}-{'ours' if template == 'ours' else 'before'}"
        project = self.project(label, step, base)
        rel = f".autodev/responses/{task_id}-{role}.json"
        text = self.ours(task_id, role) if template == "ours" else before_template(task_id, role)
        target = project / rel
        if target.exists():
            raise SystemExit(f"{step}: {rel} already exists")
        target.write_text(text)
        out: dict[str, Any] = {
            "case": name,
            "template_of": template,
            "step": step,
            "task_id": task_id,
            "role": role,
            "response": rel,
            "template": text,
            "resume": self.resume(project, rel),
        }
        if template == "ours":
            answer = (self.fixtures / answer_step / "workspace" / rel).read_text()
            target.write_text(answer)
            out["then_answered"] = {"answer_from": answer_step, "resume": self.resume(project, rel)}
        if template == "ours" and role == "critic_sounding_board":
            out["then_moved_away"] = self.critic_moved(step, base, task_id, rel, answer_step)
        print(f"recorded {label}: resume exited {out['resume']['exit_code']}", flush=True)
        return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--autodev", required=True)
    ap.add_argument("--python", required=True)
    ap.add_argument("--autodev-src", required=True)
    ap.add_argument("--node", default="node")
    ap.add_argument("--template-module", required=True)
    ap.add_argument("--fixtures", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    d = Driver(args)
    cases = [d.case(*c, template="ours") for c in CASES]
    cases += [d.case(*c, template="before") for c in CASES if c[4] in TEMPLATES_BEFORE]
    refuse_llm_calls(d.work)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"cases": cases}, indent=1, sort_keys=True) + "\n")
    print(f"wrote {out}; no LLM CLI was called", flush=True)


if __name__ == "__main__":
    main()
