#!/usr/bin/env python3
"""What Python AutoDev says about a default-mode workspace (ours; run with AutoDev's venv python).

Everything `autodev_real_recorder.py` records (ledger, replay, load, suspend state, evidence,
responses, knowledge, config), plus what the default mode adds, asked of AutoDev's own models:

    tournaments   every `.autodev/tournaments/<id>/`: its files (a `worktrees/` folder listed one
                  level deep), `history.json` validated as a list of AutoDev's `PassResult`
                  (pass, winner, scores, valid judges, each judge's ranking), each `pass_NN/result.json`
                  validated the same way, whether `final_output.md` is there
    tournament_evidence   every `<task>-tournament.json` bundle as `TournamentEvidence` parses it
    tmp_files     AutoDev's temp files anywhere under `.autodev/`: `.<name>.<random>.tmp` (ledger,
                  plan.json, evidence, tournament files) and `knowledge.jsonl.tmp-<pid>-<hex>`

Run it on a copy: PlanManager.load() takes `.autodev/.lock`.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

from autodev_real_recorder import failure, record
from state.schemas import TournamentEvidence  # type: ignore[import-not-found]
from tournament.core import PassResult  # type: ignore[import-not-found]


def pass_view(p: Any) -> dict[str, Any]:
    return {
        "pass_num": p.pass_num,
        "winner": p.winner,
        "scores": p.scores,
        "valid_judges": p.valid_judges,
        "rankings": [d.get("ranking") for d in p.judge_details],
    }


def tournament_view(d: Path) -> dict[str, Any]:
    files: list[str] = []
    for p in sorted(d.rglob("*")):
        rel = p.relative_to(d).as_posix()
        if rel.startswith("worktrees/") and rel.count("/") > 1:
            continue
        files.append(rel + ("/" if p.is_dir() else ""))
    out: dict[str, Any] = {"files": files, "final_output": (d / "final_output.md").is_file()}
    h = d / "history.json"
    if h.is_file():
        try:
            out["history"] = [pass_view(PassResult.model_validate(x)) for x in json.loads(h.read_text())]
        except Exception as exc:  # noqa: BLE001 - the refusal is the answer
            out["history"] = failure(exc)
    else:
        out["history"] = None
    passes: dict[str, Any] = {}
    for r in sorted(d.glob("pass_*/result.json")):
        try:
            passes[r.parent.name] = pass_view(PassResult.model_validate_json(r.read_text()))
        except Exception as exc:  # noqa: BLE001
            passes[r.parent.name] = failure(exc)
    out["passes"] = passes
    return out


def main() -> None:
    cwd = Path(sys.argv[1]).resolve()
    out = asyncio.run(record(cwd))
    root = cwd / ".autodev"
    tdir = root / "tournaments"
    out["tournaments"] = {p.name: tournament_view(p) for p in sorted(tdir.iterdir())} if tdir.is_dir() else {}
    ev: dict[str, Any] = {}
    for p in sorted((root / "evidence").glob("*-tournament.json")):
        try:
            t = TournamentEvidence.model_validate_json(p.read_text())
            ev[p.name] = {"task_id": t.task_id, "tournament_id": t.tournament_id, "phase": t.phase,
                          "passes": t.passes, "winner": t.winner, "converged": t.converged}
        except Exception as exc:  # noqa: BLE001
            ev[p.name] = failure(exc)
    out["tournament_evidence"] = ev
    tmps = [*root.rglob(".*.tmp"), *root.rglob("*.tmp-*")] if root.is_dir() else []
    out["tmp_files"] = sorted({p.relative_to(cwd).as_posix() for p in tmps if "/worktrees/" not in p.as_posix()})
    print(json.dumps(out, sort_keys=True, indent=2))


if __name__ == "__main__":
    main()
