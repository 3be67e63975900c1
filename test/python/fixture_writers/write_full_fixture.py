#!/usr/bin/env python3
"""Writes test/fixtures/python-full/ by RUNNING the real Python AutoDev code.

Needs the AutoDev source tree (ai-autodev 0.1.1, commit eef9724):

    git clone -q /work/.mirror/mohamedameen-io+AutoDev/repo /tmp/pyautodev
    pip install filelock structlog tenacity
    AUTODEV_PY_SRC=/tmp/pyautodev python3 test/python/fixture_writers/write_full_fixture.py test/fixtures/python-full

Nothing of AutoDev is copied here: this script only CALLS its modules. The
agents are scripted (an in-process adapter of ours answers each role), so the
run is offline; every file under `.autodev/` is written by AutoDev itself:

1. `run_plan_phase` (real Orchestrator): spec.md, plan-explore / plan-domain_expert
   evidence, a plan tournament (tournaments/plan-*), the ledger and plan.json.
2. `run_execute_phase` for task 1.1: developer / review / test evidence and the
   patch, an impl tournament (tournaments/impl-*, git worktrees, tournament
   evidence), lessons recorded from `LESSON:` lines (knowledge.jsonl), injection
   bumping applied_count.
3. KnowledgeStore: a lesson confirmed until it is promoted to the hive
   (HOME/.local/share/autodev/shared-learnings.jsonl; HOME is `<out>/home`) and a
   rejected lesson (rejected_lessons.jsonl).
4. Inline mode (InlineAdapter): task 1.2's developer delegation is answered by a
   response file, `autodev resume` logic runs on, and the run suspends waiting on
   the reviewer (inline-state.json, delegations/, responses/).

The output folder gets `workspace/.autodev/` and `home/`; the git repo used for
the worktrees is not kept.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

SRC = os.environ.get("AUTODEV_PY_SRC")
if not SRC:
    sys.exit("set AUTODEV_PY_SRC to a clone of the AutoDev repository")
OUT = Path(sys.argv[1] if len(sys.argv) > 1 else "test/fixtures/python-full").resolve()
WORK = Path(tempfile.mkdtemp(prefix="autodev-full-"))
HOME = WORK / "home"
HOME.mkdir()
os.environ["HOME"] = str(HOME)  # the hive's default path lives under ~
sys.path.insert(0, str(Path(SRC) / "src"))

from adapters.base import PlatformAdapter  # noqa: E402
from adapters.inline import InlineAdapter  # noqa: E402
from adapters.inline_types import DelegationPendingSignal, InlineResponseFile  # noqa: E402
from adapters.types import AgentInvocation, AgentResult, AgentSpec  # noqa: E402
from agents import build_registry  # noqa: E402
from config.defaults import default_config  # noqa: E402
from config.loader import load_config, save_config  # noqa: E402
from orchestrator import Orchestrator  # noqa: E402
from orchestrator.execute_phase import run_execute_phase  # noqa: E402
from orchestrator.plan_phase import run_plan_phase  # noqa: E402
from state.knowledge import KnowledgeStore  # noqa: E402
from state.paths import config_path, response_path  # noqa: E402

INTENT = "Add a tiny greeting module: greet(name) returns 'Hello, <name>!' with tests."

PLAN_MD = """# Plan: Greeting module

## Phase 1: Implement

### Task 1.1: Write greet(name)
  - Description: Add greet.py with greet(name) returning a greeting.
  - Files: greet.py
  - Acceptance:
    - [ ] greet("Ada") == "Hello, Ada!"

### Task 1.2: Handle empty names
  - Description: greet("") returns "Hello, stranger!".
  - Files: greet.py
  - Depends: 1.1
  - Acceptance:
    - [ ] empty name handled

## Phase 2: Test

### Task 2.1: Add pytest
  - Description: pytest covering greet.
  - Files: test_greet.py
  - Acceptance:
    - [ ] pytest passes
"""

DIFF = "diff --git a/greet.py b/greet.py\nnew file mode 100644\n--- /dev/null\n+++ b/greet.py\n@@ -0,0 +1,2 @@\n+def greet(name):\n+    return f\"Hello, {name}!\"\n"


class ScriptedAdapter(PlatformAdapter):
    """Answers each role with canned text; judges favour a label per pass."""

    name = "scripted"

    def __init__(self, schedule: dict[str, list[str]]) -> None:
        self.schedule = schedule  # tournament kind -> favoured label per pass
        self.kind = "plan"
        self.passes = 0
        self.judge_calls = 0

    async def init_workspace(self, cwd: Path, agents: list[AgentSpec]) -> None:
        return None

    async def healthcheck(self) -> tuple[bool, str]:
        return True, "scripted"

    def _judge(self, prompt: str) -> str:
        self.judge_calls += 1
        if self.kind == "plan" and self.passes == 1 and self.judge_calls % 3 == 0:
            return "I cannot decide between these proposals."  # no RANKING line: an invalid judge
        marker = f"pass:{self.passes}"
        slots: dict[str, int] = {}
        for slot in (1, 2, 3):
            start = prompt.index(f"PROPOSAL {slot}:")
            end = prompt.find(f"PROPOSAL {slot + 1}:", start) if slot < 3 else len(prompt)
            body = prompt[start:end]
            label = "A"
            if f"variant:AB {marker}" in body:
                label = "AB"
            elif f"variant:B {marker}" in body:
                label = "B"
            slots[label] = slot
        favoured = self.schedule[self.kind][min(self.passes, len(self.schedule[self.kind])) - 1]
        order = [favoured] + [x for x in ("A", "B", "AB") if x != favoured]
        return "A is solid; B is bolder.\nRANKING: " + ", ".join(str(slots[x]) for x in order)

    async def execute(self, inv: AgentInvocation) -> AgentResult:
        role, p = inv.role, inv.prompt
        text = f"[{role}] done"
        diff: str | None = None
        if role == "explorer":
            text = "The repository is empty apart from README.md; no greeting code exists yet."
        elif role == "domain_expert":
            text = "Greeting text must not crash on empty input; keep the API pure."
        elif role == "architect":
            text = PLAN_MD
        elif role == "critic_t":
            self.passes += 1
            text = f"Pass {self.passes} critique: acceptance criteria are vague; empty names are not covered."
        elif role == "architect_b":
            text = (PLAN_MD.replace("pytest covering greet.", "pytest covering greet and empty names.") if self.kind == "plan" else "- cover empty names") + f"\n<!-- variant:B pass:{self.passes} -->\n"
        elif role == "synthesizer":
            text = (PLAN_MD.replace("Add pytest", "Add pytest for greet") if self.kind == "plan" else "- keep A's API, add B's tests") + f"\n<!-- variant:AB pass:{self.passes} -->\n"
        elif role == "judge":
            text = self._judge(p)
        elif role == "developer":
            found = re.search(r"^  variant_label: (AB|B)$", p, re.M)
            variant = found.group(1) if found else None
            text = "Implemented greet.\nLESSON: Keep greeting functions pure so they are trivial to test.\nLESSON: Always run the formatter before committing."
            diff = DIFF + (f"+# variant:{variant} pass:{self.passes}\n" if variant else "")
        elif role == "reviewer":
            text = "APPROVED\nLESSON: Keep greeting functions pure and easy to test."
        elif role == "test_engineer":
            text = "RESULTS: passed=3 failed=0 total=3"
        return AgentResult(success=True, text=text, diff=diff, files_changed=[Path("greet.py")] if diff else [], duration_s=0.5)


def git(*args: str, cwd: Path) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


async def main() -> None:
    ws = WORK / "workspace"
    ws.mkdir()
    git("init", "-q", cwd=ws)
    git("config", "user.email", "fixture@example.invalid", cwd=ws)
    git("config", "user.name", "fixture", cwd=ws)
    (ws / "README.md").write_text("greeting demo\n", encoding="utf-8")
    git("add", ".", cwd=ws)
    git("commit", "-qm", "init", cwd=ws)

    cfg = default_config()
    cfg.platform = "inline"
    for gate in ("syntax_check", "lint", "build_check", "test_runner", "secretscan"):
        setattr(cfg.qa_gates, gate, False)
    cfg.tournaments.plan.max_rounds = 5
    cfg.tournaments.impl.max_rounds = 3
    cfg.tournaments.impl.convergence_k = 1
    save_config(cfg, config_path(ws))
    cfg = load_config(config_path(ws))
    registry = build_registry(cfg)

    # 1 + 2: plan phase and task 1.1 with the scripted agents.
    adapter = ScriptedAdapter({"plan": ["AB", "A", "A"], "impl": ["B", "A"]})
    orch = Orchestrator(cwd=ws, cfg=cfg, adapter=adapter, registry=registry, session_id="sess-fixture-plan")
    await run_plan_phase(orch, INTENT)
    adapter.kind, adapter.passes = "impl", 0
    done = await run_execute_phase(orch, task_id="1.1")
    assert done[-1].status == "complete", done[-1]

    # 3: knowledge — confirm a lesson until it is promoted, reject another.
    store = KnowledgeStore(ws, cfg=cfg)
    for _ in range(2):
        await store.record("Keep greeting functions pure so they are easy to test.", "developer", confidence=0.8)
    bad = await store.record("Skip the tests when the change looks small.", "developer", confidence=0.4)
    await store.reject(bad.id, "contradicts the QA policy")
    await store.record("Prefer f-strings for short templates.", "reviewer", confidence=0.6)

    # 4: inline mode — task 1.2 suspends on the developer, is answered, then waits on the reviewer.
    inline = InlineAdapter(cwd=ws, platform_hint="claude_code")
    orch2 = Orchestrator(cwd=ws, cfg=cfg, adapter=inline, registry=registry, session_id="sess-fixture-inline")
    try:
        await run_execute_phase(orch2, task_id="1.2")
        raise AssertionError("inline run did not suspend")
    except DelegationPendingSignal:
        pass
    answer = InlineResponseFile(task_id="1.2", role="developer", success=True, text="Handled empty names.", duration_s=42.0, files_changed=["greet.py"], diff=DIFF)
    response_path(ws, "1.2", "developer").write_text(answer.model_dump_json(indent=2), encoding="utf-8")
    orch3 = Orchestrator(cwd=ws, cfg=cfg, adapter=inline, registry=registry, session_id="sess-fixture-resume")
    try:
        await orch3.resume()
        raise AssertionError("resume did not suspend on the reviewer")
    except DelegationPendingSignal:
        pass

    for sub in ("workspace", "home"):  # README.md and anything else in OUT stay
        shutil.rmtree(OUT / sub, ignore_errors=True)
    (OUT / "workspace").mkdir(parents=True)
    shutil.copytree(ws / ".autodev", OUT / "workspace" / ".autodev")
    shutil.copytree(HOME, OUT / "home")
    leftovers = sorted(str(p.relative_to(OUT)) for p in (OUT / "workspace" / ".autodev" / "tournaments").glob("*/worktrees/*"))
    print(json.dumps({"out": str(OUT), "leftover_worktrees": leftovers}))


asyncio.run(main())
shutil.rmtree(WORK, ignore_errors=True)
