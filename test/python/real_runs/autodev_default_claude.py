#!/usr/bin/env python3
"""A scripted stand-in for the `claude` CLI, for AutoDev's default mode (ours; no model is called).

AutoDev's claude_code adapter runs `claude --version` as its health check, and for every agent
step `claude -p <prompt> --output-format json --permission-mode acceptEdits [--model M]
[--max-turns N] [--allowed-tools T,...]` in the folder the step works in (the project, or a
tournament's git worktree), and parses stdout as one JSON object whose `result` is the agent's
text and `is_error` its failure. This script answers in that shape, by role:

    specialist roles   the prompt's `AGENT: <role>` / `TASK: <id>` lines (AutoDev's envelope)
    tournament roles   the system prompt AutoDev puts first (critic_t, architect_b, synthesizer, judge)

The developer edits the files of its cwd for real (autodev_default_agent.develop); the test
engineer runs pytest there for real and reports its counts in AutoDev's RESULTS line.

Environment: STANDIN_DIR (required) holds `calls.jsonl` (one line per call: n, role, task, cwd,
argv without the prompt, exit) and `counters.json` (tournament passes per tournament, under an
flock). STANDIN_SCRIPT (optional) names a JSON file of faults: {"fail": [{"role", "task",
"times", "how": "exit"|"garbage"|"is_error"}], "hang": {"role", "variant", "marker"}} — a hang
writes `marker` and sleeps, so a driver can SIGKILL AutoDev at that point.
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import autodev_default_agent as agent  # noqa: E402

SYSTEMS = {
    "You are a critical reviewer.": "critic_t",
    "You are a senior consultant revising a proposal": "architect_b",
    "You are a senior consultant. You are given two versions": "synthesizer",
    "You are an independent evaluator.": "judge",
}
STATE = Path(os.environ.get("STANDIN_DIR", "."))


def field(prompt: str, name: str) -> str | None:
    """The envelope's `NAME: value` line: the last one (role prompts have their own `TASK:` lines)."""
    found = re.findall(rf"^{name}: (\S+)", prompt, re.M)
    return found[-1] if found else None


def context_value(prompt: str, key: str) -> str | None:
    found = re.findall(rf"^  {key}: (.*)$", prompt, re.M)
    return found[-1] if found else None


def tournament_key(prompt: str) -> tuple[str, str]:
    """('impl', task id) for an impl tournament (by its ORIGINAL TASK), ('plan', 'plan') otherwise."""
    if "UNIFIED DIFF:" in prompt or "  files_changed:" in prompt:
        m = re.search(r"ORIGINAL TASK:\n---\n(.*?)\n---", prompt, re.S)
        for tid, desc in re.findall(r"### Task (\S+):.*?\n  - Description: (.*?)\n", agent.PLAN, re.S):
            if m and desc.strip() == m.group(1).strip():
                return "impl", tid
        return "impl", "?"
    return "plan", "plan"


def with_counters(update) -> int:
    """Run update(counters) -> int under an flock on counters.json and save the counters."""
    path = STATE / "counters.json"
    with open(STATE / "counters.lock", "w") as lk:
        fcntl.flock(lk, fcntl.LOCK_EX)
        data = json.loads(path.read_text()) if path.exists() else {}
        value = update(data)
        path.write_text(json.dumps(data, sort_keys=True))
    return value


def answer(role: str, prompt: str, cwd: Path) -> str:
    task = field(prompt, "TASK") or "?"
    if role == "explorer":
        return agent.EXPLORER
    if role == "domain_expert":
        return agent.DOMAIN_EXPERT
    if role == "architect":
        return agent.PLAN.format(marker="")
    if role == "developer":
        variant = context_value(prompt, "variant_label")
        note = None
        if variant:
            direction = context_value(prompt, "direction") or ""
            m = re.search(r"\(variant (\w+), (revision|synthesis) (\d+)\)", direction)
            note = f"variant {variant}, {m.group(2)} {m.group(3)}" if m else f"variant {variant}"
        files = agent.develop(cwd, task, retry="prior_issues:" in prompt, variant_note=note)
        return f"Implemented task {task}: edited {', '.join(files)}." + (
            "\nLESSON: run pytest from the project root; pyproject sets pythonpath to src" if task == "1.1" and not variant else ""
        )
    if role == "test_engineer":
        r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"], cwd=cwd,
                           capture_output=True, text=True, timeout=120)
        tail = (r.stdout.strip().splitlines() or [""])[-1]
        passed = int(m.group(1)) if (m := re.search(r"(\d+) passed", tail)) else 0
        failed = int(m.group(1)) if (m := re.search(r"(\d+) failed", tail)) else 0
        return f"Ran `pytest -q`:\n{tail}\nRESULTS: passed={passed} failed={failed} total={passed + failed}"
    if role == "reviewer":
        return agent.reviewer(task, cwd)
    if role == "critic_sounding_board":
        return agent.CRITIC_SOUNDING_BOARD
    kind, key = tournament_key(prompt)
    if role == "critic_t":
        n = with_counters(lambda c: c.get(key, 0) + 1)
        return agent.critic_t(kind, n)
    if role == "architect_b":
        def bump(c: dict) -> int:
            c[key] = c.get(key, 0) + 1
            return c[key]
        return agent.author(role, kind, with_counters(bump), prompt)
    if role == "synthesizer":
        return agent.author(role, kind, with_counters(lambda c: c.get(key, 0)), prompt)
    if role == "judge":
        def judge_no(c: dict) -> int:
            k = f"judge:{key}:{c.get(key, 0)}"
            c[k] = c.get(k, 0) + 1
            return c[k]
        return agent.judge(key, prompt, with_counters(judge_no))
    raise SystemExit(f"stand-in claude: no answer for role {role!r}")


def fault_for(role: str, task: str, prompt: str) -> str | None:
    script = os.environ.get("STANDIN_SCRIPT")
    if not script:
        return None
    faults = json.loads(Path(script).read_text())
    variant = context_value(prompt, "variant_label")
    for i, pz in enumerate(faults.get("pause", [])):
        if pz["role"] == role and pz.get("task", task) == task and pz.get("variant") == variant:
            def seen(c: dict, i: int = i) -> int:
                c[f"pause:{i}"] = c.get(f"pause:{i}", 0) + 1
                return c[f"pause:{i}"]
            if with_counters(seen) == pz.get("nth", 1):
                marker = STATE / "pauses" / pz["name"]
                marker.parent.mkdir(exist_ok=True)
                Path(f"{marker}.pause").write_text(str(os.getpid()))
                while not Path(f"{marker}.go").exists():
                    time.sleep(0.02)
    hang = faults.get("hang")
    if hang and hang["role"] == role and hang.get("variant") == context_value(prompt, "variant_label"):
        Path(hang["marker"]).write_text(str(os.getpid()))
        time.sleep(3600)
    for i, f in enumerate(faults.get("fail", [])):
        if f["role"] == role and f.get("task", task) == task:
            used = with_counters(lambda c, i=i: c.setdefault(f"fault:{i}", 0))
            if used < f.get("times", 1):
                with_counters(lambda c, i=i: c.__setitem__(f"fault:{i}", used + 1))
                return f["how"]
    return None


def main() -> int:
    argv = sys.argv[1:]
    if argv[:1] == ["--version"]:
        print("2.1.92 (Claude Code) [autodev-state stand-in]")
        return 0
    if "-p" not in argv:
        print("stand-in claude: expected -p <prompt>", file=sys.stderr)
        return 2
    prompt = argv[argv.index("-p") + 1]
    head = prompt[:200]
    role = next((r for s, r in SYSTEMS.items() if head.startswith(s)), None) or field(prompt, "AGENT") or "?"
    task = field(prompt, "TASK") or tournament_key(prompt)[1]
    n = with_counters(lambda c: c.__setitem__("calls", c.get("calls", 0) + 1) or c["calls"])
    shown = [a if a != prompt else f"<prompt {len(prompt)} chars>" for a in argv]
    t0 = time.time()
    fault = fault_for(role, task, prompt)
    code, out = 0, ""
    if fault == "exit":
        print("stand-in claude: simulated API error (overloaded_error)", file=sys.stderr)
        code = 1
    elif fault == "garbage":
        out = "Error: the session ended unexpectedly <<not json>>\n"
    else:
        text = answer(role, prompt, Path.cwd())
        body = {
            "type": "result", "subtype": "success", "is_error": fault == "is_error",
            "duration_ms": int((time.time() - t0) * 1000), "num_turns": 1, "result": text,
            "stop_reason": "end_turn", "session_id": f"standin-{n:04d}", "total_cost_usd": 0.0,
            "usage": {}, "modelUsage": {}, "permission_denials": [], "terminal_reason": "completed",
            "uuid": f"00000000-0000-4000-8000-{n:012d}",
        }
        if fault == "is_error":
            body["error"] = "simulated is_error result"
        out = json.dumps(body)
    with open(STATE / "calls.jsonl", "a") as log:
        log.write(json.dumps({"n": n, "role": role, "task": task, "cwd": os.getcwd(), "argv": shown,
                              "fault": fault, "exit": code, "t0": t0, "t1": time.time()}) + "\n")
    sys.stdout.write(out)
    return code


if __name__ == "__main__":
    sys.exit(main())
