#!/usr/bin/env python3
"""Reference behaviour of Python AutoDev's ledger reading, for differential tests.

This project's own reproduction (from the state-layer design and the documented
behaviour), using pydantic models from pydantic_oracle.py:
  - read_entries: universal newlines, str.strip(), blank lines skipped, per line
    json.loads -> LedgerEntry.model_validate -> seq -> prev_hash -> self_hash over
    model_dump(mode="json") without self_hash; stops at the first problem.
  - replay_ledger: applies every op from genesis with the strict rules.
  - load: latest snapshot, then later entries with the tolerant rules.

usage: ledger_reference.py FILE [FILE ...]   -> one ASCII JSON line per file:
  {"entries": N, "first": {"line": L|null, "seq": S|null, "kind": K}|null,
   "replay": <plan dump>|null, "load": <plan dump>|null, "load_error": K|null}
"""
from __future__ import annotations

import copy
import hashlib
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pydantic import ValidationError  # noqa: E402
from pydantic_oracle import LedgerEntry, Plan  # noqa: E402

PLAN_OPS = ("init_plan", "update_plan", "snapshot")


class Corrupt(Exception):
    def __init__(self, kind, line=None, seq=None):
        super().__init__(kind)
        self.kind, self.line, self.seq = kind, line, seq


def read_entries(path):
    entries, prev_hash, prev_seq = [], "", 0
    try:
        fh = open(path, "r", encoding="utf-8")
    except FileNotFoundError:
        return []
    with fh:
        try:
            for idx, raw in enumerate(fh, start=1):
                line = raw.strip()
                if not line:
                    continue
                try:
                    obj = json.loads(line)
                except ValueError:
                    raise Corrupt("invalid_json", line=idx)
                try:
                    entry = LedgerEntry.model_validate(obj)
                except ValidationError:
                    raise Corrupt("schema", line=idx)
                if entry.seq != prev_seq + 1:
                    raise Corrupt("seq_jump", line=idx, seq=entry.seq)
                if entry.prev_hash != prev_hash:
                    raise Corrupt("prev_hash_mismatch", line=idx, seq=entry.seq)
                body = entry.model_dump(mode="json")
                body.pop("self_hash", None)
                want = hashlib.sha256(json.dumps(body, sort_keys=True).encode("utf-8")).hexdigest()[:16]
                if want != entry.self_hash:
                    raise Corrupt("self_hash_mismatch", line=idx, seq=entry.seq)
                entries.append(entry)
                prev_hash, prev_seq = entry.self_hash, entry.seq
        except UnicodeDecodeError:
            raise Corrupt("invalid_json", line=None)
    return entries


def find_task(plan, task_id):
    for phase in plan.phases:
        for task in phase.tasks:
            if task.id == task_id:
                return task
    return None


def set_fields(entry, task, payload, status):
    if status is not None:
        task.status = status
    if "blocked_reason" in payload:
        task.blocked_reason = payload["blocked_reason"]
    if "retry_count" in payload:
        try:
            task.retry_count = int(payload["retry_count"])
        except (TypeError, ValueError, OverflowError):
            raise Corrupt("bad_payload", seq=entry.seq)
    if "escalated" in payload:
        task.escalated = bool(payload["escalated"])
    if "evidence_bundle" in payload:
        task.evidence_bundle = payload["evidence_bundle"]


def validated(entry, raw):
    try:
        return Plan.model_validate(raw)
    except ValidationError:
        raise Corrupt("plan_invalid", seq=entry.seq)


def apply_strict(plan, entry):
    op, payload = entry.op, entry.payload
    if op in PLAN_OPS:
        raw = payload.get("plan")
        if raw is None:
            raise Corrupt("missing_plan_payload", seq=entry.seq)
        return validated(entry, raw)
    if op in ("plan_tournament_complete", "impl_tournament_complete"):
        return plan
    if plan is None:
        raise Corrupt("before_init", seq=entry.seq)
    if op == "update_task_status":
        task_id, status = payload.get("task_id"), payload.get("status")
        if not isinstance(task_id, str) or not isinstance(status, str):
            raise Corrupt("bad_payload", seq=entry.seq)
        task = find_task(plan, task_id)
        if task is None:
            raise Corrupt("unknown_task", seq=entry.seq)
        set_fields(entry, task, payload, status)
        return plan
    if op in ("mark_blocked", "mark_complete"):
        task_id = payload.get("task_id")
        if not isinstance(task_id, str):
            raise Corrupt("bad_payload", seq=entry.seq)
        task = find_task(plan, task_id)
        if task is not None:
            task.status = "blocked" if op == "mark_blocked" else "complete"
            if op == "mark_blocked":
                task.blocked_reason = payload.get("reason")
        return plan
    if op == "append_evidence":
        task_id, path = payload.get("task_id"), payload.get("path")
        if isinstance(task_id, str) and isinstance(path, str):
            task = find_task(plan, task_id)
            if task is not None:
                task.evidence_bundle = path
        return plan
    raise Corrupt("unknown_op", seq=entry.seq)


def apply_tolerant(plan, entry):
    op, payload = entry.op, entry.payload
    if op in PLAN_OPS:
        if "plan" not in payload:
            raise Corrupt("missing_plan_payload", seq=entry.seq)
        return validated(entry, payload["plan"])
    if op == "update_task_status":
        task = find_task(plan, payload.get("task_id", ""))
        if task is None:
            return plan
        status = payload.get("status")
        set_fields(entry, task, payload, status if isinstance(status, str) else None)
        return plan
    if op in ("mark_blocked", "mark_complete"):
        task = find_task(plan, payload.get("task_id", ""))
        if task is not None:
            task.status = "blocked" if op == "mark_blocked" else "complete"
            if op == "mark_blocked":
                task.blocked_reason = payload.get("reason")
        return plan
    if op == "append_evidence":
        task = find_task(plan, payload.get("task_id", ""))
        path = payload.get("path")
        if task is not None and isinstance(path, str):
            task.evidence_bundle = path
        return plan
    return plan


def dump(plan):
    if plan is None:
        return None
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return plan.model_dump(mode="json")


def run(path):
    out = {"entries": 0, "first": None, "replay": None, "load": None, "load_error": None}
    try:
        entries = read_entries(path)
    except Corrupt as c:
        out["first"] = {"line": c.line, "seq": c.seq, "kind": c.kind}
        out["load_error"] = c.kind
        return out
    out["entries"] = len(entries)
    plan = None
    try:
        for e in copy.deepcopy(entries):
            plan = apply_strict(plan, e)
        out["replay"] = dump(plan)
    except Corrupt as c:
        out["first"] = {"line": None, "seq": c.seq, "kind": c.kind}
    try:
        snap = None
        for i in range(len(entries) - 1, -1, -1):
            if entries[i].op == "snapshot":
                snap = i
                break
        es = copy.deepcopy(entries)
        if snap is not None:
            if "plan" not in es[snap].payload:
                raise Corrupt("missing_plan_payload", seq=es[snap].seq)
            p = validated(es[snap], es[snap].payload["plan"])
            for later in es[snap + 1:]:
                p = apply_tolerant(p, later)
        else:
            p = None
            for e in es:
                p = apply_strict(p, e)
        out["load"] = dump(p)
    except Corrupt as c:
        out["load_error"] = c.kind
    return out


if __name__ == "__main__":
    for f in sys.argv[1:]:
        print(json.dumps(run(f), sort_keys=True))
