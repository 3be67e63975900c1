"""The steps of the real AutoDev run, in order (ours; called by autodev_real_run.py).

Each `run.step(name)` snapshots the project and records AutoDev's answers about it; the
lines before it are what the user and the agent did to get there. Exit codes are checked
only where AutoDev's own code says what they are; the others are recorded as they come.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import autodev_real_agent as agent

if TYPE_CHECKING:
    from autodev_real_run import Run


def plan_phase(run: "Run") -> None:
    run.write_files()
    run.sh("git", "init", "-q", "-b", "main")
    run.commit("calc: add()")
    run.autodev("init", "--inline")
    run.step("00-init", note="autodev init --inline on a committed project; no plan, no ledger")

    run.autodev("plan", agent.INTENT, expect=None)
    run.step("01-plan-explorer-waiting", note="autodev plan wrote the explorer delegation and stopped")

    run.respond("plan", "explorer", agent.EXPLORER_TEXT, duration=4.2)
    run.autodev("plan", agent.INTENT, expect=None)
    run.step("02-plan-domain-expert-waiting", note="re-ran autodev plan: explorer answered, domain_expert waits")

    run.respond("plan", "domain_expert", agent.DOMAIN_EXPERT_TEXT, duration=3.1)
    run.autodev("plan", agent.INTENT, expect=None)
    run.step("03-plan-architect-waiting", note="re-ran autodev plan: architect waits")

    run.respond("plan", "architect", agent.PLAN_MARKDOWN, duration=9.5)
    run.autodev("plan", agent.INTENT, expect=None)
    run.step(
        "04-plan-tournament-refused",
        note="re-ran autodev plan with the default config: the plan tournament refuses the inline adapter",
    )

    # The user turns the plan tournament off, as the README's cost levers show, through
    # AutoDev's own config writer so the bytes are AutoDev's.
    r = run.rec.run(
        [
            str(run.rec.python),
            "-c",
            "from pathlib import Path; from config.loader import load_config, save_config; "
            "p = Path('.autodev/config.json'); c = load_config(p); c.tournaments.plan.enabled = False; save_config(c, p)",
        ],
        run.project,
    )
    run.commands.append(r)
    run.agent_log.append("user set tournaments.plan.enabled = false (load_config/save_config)")
    run.autodev("plan", agent.INTENT, expect=None)
    run.step("05-plan-stored", on_copy=[["execute"]], note="autodev plan stored the plan; inline-state.json still names plan/architect")


def task_cycle(run: "Run", task_id: str, reviewer_text: str, step_prefix: str, lesson: str | None) -> None:
    """reviewer answers -> resume (test_engineer waits) -> tests -> resume (task complete)."""
    run.respond(task_id, "reviewer", reviewer_text, duration=2.0)
    run.autodev("resume", expect=None)
    run.step(f"{step_prefix}-test-engineer-waiting", note=f"reviewer APPROVED {task_id}; test_engineer waits")

    passed, failed, tail = run.pytest_counts()
    run.respond(task_id, "test_engineer", agent.test_engineer_text(passed, failed, tail, lesson), duration=1.4)
    run.autodev("resume", expect=None)


def execute_phase(run: "Run") -> None:
    run.autodev("execute")
    run.step("06-1.1-developer-waiting", note="autodev execute: task 1.1 in progress, developer waits")

    run.edit("src/calc.py", run.files["src/calc.py"] + agent.SUBTRACT, "add subtract()")
    run.edit(
        "tests/test_calc.py",
        run.files["tests/test_calc.py"].replace("import add", "import add, subtract") + agent.SUBTRACT_TEST,
        "test subtract()",
    )
    text = agent.developer_text(
        "Added subtract(a, b) to src/calc.py and test_subtract to tests/test_calc.py.",
        "Keep each calc helper pure and typed; tests import calc through pyproject's pythonpath.",
    )
    run.respond("1.1", "developer", text, files=["src/calc.py", "tests/test_calc.py"], duration=12.0)
    run.autodev("resume", expect=None)
    run.step("07-1.1-reviewer-waiting", note="developer answered; QA gates (pytest) passed; reviewer waits")

    task_cycle(run, "1.1", "APPROVED\nsubtract() is pure, typed and tested.", "08-1.1", "Run pytest from the project root.")
    run.step("09-1.1-complete", on_copy=[["execute"]], note="1.1 complete; no delegation pending")

    run.commit("calc: subtract()")
    (run.project / "notes").mkdir(exist_ok=True)
    (run.project / "notes" / "plan.md").write_text(agent.PLAN_MARKDOWN)
    run.agent_log.append("user wrote notes/plan.md (the approved plan's markdown) for an offline plan tournament")
    run.autodev(
        "tournament", "--phase=impl", "--input-diff", ".autodev/evidence/1.1.patch", "--task-id", "1.1",
        "--task-desc", "Add subtract", "--files", "src/calc.py,tests/test_calc.py", "--dry-run",
    )
    run.autodev("tournament", "--phase=plan", "--input", "notes/plan.md", "--dry-run")
    run.step("10-tournaments-offline", note="autodev tournament --dry-run, impl (on 1.1's patch) and plan")

    run.autodev("execute")
    run.step("11-1.2-developer-waiting", note="autodev execute: 1.2 developer waits (lessons injected)")

    run.edit("src/calc.py", run.files["src/calc.py"] + agent.DIVIDE_NAIVE, "add divide() (no zero check)")
    run.edit(
        "tests/test_calc.py",
        run.files["tests/test_calc.py"].replace("import add, subtract", "import add, divide, subtract") + agent.DIVIDE_TEST,
        "test divide()",
    )
    run.respond("1.2", "developer", agent.developer_text("Added divide(a, b) and test_divide."), files=["src/calc.py", "tests/test_calc.py"], duration=8.0)
    run.autodev("resume", expect=None)
    run.step("12-1.2-reviewer-waiting", note="developer answered; reviewer waits")

    needs = (
        "NEEDS_CHANGES\n- divide(1, 0) raises ZeroDivisionError; the task asks for ValueError\n"
        "- no test covers division by zero"
    )
    run.respond("1.2", "reviewer", needs, duration=2.5)
    run.autodev("resume", expect=None)
    run.step(
        "13-1.2-escalated-critic-waiting",
        note="one resume re-read the stale developer and reviewer responses: retries 1-3, then critic_sounding_board waits",
    )

    run.respond("1.2", "critic_sounding_board", agent.CRITIC_TEXT, duration=3.0)
    run.autodev("resume", expect=None)
    run.step("14-1.2-blocked", on_copy=[["execute", "--task", "1.2"]], note="critic answered; 1.2 escalated and blocked")

    run.move_responses("1.2")
    run.autodev("execute", "--task", "1.2")
    run.step("15-1.2-retry-developer-waiting", note="stale 1.2 responses moved away; execute --task 1.2: developer waits")

    run.edit("src/calc.py", run.files["src/calc.py"].replace(agent.DIVIDE_NAIVE, agent.DIVIDE_CHECKED), "divide() raises ValueError on 0")
    run.edit(
        "tests/test_calc.py",
        "import pytest\n\n" + run.files["tests/test_calc.py"] + agent.DIVIDE_ZERO_TEST,
        "test divide(1, 0) raises ValueError",
    )
    text = agent.developer_text("divide(a, 0) now raises ValueError; added test_divide_by_zero_raises.", "Raise ValueError for invalid input, not ZeroDivisionError.")
    run.respond("1.2", "developer", text, files=["src/calc.py", "tests/test_calc.py"], duration=6.0)
    run.autodev("resume", expect=None)
    run.step("16-1.2-reviewer-waiting-again", note="developer answered the retry; reviewer waits")

    task_cycle(run, "1.2", "APPROVED\nThe zero check and its test are in place.", "17-1.2", None)
    run.step("18-1.2-complete", note="1.2 complete after the block")

    run.commit("calc: divide()")
    run.autodev("execute")
    run.step("19-2.1-developer-waiting", note="autodev execute: 2.1 developer waits")

    run.edit("README.md", run.files["README.md"] + agent.README_DOCS, "document the operations")
    run.respond("2.1", "developer", agent.developer_text("Documented add, subtract and divide in README.md."), files=["README.md"], duration=3.0)
    run.autodev("resume", expect=None)
    run.step("20-2.1-reviewer-waiting", note="developer answered; reviewer waits")

    task_cycle(run, "2.1", "APPROVED\nEach operation has an example.", "21-2.1", None)
    run.step("22-run-complete", on_copy=[["execute"]], note="every task complete")


def versions(run: "Run") -> dict[str, str]:
    """What ran: AutoDev's own --version, its Python and libraries, pytest and git."""
    py = str(run.rec.python)
    probe = (
        "import sys, importlib.metadata as m; print(sys.version.split()[0], *(n + '=' + m.version(n) for n in "
        "('ai-autodev', 'pydantic', 'filelock', 'structlog', 'click', 'rich', 'pytest')))"
    )
    return {
        "autodev --version": run.rec.autodev_cmd(["--version"], run.project)["stdout"].strip(),
        "python and packages": run.rec.run([py, "-c", probe], run.project)["stdout"].strip(),
        "pytest --version": run.sh("pytest", "--version")["stdout"].strip(),
        "git --version": run.sh("git", "--version")["stdout"].strip(),
    }


def drive(run: "Run") -> None:
    """The whole run."""
    plan_phase(run)
    execute_phase(run)
    meta = {"intent": agent.INTENT, "autodev_commit": run.autodev_commit, "versions": versions(run)}
    (run.out / "run.json").write_text(json.dumps(meta, indent=1) + "\n")
