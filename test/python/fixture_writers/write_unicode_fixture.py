#!/usr/bin/env python3
"""Writes test/fixtures/python-unicode: a ledger and plan.json written by Python's
own json module (ensure_ascii, sort_keys, indent=2) with design section 5.1's hash
rule, holding non-ASCII titles (Latin, CJK, emoji, RTL) — what Python AutoDev
writes for such a plan. Deterministic (fixed timestamps).

usage: write_unicode_fixture.py OUT_DIR
"""
import hashlib
import json
import os
import sys


def task(tid, title, status="pending", **extra):
    t = {"id": tid, "phase_id": tid.split(".")[0], "title": title, "description": extra.pop("description", ""),
         "status": status, "files": [], "acceptance": [], "depends_on": [], "retry_count": 0, "escalated": False,
         "assigned_agent": None, "evidence_bundle": None, "blocked_reason": None, "metadata": {}}
    t.update(extra)
    return t


PLAN = {
    "plan_id": "p-unicode", "spec_hash": "5eed5eed5eed5eed",
    "phases": [
        {"id": "1", "title": "Überblick & Grundlagen", "description": "Phase eins", "tasks": [
            task("1.1", "Übersetzung prüfen — naïve café", description="Prüfe die Übersetzung."),
            task("1.2", "日本語のドキュメントを書く", depends_on=["1.1"]),
            task("1.3", "Emoji 🚀 launch checklist ✓", acceptance=[{"id": "1.3-a", "description": "Rakete 🚀 fliegt", "met": False}]),
        ]},
        {"id": "2", "title": "مرحلة الإطلاق", "description": "", "tasks": [
            task("2.1", "שלום — RTL title", metadata={"10": "ten", "9": "nine", "ключ": "значение"}),
        ]},
    ],
    "metadata": {"title": "Internationaler Plan — 国際 🌍"},
    "created_at": "2026-11-30T01:00:00.000001+00:00", "updated_at": "2026-11-30T01:00:00.000002+00:00",
    "content_hash": "",
}


def main(out):
    root = os.path.join(out, ".autodev")
    os.makedirs(root, exist_ok=True)
    lines, prev, seq = [], "", 0
    plan = json.loads(json.dumps(PLAN))

    def add(op, payload, ts):
        nonlocal prev, seq
        seq += 1
        body = {"seq": seq, "timestamp": ts, "session_id": "sess-ünï", "op": op, "payload": payload, "prev_hash": prev}
        body["self_hash"] = hashlib.sha256(json.dumps(body, sort_keys=True).encode("utf-8")).hexdigest()[:16]
        prev = body["self_hash"]
        lines.append(json.dumps(body, sort_keys=True) + "\n")

    add("init_plan", {"plan": plan}, "2026-11-30T01:00:00.000003+00:00")
    add("snapshot", {"plan": plan}, "2026-11-30T01:00:00.000004+00:00")
    for i, (tid, status) in enumerate([("1.1", "in_progress"), ("1.1", "coded"), ("1.2", "in_progress"), ("1.3", "skipped")]):
        add("update_task_status", {"task_id": tid, "status": status}, f"2026-11-30T01:00:0{i + 1}.000000+00:00")
        for ph in plan["phases"]:
            for t in ph["tasks"]:
                if t["id"] == tid:
                    t["status"] = status
        plan["updated_at"] = f"2026-11-30T01:00:0{i + 1}.500000+00:00"
        add("snapshot", {"plan": plan}, f"2026-11-30T01:00:0{i + 1}.600000+00:00")
    with open(os.path.join(root, "plan-ledger.jsonl"), "w", encoding="utf-8") as fh:
        fh.writelines(lines)
    with open(os.path.join(root, "plan.json"), "w", encoding="utf-8") as fh:
        fh.write(json.dumps(plan, indent=2) + "\n")
    open(os.path.join(root, ".lock"), "a").close()


if __name__ == "__main__":
    main(sys.argv[1])
