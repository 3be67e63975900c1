#!/usr/bin/env python3
"""Differential-test oracle for config.json, inline files, knowledge ranking and timestamps.

Reads JSON lines on stdin, writes one JSON line per request on stdout:

    {"op": "config", "text": <config.json text>}     -> {"ok": bool, "locs": [[...]], "roles_missing": bool}
    {"op": "response", "text": <response file text>} -> {"ok": bool, "locs": [[...]]}
    {"op": "suspend", "text": <inline-state text>}    -> {"ok": bool, "locs": [[...]]}
    {"op": "rank", "entry": {...}, "now": <epoch s>}  -> {"rank": float} | {"invalid": true}
    {"op": "epoch", "ts": <string>}                   -> {"epoch": float}   (0.0 where Python fails)

AUTODEV_PY_SRC names an AutoDev checkout (or its src/), and the Python running this has its
dependencies (filelock, structlog: AUTODEV_PYTHON, the venv AutoDev is installed in); the REAL
modules answer: config.schema.AutodevConfig + require_all_roles, adapters.inline_types,
state.knowledge.KnowledgeStore._rank_with_ts and _timestamp_to_epoch. The first output line is
{"oracle": "real"}. The tests keep these answers in test/fixtures/autodev-oracle/answers.json
(test/unit/helpers/autodevOracle.ts), so CI, without AutoDev, checks against them.
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
if not SRC:
    sys.exit("autodev_oracle.py asks the real AutoDev: set AUTODEV_PY_SRC to its checkout (or its src/)")
# A checkout or its src/ folder.
sys.path.insert(0, str(Path(SRC) / "src" if (Path(SRC) / "src" / "adapters").is_dir() else Path(SRC)))
from adapters.inline_types import InlineResponseFile, InlineSuspendState  # type: ignore  # noqa: E402
from config.schema import AutodevConfig  # type: ignore  # noqa: E402
from state.knowledge import KnowledgeEntry, KnowledgeStore, _timestamp_to_epoch  # type: ignore  # noqa: E402

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
