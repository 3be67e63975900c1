"""What the scripted agent answers in the default-mode run, by role and task (ours).

AutoDev's default mode calls `claude -p <prompt> --output-format json ...` for every agent step;
`autodev_default_claude.py` is the `claude` on PATH, and this module holds its canned answers
and its real edits of the project files. Everything is decided by what the prompt says (the role,
the task id, the diff AutoDev shows, the variant and pass markers the tournament authors wrote),
never by a model: the same prompt gets the same answer.

The project (`calc`, the inline run's project) and its plan: three phases, a dependency chain,
task 1.2 that the reviewer sends back once (divide without the zero check), task 3.1 that the
reviewer never approves (it escalates to the critic and is blocked).
"""

from __future__ import annotations

import re
from pathlib import Path

import autodev_real_agent as real_agent

INTENT = (
    "Add subtract, divide (divide(a, 0) raises ValueError) and power to src/calc.py with pytest "
    "tests, then document every operation in README.md."
)

# The same starting project as the inline run's.
PROJECT_FILES = real_agent.PROJECT_FILES

PLAN = """# Plan: Calculator operations{marker}

## Phase 1: Arithmetic
### Task 1.1: Add subtract
  - Description: Add subtract(a, b) to src/calc.py returning a - b, with a pytest test.
  - Files: src/calc.py, tests/test_calc.py
  - Acceptance:
    - [ ] subtract(5, 3) == 2

### Task 1.2: Add divide with a zero check
  - Description: Add divide(a, b) to src/calc.py; divide(a, 0) raises ValueError.
  - Files: src/calc.py, tests/test_calc.py
  - Acceptance:
    - [ ] divide(6, 3) == 2
    - [ ] divide(1, 0) raises ValueError
  - Depends: 1.1

## Phase 2: Powers
### Task 2.1: Add power
  - Description: Add power(a, b) to src/calc.py returning a ** b, with a pytest test.
  - Files: src/calc.py, tests/test_calc.py
  - Acceptance:
    - [ ] power(2, 3) == 8
  - Depends: 1.1

## Phase 3: Documentation
### Task 3.1: Document the operations
  - Description: Describe every operation in README.md with a doctested example each.
  - Files: README.md
  - Acceptance:
    - [ ] README.md shows a doctested example per operation
  - Depends: 1.2, 2.1
"""

FUNCTIONS = {
    "subtract": '\n\ndef subtract(a: float, b: float) -> float:\n    """Return a - b."""\n    return a - b\n',
    "divide_naive": '\n\ndef divide(a: float, b: float) -> float:\n    """Return a / b."""\n    return a / b\n',
    "divide": '\n\ndef divide(a: float, b: float) -> float:\n    """Return a / b; raise ValueError when b is 0."""\n'
    '    if b == 0:\n        raise ValueError("divide: b must not be 0")\n    return a / b\n',
    "power": '\n\ndef power(a: float, b: float) -> float:\n    """Return a ** b."""\n    return a**b\n',
}
TESTS = {
    "subtract": "\n\ndef test_subtract() -> None:\n    assert subtract(5, 3) == 2\n",
    "divide": "\n\ndef test_divide() -> None:\n    assert divide(6, 3) == 2\n",
    "divide_zero": "\n\ndef test_divide_by_zero() -> None:\n    with pytest.raises(ValueError):\n        divide(1, 0)\n",
    "power": "\n\ndef test_power() -> None:\n    assert power(2, 3) == 8\n",
}
README_DOCS = (
    "\n## Operations\n\n```python\n>>> from calc import add, subtract, divide, power\n>>> add(2, 3)\n5\n"
    ">>> subtract(5, 3)\n2\n>>> divide(6, 3)\n2.0\n>>> power(2, 3)\n8\n```\n"
)


def _set_function(src: str, name: str, text: str) -> str:
    """src with `def name` replaced by text (a "\\n\\ndef ..." block), or text appended."""
    head, *defs = src.split("\n\n\ndef ")
    blocks = [d.rstrip("\n") for d in defs]
    new = text.strip("\n")[len("def "):]
    hit = [i for i, b in enumerate(blocks) if b.startswith(name + "(")]
    if hit:
        blocks[hit[0]] = new
    else:
        blocks.append(new)
    return head.rstrip("\n") + "".join("\n\n\ndef " + b for b in blocks) + "\n"


def _fix_imports(tests: str, calc: str) -> str:
    names = re.findall(r"^def (\w+)\(", calc, re.M)
    body = re.sub(r"\A(?:import pytest\n)?from calc import [^\n]*\n", "", tests)
    head = ("import pytest\n" if "pytest." in body else "") + f"from calc import {', '.join(names)}\n"
    return head + body


def develop(cwd: Path, task_id: str, retry: bool, variant_note: str | None) -> list[str]:
    """The developer's real edits in cwd (the project, or a tournament worktree); returns the files touched."""
    calc_p, test_p, readme_p = cwd / "src/calc.py", cwd / "tests/test_calc.py", cwd / "README.md"
    calc, tests = calc_p.read_text(), test_p.read_text()
    if task_id == "1.1":
        calc = _set_function(calc, "subtract", FUNCTIONS["subtract"])
        tests = tests if "test_subtract" in tests else tests + TESTS["subtract"]
    elif task_id == "1.2":
        checked = retry or variant_note is not None
        calc = _set_function(calc, "divide", FUNCTIONS["divide" if checked else "divide_naive"])
        tests = tests if "test_divide()" in tests else tests + TESTS["divide"]
        if checked and "test_divide_by_zero" not in tests:
            tests += TESTS["divide_zero"]
    elif task_id == "2.1":
        calc = _set_function(calc, "power", FUNCTIONS["power"])
        tests = tests if "test_power" in tests else tests + TESTS["power"]
    elif task_id == "3.1":
        readme = readme_p.read_text()
        if "## Operations" not in readme:
            readme_p.write_text(readme + README_DOCS)
        return ["README.md"]
    if variant_note:
        calc = calc.rstrip("\n") + f"\n\n# {variant_note}\n"
    calc_p.write_text(calc)
    test_p.write_text(_fix_imports(tests, calc))
    return ["src/calc.py", "tests/test_calc.py"]


EXPLORER = (
    "Findings:\n- src/calc.py defines add(a, b) only; tests/test_calc.py tests add.\n"
    "- pyproject.toml sets pytest's pythonpath to src.\n- README.md is one line."
)
DOMAIN_EXPERT = (
    "Constraints:\n- divide(a, 0) must raise ValueError, not ZeroDivisionError.\n"
    "- Keep the functions pure and typed.\n- No new dependencies."
)
CRITIC_SOUNDING_BOARD = (
    "Diagnosis: the reviewer asks for doctested README examples, and nothing in this project runs "
    "doctests (pytest's testpaths is tests/ only), so no README edit can satisfy it.\n"
    "Next step: either add `--doctest-glob=README.md` to pytest's options or drop the doctest criterion."
)


def reviewer(task_id: str, cwd: Path) -> str:
    """APPROVED, or NEEDS_CHANGES with bullet issues (AutoDev reads the first verdict line and `- ` bullets).

    The reviewer reads the files in its cwd, as an agent with Read tools does: the diff AutoDev
    puts in the prompt is empty whenever the files were already changed before the developer's
    call (AutoDev's files_changed is the `git status --porcelain` lines that are new).
    """
    if task_id == "1.2" and "raise ValueError" not in (cwd / "src/calc.py").read_text():
        return (
            "NEEDS_CHANGES\n- divide(a, 0) raises ZeroDivisionError; the task asks for ValueError\n"
            "- no test covers divide by zero"
        )
    if task_id == "3.1":
        return "NEEDS_CHANGES\n- the README examples are not run as doctests by the test suite"
    return "APPROVED\nThe change does what the task asks, with a test."


def critic_t(kind: str, n: int) -> str:
    return f"Problems (pass {n}):\n- the {kind} does not say how it is verified\n- one step is underspecified"


def author(role: str, kind: str, n: int, prompt: str) -> str:
    """architect_b / synthesizer: a revised plan, or a change direction for the impl coder."""
    word = "revision" if role == "architect_b" else "synthesis"
    if kind == "plan":
        return PLAN.format(marker=f" ({word} {n})")
    label = "B" if role == "architect_b" else "AB"
    return f"- make the change smaller and keep its test (variant {label}, {word} {n})\n- fixes: the problems the critic found"


JUDGE_WINNERS = {
    # (tournament key, pass) -> the canonical label ranked first; any other pass ranks A first.
    ("plan", 1): "B",
    ("1.1", 1): "AB",
    ("1.2", 1): "B",
}


def judge(key: str, prompt: str, judge_no: int) -> str:
    """A ranking of the three proposals, found by the variant markers the authors wrote."""
    proposals = re.split(r"^PROPOSAL (\d):\n", prompt, flags=re.M)[1:]
    bodies = {int(proposals[i]): proposals[i + 1] for i in range(0, len(proposals), 2)}
    passes = [int(x) for x in re.findall(r"(?:revision|synthesis) (\d+)", "".join(bodies.values()))]
    n = max(passes) if passes else 1
    label_of: dict[int, str] = {}
    for slot, body in bodies.items():
        if f"synthesis {n}" in body:
            label_of[slot] = "AB"
        elif f"revision {n}" in body:
            label_of[slot] = "B"
        else:
            label_of[slot] = "A"
    best = JUDGE_WINNERS.get((key, n), "A")
    if key == "plan" and n == 2 and judge_no == 2:
        return "All three proposals are close; I cannot rank them."  # no RANKING line: an invalid judge
    order = [best] + [x for x in ("A", "AB", "B") if x != best]
    slot_of = {label: slot for slot, label in label_of.items()}
    ranking = ", ".join(str(slot_of[x]) for x in order)
    return f"Proposal {slot_of[best]} fits the task best.\n\nRANKING: {ranking}"
