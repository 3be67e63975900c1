"""Stdlib-only reference verifier of an AutoDev ledger (design §5.1 hash rule).

usage: verify_ledger.py [--series] LEDGER_FILE [LEDGER_FILE ...]
Prints, one line per file in order, "OK <entries> <last_self_hash>" or "BROKEN line <n>: <reason>";
exits 0 when every file is OK, else 1. (Many files in one process spare a start-up per file.)
Reads with universal newlines and str.strip() like Python AutoDev's read_entries.

--series: each file is a later state of the ledger before it (the states a crash test keeps). When
a file starts with the previous file's bytes and that file was OK and ended with a newline, only the
bytes after them are read, from where its chain ended: the same bytes give the same verdict, so this
is the whole file's verdict. Any other file is read whole.
"""
import hashlib
import io
import json
import sys

FIELDS = {"seq", "timestamp", "session_id", "op", "payload", "prev_hash", "self_hash"}


def verify_lines(text, state):
    """Checks the lines of `text` from `state` = (prev_seq, prev_hash, count, lines read);
    returns (error or None, state after them)."""
    prev_seq, prev_hash, count, idx = state
    for raw in io.StringIO(text, newline=None):
        idx += 1
        line = raw.strip()
        if not line:
            continue
        try:
            obj = json.loads(line)
        except ValueError as exc:
            return f"BROKEN line {idx}: invalid JSON: {exc}", None
        if not isinstance(obj, dict) or not set(obj) <= FIELDS or not (FIELDS - {"payload"}) <= set(obj):
            return f"BROKEN line {idx}: fields {sorted(obj) if isinstance(obj, dict) else type(obj).__name__}", None
        if obj["seq"] != prev_seq + 1:
            return f"BROKEN line {idx}: seq {obj['seq']} after {prev_seq}", None
        if obj["prev_hash"] != prev_hash:
            return f"BROKEN line {idx}: prev_hash", None
        body = {k: v for k, v in obj.items() if k != "self_hash"}
        body.setdefault("payload", {})
        want = hashlib.sha256(json.dumps(body, sort_keys=True).encode("utf-8")).hexdigest()[:16]
        if want != obj["self_hash"]:
            return f"BROKEN line {idx}: self_hash computed {want} stored {obj['self_hash']}", None
        prev_seq, prev_hash, count = obj["seq"], obj["self_hash"], count + 1
    return None, (prev_seq, prev_hash, count, idx)


def verify_file(path, before=None):
    """Returns (result line, (bytes, state) for the next file of a series or None)."""
    with open(path, "rb") as fh:
        data = fh.read()
    state, offset = (0, "", 0, 0), 0
    if before is not None and before[0].endswith(b"\n") and data.startswith(before[0]):
        state, offset = before[1], len(before[0])
    error, state = verify_lines(data[offset:].decode("utf-8"), state)
    if error:
        return error, None
    return f"OK {state[2]} {state[1]}", (data, state)


if __name__ == "__main__":
    args = sys.argv[1:]
    series = args[:1] == ["--series"]
    results, before = [], None
    for path in args[1:] if series else args:
        result, after = verify_file(path, before)
        results.append(result)
        before = after if series else None
    print("\n".join(results))
    sys.exit(0 if results and all(r.startswith("OK") for r in results) else 1)
