"""The agent's side of the real AutoDev run: the project it starts from, and what it answers.

Ours. In inline mode AutoDev writes a delegation and waits; this module is what we, playing
the agent, do for each delegation: real edits to the project's files, and the response
JSON in the shape AutoDev's `InlineResponseFile` reads (schema_version, task_id, role,
success, text, error, duration_s, files_changed, diff). The driver checks that each
delegation AutoDev wrote is the one expected here before answering it.
"""

from __future__ import annotations

INTENT = (
    "Add subtract(a, b) and divide(a, b) to src/calc.py with pytest tests; divide(a, 0) "
    "raises ValueError; then document the operations in README.md."
)

PROJECT_FILES: dict[str, str] = {
    "pyproject.toml": '[project]\nname = "calc"\nversion = "0.1.0"\nrequires-python = ">=3.11"\n\n'
    '[tool.pytest.ini_options]\ntestpaths = ["tests"]\npythonpath = ["src"]\n',
    "README.md": "# calc\n\nA tiny calculator.\n",
    "src/calc.py": '"""A tiny calculator."""\n\n\ndef add(a: float, b: float) -> float:\n'
    '    """Return a + b."""\n    return a + b\n',
    "tests/test_calc.py": "from calc import add\n\n\ndef test_add() -> None:\n    assert add(2, 3) == 5\n",
}

PLAN_MARKDOWN = """# Plan: Calculator operations

## Phase 1: Arithmetic
### Task 1.1: Add subtract
  - Description: Add subtract(a, b) to src/calc.py returning a - b, with a pytest test.
  - Files: src/calc.py, tests/test_calc.py
  - Acceptance:
    - [ ] subtract(5, 3) == 2
    - [ ] pytest passes

### Task 1.2: Add divide with a zero check
  - Description: Add divide(a, b) to src/calc.py; divide(a, 0) raises ValueError.
  - Files: src/calc.py, tests/test_calc.py
  - Acceptance:
    - [ ] divide(6, 3) == 2
    - [ ] divide(1, 0) raises ValueError
  - Depends: 1.1

## Phase 2: Documentation
### Task 2.1: Document the operations
  - Description: Describe add, subtract and divide in README.md with one example each.
  - Files: README.md
  - Acceptance:
    - [ ] README.md shows an example for each operation
  - Depends: 1.1, 1.2
"""

SUBTRACT = '\n\ndef subtract(a: float, b: float) -> float:\n    """Return a - b."""\n    return a - b\n'
SUBTRACT_TEST = "\n\ndef test_subtract() -> None:\n    assert subtract(5, 3) == 2\n"
DIVIDE_NAIVE = '\n\ndef divide(a: float, b: float) -> float:\n    """Return a / b."""\n    return a / b\n'
DIVIDE_CHECKED = (
    '\n\ndef divide(a: float, b: float) -> float:\n    """Return a / b; raise ValueError when b is 0."""\n'
    '    if b == 0:\n        raise ValueError("divide: b must not be 0")\n    return a / b\n'
)
DIVIDE_TEST = "\n\ndef test_divide() -> None:\n    assert divide(6, 3) == 2\n"
DIVIDE_ZERO_TEST = (
    "\n\ndef test_divide_by_zero_raises() -> None:\n    with pytest.raises(ValueError):\n        divide(1, 0)\n"
)
README_DOCS = (
    "\n## Operations\n\n```python\nfrom calc import add, subtract, divide\n\n"
    "add(2, 3)       # 5\nsubtract(5, 3)  # 2\ndivide(6, 3)    # 2.0; divide(1, 0) raises ValueError\n```\n"
)


def edit(files: dict[str, str], rel: str, new_text: str) -> None:
    """Replace a project file's text (the edit is done by the driver on disk)."""
    files[rel] = new_text


def response(task_id: str, role: str, text: str, *, files: list[str] | None = None, duration: float = 0.0) -> dict:
    """A response file's content as the agent writes it (diff left to AutoDev's `git diff HEAD`)."""
    return {
        "schema_version": "1.0",
        "task_id": task_id,
        "role": role,
        "success": True,
        "text": text,
        "error": None,
        "duration_s": duration,
        "files_changed": files or [],
        "diff": None,
    }


EXPLORER_TEXT = (
    "Findings:\n- src/calc.py defines add(a, b) only; tests/test_calc.py tests add.\n"
    "- pyproject.toml sets pytest's pythonpath to src, so tests import `calc` directly.\n"
    "- README.md is one line; no operation is documented."
)
DOMAIN_EXPERT_TEXT = (
    "Constraints:\n- Division by zero must raise ValueError (not ZeroDivisionError), per the spec.\n"
    "- Keep the functions pure and typed; floats in, floats out.\n- No new dependencies."
)
CRITIC_TEXT = (
    "Diagnosis: the reviewer's NEEDS_CHANGES was answered three times by the same developer "
    "response: the earlier response file was read again on every retry, so the developer never "
    "saw the reviewer's issues (divide(a, 0) must raise ValueError; no test covers it).\n"
    "Next step: move the stale 1.2 responses out of .autodev/responses/ and run "
    "`autodev execute --task 1.2` so the developer gets a fresh delegation."
)


def developer_text(summary: str, lesson: str | None = None) -> str:
    """The developer's report; a `LESSON:` line is what AutoDev records as knowledge."""
    return summary + (f"\nLESSON: {lesson}" if lesson else "")


def test_engineer_text(passed: int, failed: int, pytest_tail: str, lesson: str | None = None) -> str:
    """The test engineer's report with the RESULTS line AutoDev parses."""
    text = f"Ran `pytest -q` in the project root:\n{pytest_tail}\nRESULTS: passed={passed} failed={failed} total={passed + failed}"
    return text + (f"\nLESSON: {lesson}" if lesson else "")
