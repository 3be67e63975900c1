"""Runs Python AutoDev's own PlanManager through a list of calls, for the bench's
PlanManager ledger (bench/planManagerLedger.ts) to be checked against what the
real writer writes (test/unit/writer/planManagerLedger.test.ts).

usage: PYTHONPATH=<AutoDev src> python plan_manager_writer.py WORKSPACE SPEC.json

SPEC: {"session_id": str, "plan": <a Plan as JSON>, "calls": [<call>, ...]} where a call is
{"call": "update_task_status", "task_id", "status", "meta": {...}, "unchecked": bool},
{"call": "mark_task_retry", "task_id"}, {"call": "mark_escalated", "task_id"} or
{"call": "save"} (the plan loaded, every task back to pending, saved).

AutoDev writes WORKSPACE/.autodev/ itself (PlanManager.init_plan, then each call, each
under its own plan lock). Nothing of it is changed, with two exceptions, both said here:
- its clock is wrapped to record what each `_iso_now()` returned, in call order (the
  values are its own; the generator is given them to write the same bytes);
- for a call marked "unchecked" (a move the state machine refuses, as the bench's
  random moves are) `orchestrator.task_state.assert_transition` is a no-op for that
  call only: the bytes are what update_task_status writes when the check passes.

Prints {"clock": [<every _iso_now() value, in call order>], "calls": N}.
"""

import asyncio
import json
import sys
from pathlib import Path

import orchestrator.task_state as task_state
import state.ledger as ledger
import state.plan_manager as plan_manager
from state.plan_manager import PlanManager
from state.schemas import Plan

CLOCK: list[str] = []


def recording(read):
    def now() -> str:
        value = read()
        CLOCK.append(value)
        return value

    return now


async def run(cwd: Path, spec: dict) -> int:
    ledger._iso_now = recording(ledger._iso_now)
    plan_manager._iso_now = recording(plan_manager._iso_now)
    pm = PlanManager(cwd, spec["session_id"])
    await pm.init_plan(Plan.model_validate(spec["plan"]))
    checked = task_state.assert_transition
    for c in spec["calls"]:
        kind = c["call"]
        if kind == "update_task_status":
            task_state.assert_transition = (lambda a, b: None) if c["unchecked"] else checked
            try:
                await pm.update_task_status(c["task_id"], c["status"], c["meta"] or None)
            finally:
                task_state.assert_transition = checked
        elif kind == "mark_task_retry":
            await pm.mark_task_retry(c["task_id"])
        elif kind == "mark_escalated":
            await pm.mark_escalated(c["task_id"])
        elif kind == "save":
            plan = await pm.load()
            for phase in plan.phases:
                for task in phase.tasks:
                    task.status = "pending"
                    task.retry_count = 0
                    task.escalated = False
                    task.evidence_bundle = None
                    task.blocked_reason = None
            await pm.save(plan)
        else:
            raise SystemExit(f"unknown call {kind!r}")
    return len(spec["calls"])


def main() -> None:
    cwd, spec = Path(sys.argv[1]), json.loads(Path(sys.argv[2]).read_text(encoding="utf-8"))
    n = asyncio.run(run(cwd, spec))
    print(json.dumps({"clock": CLOCK, "calls": n}))


if __name__ == "__main__":
    main()
