#!/usr/bin/env python3
"""Differential-test oracle: real pydantic v2 validating AutoDev's boundary models.

Reads JSON lines ``{"model": <name>, "input": <value>}`` on stdin and writes one
ASCII JSON line per input on stdout:

    {"ok": true, "dump": <model_dump(mode="json")>}
    {"ok": true, "dump_error": "UnicodeEncodeError"}   (validated, but the dump raised)
    {"ok": false, "locs": [[...], ...], "types": [...]}

Inputs are decoded with ``json.loads`` (so NaN/Infinity literals, big ints and
``2`` vs ``2.0`` keep Python semantics) and validated in Python (lax) mode.
Model names: Plan, Phase, Task, AcceptanceCriterion, LedgerEntry, Evidence.

The models below are written from the AutoDev state-layer design (section 3.3)
and the observed field lists; they are this project's own reproduction.
"""

from __future__ import annotations

import json
import sys
from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

Status = Literal[
    "pending", "in_progress", "coded", "auto_gated", "reviewed",
    "tested", "tournamented", "complete", "blocked", "skipped",
]

Op = Literal[
    "init_plan", "update_plan", "update_task_status", "append_evidence",
    "mark_blocked", "mark_complete", "snapshot",
    "plan_tournament_complete", "impl_tournament_complete",
]


class Strict(BaseModel):
    """Shared config: unknown keys are errors."""

    model_config = ConfigDict(extra="forbid")


class AcceptanceCriterion(Strict):
    id: str
    description: str
    met: bool = False


class Task(Strict):
    id: str
    phase_id: str
    title: str
    description: str
    status: Status = "pending"
    files: list[str] = Field(default_factory=list)
    acceptance: list[AcceptanceCriterion] = Field(default_factory=list)
    depends_on: list[str] = Field(default_factory=list)
    retry_count: int = 0
    escalated: bool = False
    assigned_agent: str | None = None
    evidence_bundle: str | None = None
    blocked_reason: str | None = None
    metadata: dict[str, Any] = Field(default_factory=dict)


class Phase(Strict):
    id: str
    title: str
    description: str = ""
    tasks: list[Task]


class Plan(Strict):
    plan_id: str
    spec_hash: str
    phases: list[Phase]
    metadata: dict[str, Any] = Field(default_factory=dict)
    created_at: str
    updated_at: str
    content_hash: str = ""


class LedgerEntry(Strict):
    seq: int
    timestamp: str
    session_id: str
    op: Op
    payload: dict[str, Any] = Field(default_factory=dict)
    prev_hash: str
    self_hash: str


class EvidenceBase(Strict):
    task_id: str


class DeveloperEv(EvidenceBase):
    kind: Literal["developer"] = "developer"
    diff: str | None = None
    files_changed: list[str] = Field(default_factory=list)
    output_text: str = ""
    duration_s: float = 0.0
    success: bool = True


class ReviewEv(EvidenceBase):
    kind: Literal["review"] = "review"
    verdict: Literal["APPROVED", "NEEDS_CHANGES", "REJECTED"]
    issues: list[str] = Field(default_factory=list)
    output_text: str = ""


class TestEv(EvidenceBase):
    kind: Literal["test"] = "test"
    passed: int = 0
    failed: int = 0
    total: int = 0
    output_text: str = ""
    coverage_pct: float | None = None


class ExploreEv(EvidenceBase):
    kind: Literal["explore"] = "explore"
    findings: str
    files_referenced: list[str] = Field(default_factory=list)


class DomainExpertEv(EvidenceBase):
    kind: Literal["domain_expert"] = "domain_expert"
    topic: str = ""
    findings: str
    confidence: Literal["HIGH", "MEDIUM", "LOW"] = "MEDIUM"


class CriticEv(EvidenceBase):
    kind: Literal["critic"] = "critic"
    verdict: Literal["APPROVED", "NEEDS_REVISION", "REJECTED"]
    issues: list[str] = Field(default_factory=list)
    output_text: str = ""


class TournamentEv(EvidenceBase):
    kind: Literal["tournament"] = "tournament"
    tournament_id: str
    phase: Literal["plan", "impl"]
    passes: int
    winner: Literal["A", "B", "AB"]
    converged: bool
    history: list[dict[str, Any]] = Field(default_factory=list)
    final_diff: str | None = None


Evidence = Annotated[
    Union[DeveloperEv, ReviewEv, TestEv, ExploreEv, DomainExpertEv, CriticEv, TournamentEv],
    Field(discriminator="kind"),
]

ADAPTERS: dict[str, TypeAdapter[Any]] = {
    "Plan": TypeAdapter(Plan),
    "Phase": TypeAdapter(Phase),
    "Task": TypeAdapter(Task),
    "AcceptanceCriterion": TypeAdapter(AcceptanceCriterion),
    "LedgerEntry": TypeAdapter(LedgerEntry),
    "Evidence": TypeAdapter(Evidence),
}


def answer(request: dict[str, Any]) -> dict[str, Any]:
    """Validates one request and returns the response object."""
    adapter = ADAPTERS[request["model"]]
    try:
        value = adapter.validate_python(request["input"])
    except ValidationError as exc:
        errors = exc.errors(include_url=False, include_context=False, include_input=False)
        return {
            "ok": False,
            "locs": [list(err["loc"]) for err in errors],
            "types": [err["type"] for err in errors],
        }
    try:
        dump = value.model_dump(mode="json")
    except Exception as exc:  # pydantic 2.13 raises UnicodeEncodeError for some lone surrogates
        return {"ok": True, "dump_error": type(exc).__name__}
    return {"ok": True, "dump": dump}


def main() -> None:
    """Answers each stdin line with one stdout line, in order."""
    out = sys.stdout
    for line in sys.stdin:
        if not line.strip():
            continue
        response = answer(json.loads(line))
        out.write(json.dumps(response, sort_keys=False, ensure_ascii=True) + "\n")
    out.flush()


if __name__ == "__main__":
    main()
