#!/usr/bin/env python3
"""Differential-test oracle for config.json, inline files, knowledge ranking and timestamps.

Reads JSON lines on stdin, writes one JSON line per request on stdout:

    {"op": "config", "text": <config.json text>}     -> {"ok": bool, "locs": [[...]], "roles_missing": bool}
    {"op": "response", "text": <response file text>} -> {"ok": bool, "locs": [[...]]}
    {"op": "suspend", "text": <inline-state text>}    -> {"ok": bool, "locs": [[...]]}
    {"op": "rank", "entry": {...}, "now": <epoch s>}  -> {"rank": float} | {"invalid": true}
    {"op": "epoch", "ts": <string>}                   -> {"epoch": float}   (0.0 where Python fails)

With AUTODEV_PY_SRC set to a clone of the AutoDev repository (and filelock, structlog
installed) the REAL modules answer: config.schema.AutodevConfig + require_all_roles,
adapters.inline_types, state.knowledge.KnowledgeStore._rank_with_ts and
_timestamp_to_epoch. Without it, this project's own reproduction below answers (written
from the AutoDev source's field lists and formulas; no AutoDev code is copied). The first
output line says which: {"oracle": "real" | "reproduction"}.
"""

from __future__ import annotations

import json
import math
import os
import sys
from datetime import datetime
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

SRC = os.environ.get("AUTODEV_PY_SRC")
if SRC:
    sys.path.insert(0, str(Path(SRC) / "src"))
    from adapters.inline_types import InlineResponseFile, InlineSuspendState  # type: ignore
    from config.schema import AutodevConfig  # type: ignore
    from state.knowledge import KnowledgeEntry, KnowledgeStore, _timestamp_to_epoch  # type: ignore

    _store = KnowledgeStore(Path("."))

    def rank(entry: Any, now: float) -> float:
        return _store._rank_with_ts(entry, now)

    def epoch(ts: str) -> float:
        return _timestamp_to_epoch(ts)

    def roles_missing(cfg: Any) -> bool:
        try:
            cfg.require_all_roles()
            return False
        except ValueError:
            return True

    KIND = "real"
else:
    KIND = "reproduction"

    class _F(BaseModel):
        model_config = ConfigDict(extra="forbid")

    class AgentConfig(_F):
        model: str | None = None
        disabled: bool = False
        max_turns: int | None = None

    class TournamentPhaseConfig(_F):
        enabled: bool
        num_judges: int
        convergence_k: int
        max_rounds: int

    class TournamentsConfig(_F):
        plan: TournamentPhaseConfig
        impl: TournamentPhaseConfig
        max_parallel_subprocesses: int = 3
        auto_disable_for_models: list[str] = Field(default_factory=lambda: ["opus"])

    class QAGatesConfig(_F):
        syntax_check: bool = True
        lint: bool = True
        build_check: bool = True
        test_runner: bool = True
        secretscan: bool = True
        sast_scan: bool = False
        mutation_test: bool = False

    class GuardrailsConfig(_F):
        max_invocations_per_task: int = 60
        max_tool_calls_per_task: int = 60
        max_duration_s_per_task: int = 900
        max_diff_bytes: int = 5_242_880
        cost_budget_usd_per_plan: float | None = None

    class HiveConfig(_F):
        enabled: bool = True
        path: Path

    class KnowledgeConfig(_F):
        enabled: bool = True
        swarm_max_entries: int = 100
        hive_max_entries: int = 200
        dedup_threshold: float = 0.6
        max_inject_count: int = 5
        hive_enabled: bool = True
        promotion_min_confirmations: int = 3
        promotion_min_confidence: float = 0.7
        denylist_roles: list[str] = Field(default_factory=list)

    class AutodevConfig(_F):  # type: ignore[no-redef]
        schema_version: Literal["1.0.0"] = "1.0.0"
        platform: Literal["claude_code", "cursor", "inline", "auto"] = "auto"
        agents: dict[str, AgentConfig]
        tournaments: TournamentsConfig
        qa_gates: QAGatesConfig = Field(default_factory=QAGatesConfig)
        qa_retry_limit: int = 3
        guardrails: GuardrailsConfig = Field(default_factory=GuardrailsConfig)
        hive: HiveConfig
        knowledge: KnowledgeConfig = Field(default_factory=KnowledgeConfig)

    ROLES = ("architect", "explorer", "domain_expert", "developer", "reviewer", "test_engineer", "critic_sounding_board",
             "critic_drift_verifier", "docs", "designer", "critic_t", "architect_b", "synthesizer", "judge")

    def roles_missing(cfg: Any) -> bool:
        return any(r not in cfg.agents for r in ROLES)

    class InlineSuspendState(_F):  # type: ignore[no-redef]
        schema_version: Literal["1.0"] = "1.0"
        session_id: str
        suspended_at: str
        pending_task_id: str
        pending_role: str
        delegation_path: str
        response_path: str
        orchestrator_step: Literal["developer", "reviewer", "test_engineer", "critic_sounding_board", "plan_explorer", "plan_domain_expert", "plan_architect"]
        retry_count: int = 0
        last_issues: list[str] = Field(default_factory=list)

    class InlineResponseFile(_F):  # type: ignore[no-redef]
        schema_version: Literal["1.0"] = "1.0"
        task_id: str
        role: str
        success: bool
        text: str
        error: str | None = None
        duration_s: float = 0.0
        files_changed: list[str] = Field(default_factory=list)
        diff: str | None = None

    class KnowledgeEntry(BaseModel):  # type: ignore[no-redef]
        id: str
        timestamp: str
        role_source: str
        tier: Literal["swarm", "hive"]
        text: str
        confidence: float = 0.5
        applied_count: int = 0
        succeeded_after_count: int = 0
        confirmations: int = 0
        metadata: dict[str, Any] = Field(default_factory=dict)

    def epoch(ts: str) -> float:
        try:
            return datetime.fromisoformat(ts).timestamp()
        except Exception:
            return 0.0

    def rank(entry: Any, now: float) -> float:
        e = epoch(entry.timestamp)
        recency = 0.5 if e <= 0.0 or max(0.0, now - e) >= 30 * 86400.0 else 1.0 - 0.5 * (max(0.0, now - e) / (30 * 86400.0))
        return float(entry.confidence) * recency * (1.0 + math.log(max(0, entry.applied_count) + 1))


def locs(exc: ValidationError) -> list[list[Any]]:
    return [list(e["loc"]) for e in exc.errors()]


def answer(req: dict[str, Any]) -> dict[str, Any]:
    op = req["op"]
    if op in ("config", "response", "suspend"):
        model = {"config": AutodevConfig, "response": InlineResponseFile, "suspend": InlineSuspendState}[op]
        try:
            obj = model.model_validate_json(req["text"])
        except ValidationError as exc:
            return {"ok": False, "locs": locs(exc)}
        out: dict[str, Any] = {"ok": True, "locs": []}
        if op == "config":
            out["roles_missing"] = roles_missing(obj)
            out["qa_retry_limit"] = obj.qa_retry_limit
        return out
    if op == "rank":
        try:
            entry = KnowledgeEntry.model_validate(req["entry"])
        except ValidationError:
            return {"invalid": True}
        return {"rank": rank(entry, float(req["now"]))}
    if op == "epoch":
        return {"epoch": epoch(req["ts"])}
    raise SystemExit(f"unknown op {op}")


print(json.dumps({"oracle": KIND}), flush=True)
for line in sys.stdin:
    if line.strip():
        print(json.dumps(answer(json.loads(line))), flush=True)
