"""The live recording of an AutoDev run: its file writes under `.autodev/`, in order and in time (ours).

The driver runs each AutoDev command under `strace -ff -ttt -y -xx -s 1048576 -o <dir>/tr`
(one file per process and thread: AutoDev, its writer threads, git, pytest, the stand-in),
tracing only the calls that change files (STRACE_CALLS). This module merges those files by
time and keeps the calls on paths under the project's `.autodev/` (less `__pycache__` and
`.pytest_cache`): every create/truncate, write (with its bytes and offset), rename, unlink,
mkdir, rmdir, and every flock on `.autodev/.lock` (taken and released). Relative paths are
resolved with the process's working directory, which `-y` shows on every `AT_FDCWD` and which
`chdir` changes. The events are what a replay applies, one by one, at their recorded times.
"""

from __future__ import annotations

import base64
import re
from pathlib import Path
from typing import Any

STRACE_CALLS = (
    "openat,open,creat,write,pwrite64,rename,renameat,renameat2,unlink,unlinkat,mkdir,mkdirat,rmdir,"
    "flock,ftruncate,chdir"
)
LINE = re.compile(r"^(\d+\.\d+) (\w+)\((.*)\) += (-?\d+)(?:<(.*?)>)?(?: .*)?$")
HEX = re.compile(r'"((?:\\x[0-9a-f]{2})*)"')
FD = re.compile(r"^(-?\d+|AT_FDCWD)<((?:\\x[0-9a-f]{2})*)>")
SKIP = ("__pycache__", ".pytest_cache")


def unhex(s: str) -> bytes:
    return bytes.fromhex(s.replace("\\x", ""))


def _split_args(args: str) -> list[str]:
    """Top-level comma split (strings are hex, so no quoted commas; braces and brackets nest)."""
    out, depth, cur = [], 0, ""
    for ch in args:
        if ch in "{[(":
            depth += 1
        elif ch in "}])":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


class Tracer:
    """Turns strace -ff files into `.autodev/` events relative to the project."""

    def __init__(self, project: Path) -> None:
        self.project = str(project)
        self.autodev = self.project + "/.autodev"
        self.cwd: dict[str, str] = {}
        self.offsets: dict[str, int] = {}

    def rel(self, path: str) -> str | None:
        if not (path == self.autodev or path.startswith(self.autodev + "/")):
            return None
        rel = path[len(self.project) + 1:]
        return None if any(part in SKIP for part in rel.split("/")) else rel

    def absolute(self, pid: str, raw: str, dirfd: str | None = None) -> str:
        p = unhex(raw).decode("utf-8", "surrogateescape")
        if p.startswith("/"):
            return p
        base = dirfd if dirfd is not None else self.cwd.get(pid, self.project)
        return str(Path(base) / p)

    def events(self, trace_dir: Path) -> list[dict[str, Any]]:
        rows: list[tuple[float, str, str, list[str], int, str | None]] = []
        for f in trace_dir.glob("tr.*"):
            pid = f.name.split(".", 1)[1]
            for line in f.read_text(errors="replace").splitlines():
                m = LINE.match(line)
                if m:
                    rows.append((float(m.group(1)), pid, m.group(2), _split_args(m.group(3)), int(m.group(4)), m.group(5)))
        rows.sort(key=lambda r: r[0])
        out: list[dict[str, Any]] = []
        for t, pid, call, args, ret, ret_path in rows:
            for a in args:
                fm = FD.match(a)
                if fm and fm.group(1) == "AT_FDCWD":
                    self.cwd[pid] = unhex(fm.group(2)).decode("utf-8", "surrogateescape")
            ev = self.event(pid, call, args, ret, ret_path)
            if ev:
                ev["t"] = t
                out.append(ev)
        return out

    def _fd_path(self, arg: str) -> tuple[str, str] | None:
        m = FD.match(arg)
        return (m.group(1), unhex(m.group(2)).decode("utf-8", "surrogateescape")) if m else None

    def event(self, pid: str, call: str, args: list[str], ret: int, ret_path: str | None) -> dict[str, Any] | None:
        if ret < 0:
            return None
        if call == "chdir":
            self.cwd[pid] = self.absolute(pid, HEX.match(args[0]).group(1))  # type: ignore[union-attr]
            return None
        if call in ("openat", "open", "creat"):
            flags = args[2] if call == "openat" else args[1] if call == "open" else "O_CREAT|O_TRUNC"
            path = unhex(ret_path).decode("utf-8", "surrogateescape") if ret_path else ""
            rel = self.rel(path)
            if rel is None or "O_RDONLY" in flags:
                return None
            self.offsets[rel] = -1 if "O_APPEND" in flags else 0
            mode = args[-1] if args[-1].startswith("0") else None
            if "O_TRUNC" in flags or "O_EXCL" in flags:
                return {"op": "create", "path": rel, "mode": mode}
            if "O_CREAT" in flags:
                return {"op": "open", "path": rel, "mode": mode, "append": "O_APPEND" in flags}
            return None
        if call in ("write", "pwrite64"):
            fdp = self._fd_path(args[0])
            if not fdp or (rel := self.rel(fdp[1])) is None:
                return None
            data = unhex(HEX.match(args[1]).group(1))[:ret]  # type: ignore[union-attr]
            off = int(args[3]) if call == "pwrite64" else self.offsets.get(rel, -1)
            if call == "write" and self.offsets.get(rel, -1) >= 0:
                self.offsets[rel] += ret
            return {"op": "write", "path": rel, "offset": off, "data": base64.b64encode(data).decode()}
        if call == "ftruncate":
            fdp = self._fd_path(args[0])
            if fdp and (rel := self.rel(fdp[1])) is not None:
                return {"op": "truncate", "path": rel, "size": int(args[1])}
            return None
        if call in ("rename", "renameat", "renameat2"):
            if call == "rename":
                a, b = self.absolute(pid, HEX.match(args[0]).group(1)), self.absolute(pid, HEX.match(args[1]).group(1))  # type: ignore[union-attr]
            else:
                da, db = self._fd_path(args[0]), self._fd_path(args[2])
                a = self.absolute(pid, HEX.match(args[1]).group(1), da[1] if da else None)  # type: ignore[union-attr]
                b = self.absolute(pid, HEX.match(args[3]).group(1), db[1] if db else None)  # type: ignore[union-attr]
            ra, rb = self.rel(a), self.rel(b)
            if ra is None and rb is None:
                return None
            return {"op": "rename", "from": ra, "path": rb}
        if call in ("unlink", "rmdir", "mkdir"):
            rel = self.rel(self.absolute(pid, HEX.match(args[0]).group(1)))  # type: ignore[union-attr]
            return {"op": call, "path": rel} if rel else None
        if call in ("unlinkat", "mkdirat"):
            d = self._fd_path(args[0])
            rel = self.rel(self.absolute(pid, HEX.match(args[1]).group(1), d[1] if d else None))  # type: ignore[union-attr]
            if rel is None:
                return None
            if call == "mkdirat":
                return {"op": "mkdir", "path": rel}
            return {"op": "rmdir" if "AT_REMOVEDIR" in args[2] else "unlink", "path": rel}
        if call == "flock":
            fdp = self._fd_path(args[0])
            if fdp and self.rel(fdp[1]) == ".autodev/.lock" and ("LOCK_EX" in args[1] or "LOCK_UN" in args[1]):
                return {"op": "lock" if "LOCK_EX" in args[1] else "unlock", "path": ".autodev/.lock", "pid": pid}
        return None
