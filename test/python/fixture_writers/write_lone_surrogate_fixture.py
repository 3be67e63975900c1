#!/usr/bin/env python3
"""Writes test/fixtures/lone-surrogate-keys with the real Python AutoDev (ai-autodev 0.1.1) and
records what its own reader (state.ledger.read_entries) says of each ledger in expected.json.

usage: write_lone_surrogate_fixture.py AUTODEV_SRC OUT_DIR
  AUTODEV_SRC: the src/ folder of a checkout of AutoDev (e.g. /tmp/pyautodev/src)

Cases (one workspace folder each, one entry per ledger):
  top-key-python-writer   append_entry() with payload {"\\ud800": 1}: the real writer's own line
  top-key-rederived-hash  the same entry with self_hash over what the reader re-derives
  nested-key              payload {"a": {"\\udfff x": [1]}}, hash over the raw payload
  value                   append_entry() with payload {"k": "\\udc00"} (a lone surrogate in a value)
"""
import asyncio, hashlib, json, os, sys
from pathlib import Path

src, out = sys.argv[1], Path(sys.argv[2])
sys.path.insert(0, src)
import structlog  # noqa: E402
structlog.configure(logger_factory=structlog.PrintLoggerFactory(file=open(os.devnull, "w")))
from state import ledger  # noqa: E402

def h(d):
    return hashlib.sha256(json.dumps(d, sort_keys=True).encode("utf-8")).hexdigest()[:16]

def body(payload):
    return {"seq": 1, "timestamp": "2026-01-01T00:00:00+00:00", "session_id": "s", "op": "impl_tournament_complete", "payload": payload, "prev_hash": ""}

def write_line(name, entry):
    d = out / name / ".autodev"
    d.mkdir(parents=True, exist_ok=True)
    (d / "plan-ledger.jsonl").write_text(json.dumps(entry, sort_keys=True) + "\n")

async def main():
    for name, payload in [("top-key-python-writer", {"\ud800": 1}), ("value", {"k": "\udc00"})]:
        ws = out / name
        ws.mkdir(parents=True, exist_ok=True)
        e = await ledger.append_entry(ws, "impl_tournament_complete", payload, "s")
        # fixed timestamp for a stable fixture: rewrite the line with the same hash rule the writer used
        line = json.loads((ws / ".autodev" / "plan-ledger.jsonl").read_text())
        raw = body(payload)
        line.update(timestamp=raw["timestamp"], self_hash=h(raw))
        write_line(name, line)
    b = body({"\ud800": 1})
    e = ledger.LedgerEntry.model_validate(dict(b, self_hash="x"))
    d = e.model_dump(mode="json"); d.pop("self_hash")
    write_line("top-key-rederived-hash", dict(d, self_hash=h(d)))
    nb = body({"a": {"\udfff x": [1]}})
    write_line("nested-key", dict(nb, self_hash=h(nb)))
    verdicts = {}
    for ws in sorted(p for p in out.iterdir() if p.is_dir()):
        try:
            n = len(ledger.read_entries(ws))
            verdicts[ws.name] = {"python_read": "ok", "entries": n}
        except Exception as ex:
            verdicts[ws.name] = {"python_read": "error", "error": type(ex).__name__}
    (out / "expected.json").write_text(json.dumps(verdicts, indent=2, sort_keys=True) + "\n")

asyncio.run(main())
