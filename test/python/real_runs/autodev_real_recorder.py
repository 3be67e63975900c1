#!/usr/bin/env python3
"""Records what Python AutoDev itself says about one workspace's `.autodev/` state.

Ours, not AutoDev's: it imports AutoDev's installed modules (run it with the venv python
that has `ai-autodev` installed) and asks them, read-only, about the workspace given as
the only argument. Prints one JSON object (sorted keys) on stdout:

    ledger      read_entries(): count, head seq/hash, one line per entry (seq, op, task, status)
                or {"error": ...} when AutoDev refuses the ledger
    replay      replay_ledger(): the replayed plan's tasks (status, retries, escalation, ...)
    load        PlanManager.load() (snapshot fast path), the same shape, and whether it equals replay
    suspend     load_suspend_state(): inline-state.json as AutoDev parses it, and whether
                InlineAdapter.has_pending_response() sees the awaited response
    evidence    list_evidence() for every task id (and "plan"): count and kinds, in AutoDev's order
    responses   every file in responses/: InlineResponseFile validation (ok or pydantic's errors)
    knowledge   KnowledgeStore.read_all() swarm / hive counts and read_rejected() count
    config      load_config(): platform, tournaments, qa_retry_limit

PlanManager.load() takes `.autodev/.lock`, so run this on a copy of a snapshot.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

from adapters.inline import InlineAdapter  # type: ignore[import-not-found]
from adapters.inline_types import InlineResponseFile  # type: ignore[import-not-found]
from config.loader import load_config  # type: ignore[import-not-found]
from orchestrator.inline_state import load_suspend_state  # type: ignore[import-not-found]
from state.evidence import list_evidence  # type: ignore[import-not-found]
from state.knowledge import KnowledgeStore  # type: ignore[import-not-found]
from state.ledger import read_entries, replay_ledger  # type: ignore[import-not-found]
from state.paths import config_path, responses_dir  # type: ignore[import-not-found]
from state.plan_manager import PlanManager  # type: ignore[import-not-found]


def failure(exc: BaseException) -> dict[str, str]:
    """An AutoDev refusal as data: the exception's type and message."""
    return {"error": type(exc).__name__, "message": str(exc)}


def plan_view(plan: Any) -> Any:
    """The parts of a Plan our tools show, in plan order."""
    if plan is None:
        return None
    tasks = []
    for phase in plan.phases:
        for t in phase.tasks:
            tasks.append(
                {
                    "id": t.id,
                    "phase_id": t.phase_id,
                    "status": t.status,
                    "retry_count": t.retry_count,
                    "escalated": t.escalated,
                    "evidence_bundle": t.evidence_bundle,
                    "blocked_reason": t.blocked_reason,
                    "depends_on": list(t.depends_on),
                }
            )
    return {
        "plan_id": plan.plan_id,
        "title": plan.metadata.get("title"),
        "spec_hash": plan.spec_hash,
        "phases": [p.id for p in plan.phases],
        "tasks": tasks,
    }


def ledger_view(cwd: Path) -> Any:
    try:
        entries = read_entries(cwd)
    except Exception as exc:  # noqa: BLE001 - the refusal is the answer
        return failure(exc)
    lines = []
    for e in entries:
        p = e.payload
        lines.append(
            {
                "seq": e.seq,
                "op": e.op,
                "task_id": p.get("task_id"),
                "status": p.get("status"),
                "session_id": e.session_id,
                "self_hash": e.self_hash,
            }
        )
    return {
        "count": len(entries),
        "head_seq": entries[-1].seq if entries else 0,
        "head_hash": entries[-1].self_hash if entries else "",
        "entries": lines,
    }


async def record(cwd: Path) -> dict[str, Any]:
    out: dict[str, Any] = {"ledger": ledger_view(cwd)}
    task_ids: list[str] = ["plan"]
    try:
        plan, _ = replay_ledger(cwd)
        out["replay"] = plan_view(plan)
        if plan is not None:
            task_ids += [t.id for ph in plan.phases for t in ph.tasks]
    except Exception as exc:  # noqa: BLE001
        out["replay"] = failure(exc)
    try:
        loaded = await PlanManager(cwd, session_id="recorder-readonly").load()
        out["load"] = plan_view(loaded)
        out["load_equals_replay"] = out["load"] == out["replay"]
    except Exception as exc:  # noqa: BLE001
        out["load"] = failure(exc)

    try:
        state = load_suspend_state(cwd)
        if state is None:
            out["suspend"] = None
        else:
            adapter = InlineAdapter(cwd=cwd)
            out["suspend"] = {
                **json.loads(state.model_dump_json()),
                "has_pending_response": adapter.has_pending_response(state.pending_task_id, state.pending_role),
            }
    except Exception as exc:  # noqa: BLE001
        out["suspend"] = failure(exc)

    evidence: dict[str, Any] = {}
    for tid in task_ids:
        bundles = await list_evidence(cwd, tid)
        evidence[tid] = {"count": len(bundles), "kinds": [b.kind for b in bundles]}
    out["evidence"] = evidence

    responses: dict[str, Any] = {}
    rdir = responses_dir(cwd)
    if rdir.is_dir():
        for p in sorted(rdir.iterdir()):
            try:
                parsed = InlineResponseFile.model_validate_json(p.read_text(encoding="utf-8"))
                responses[p.name] = {"ok": True, "task_id": parsed.task_id, "role": parsed.role}
            except Exception as exc:  # noqa: BLE001
                responses[p.name] = {"ok": False, **failure(exc)}
    out["responses"] = responses

    try:
        cfg = load_config(config_path(cwd))
        out["config"] = {
            "platform": cfg.platform,
            "plan_tournament_enabled": cfg.tournaments.plan.enabled,
            "impl_tournament_enabled": cfg.tournaments.impl.enabled,
            "auto_disable_for_models": list(cfg.tournaments.auto_disable_for_models),
            "qa_retry_limit": cfg.qa_retry_limit,
        }
        ks = KnowledgeStore(cwd, cfg=cfg)
        swarm = await ks.read_all(tier="swarm")
        hive = await ks.read_all(tier="hive") if ks.hive_enabled else []
        rejected = await ks.read_rejected()
        out["knowledge"] = {"swarm": len(swarm), "hive": len(hive), "rejected": len(rejected)}
    except Exception as exc:  # noqa: BLE001
        out["config"] = failure(exc)
    return out


def main() -> None:
    if len(sys.argv) != 2:
        sys.exit("usage: autodev_real_recorder.py WORKSPACE")
    print(json.dumps(asyncio.run(record(Path(sys.argv[1]).resolve())), sort_keys=True, indent=2))


if __name__ == "__main__":
    main()
