"""The live recording's file format, its writer and a replay that proves it (ours).

`live-<command>.jsonl.gz`: gzip'd JSON lines. The first line is a header
`{"format": "autodev-live/1", "command": ..., "duration_ms": ..., "events": N, "pauses_cut_ms": ...}`;
every other line is one file-changing call AutoDev (or a process it started) made under
`.autodev/`, in order:

    {"t": ms since the command started (the driver's snapshot pauses cut out), "op": OP, "path": REL, ...}

    mkdir / rmdir / unlink      path
    create                      path, mode ("0600" or null): created or truncated, empty
    open                        path, mode: opened for writing without truncating (created if missing)
    write                       path, offset (-1 = append), data (base64) | same_as (the bytes are
                                exactly the current content of that file: AutoDev's ledger append
                                copies the whole ledger into its temp file first)
    truncate                    path, size
    rename                      from (null when it came from outside .autodev/), path (null when it went out)
    lock / unlock               `.autodev/.lock` taken / released (flock LOCK_EX / LOCK_UN), pid

`replay()` applies the events to a folder; the writer checks that replaying the whole recording
rebuilds the project's `.autodev/` byte for byte, so nothing AutoDev wrote is missing from it.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any, Iterable

SKIP = ("__pycache__", ".pytest_cache")


def _cut(t: float, pauses: list[tuple[float, float]]) -> float:
    return t - sum(min(b, t) - a for a, b in pauses if a < t)


def compact(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Replace a write whose bytes equal another file's current content by `same_as` (bounded size)."""
    content: dict[str, bytes] = {}
    out: list[dict[str, Any]] = []
    for ev in events:
        ev = dict(ev)
        if ev["op"] == "write" and len(ev["data"]) > 512:
            data = base64.b64decode(ev["data"])
            same = next((p for p, c in content.items() if p != ev["path"] and c == data), None)
            if same is not None:
                del ev["data"]
                ev["same_as"] = same
        apply_in_memory(content, ev, events_data=ev.get("data"))
        out.append(ev)
    return out


def apply_in_memory(content: dict[str, bytes], ev: dict[str, Any], events_data: str | None) -> None:
    op, path = ev["op"], ev.get("path")
    if op == "create":
        content[path] = b""
    elif op == "open":
        content.setdefault(path, b"")
    elif op == "write":
        data = content[ev["same_as"]] if "same_as" in ev else base64.b64decode(events_data or "")
        cur = content.get(path, b"")
        off = ev["offset"]
        content[path] = cur + data if off < 0 else cur[:off] + data + cur[off + len(data):]
    elif op == "truncate":
        content[path] = content.get(path, b"")[: ev["size"]]
    elif op == "rename":
        src = ev.get("from")
        data = content.pop(src, b"") if src else b""
        if path:
            content[path] = data
    elif op == "unlink":
        content.pop(path, None)


def replay(events: Iterable[dict[str, Any]], root: Path) -> None:
    """Apply the events to root (a workspace folder), as fast as possible."""
    for ev in events:
        op, rel = ev["op"], ev.get("path")
        p = root / rel if rel else None
        if op == "mkdir":
            p.mkdir(parents=True, exist_ok=True)  # type: ignore[union-attr]
        elif op == "rmdir":
            try:
                p.rmdir()  # type: ignore[union-attr]
            except OSError:
                pass
        elif op == "unlink":
            p.unlink(missing_ok=True)  # type: ignore[union-attr]
        elif op in ("create", "open"):
            p.parent.mkdir(parents=True, exist_ok=True)  # type: ignore[union-attr]
            fd = os.open(p, os.O_WRONLY | os.O_CREAT | (os.O_TRUNC if op == "create" else 0), int(ev["mode"] or "0644", 8))
            os.close(fd)
        elif op == "write":
            data = (root / ev["same_as"]).read_bytes() if "same_as" in ev else base64.b64decode(ev["data"])
            with open(p, "r+b" if p.exists() else "wb") as fh:  # type: ignore[arg-type, union-attr]
                fh.seek(0, 2) if ev["offset"] < 0 else fh.seek(ev["offset"])
                fh.write(data)
        elif op == "truncate":
            os.truncate(p, ev["size"])  # type: ignore[arg-type]
        elif op == "rename":
            src = root / ev["from"] if ev.get("from") else None
            if src and p:
                p.parent.mkdir(parents=True, exist_ok=True)
                os.replace(src, p)
            elif src:
                src.unlink(missing_ok=True)


def tree_digest(root: Path) -> dict[str, str]:
    out: dict[str, str] = {}
    base = root / ".autodev"
    for p in sorted(base.rglob("*")) if base.is_dir() else []:
        rel = p.relative_to(root).as_posix()
        if any(s in rel.split("/") for s in SKIP):
            continue
        out[rel] = "dir" if p.is_dir() else hashlib.sha256(p.read_bytes()).hexdigest()
    return out


def write_live(out: Path, events: list[dict[str, Any]], pauses: list[tuple[float, float]], t_start: float,
               project: Path, before: Path | None = None) -> dict[str, Any]:
    """Write the recording; check that `before` (a copy of the project before the command) plus it is the project now."""
    rows = []
    for ev in compact(events):
        ev["t"] = round((_cut(ev["t"], pauses) - _cut(t_start, pauses)) * 1000, 3)
        rows.append(ev)
    header = {"format": "autodev-live/1", "command": out.name[len("live-"): -len(".jsonl.gz")],
              "duration_ms": rows[-1]["t"] if rows else 0, "events": len(rows),
              "pauses_cut_ms": round(sum(b - a for a, b in pauses) * 1000, 1)}
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        if before is not None and (before / ".autodev").is_dir():
            import shutil

            shutil.copytree(before / ".autodev", root / ".autodev", symlinks=True,
                            ignore=shutil.ignore_patterns(*SKIP))
        replay(rows, root)
        want, got = tree_digest(project), tree_digest(root)
        header["replay_rebuilds_autodev_dir"] = want == got
        if want != got:
            diff = sorted(k for k in set(want) | set(got) if want.get(k) != got.get(k))
            header["replay_differs"] = diff[:20]
    out.parent.mkdir(parents=True, exist_ok=True)
    with gzip.open(out, "wt", encoding="utf-8", compresslevel=9) as fh:
        fh.write(json.dumps(header, sort_keys=True) + "\n")
        for ev in rows:
            fh.write(json.dumps(ev, sort_keys=True) + "\n")
    print(f"live recording {out.name}: {len(rows)} events, {header['duration_ms'] / 1000:.1f} s, "
          f"rebuilds .autodev/: {header['replay_rebuilds_autodev_dir']}", flush=True)
    return header
