#!/usr/bin/env python3
"""The python3 side of the engine_state round-trip tests.

  engine_state_oracle.py write SEED COUNT OUT_DIR
      A seeded corpus of objects (unicode from every plane, floats such as 1e16, 0.1, -0.0,
      1e-07, big ints, nesting, escapes), written as the ADR-0146 writer writes a JSONL file:
      lines json.dumps(obj, sort_keys=True, separators=(",", ":")) joined by "\\n" with a
      final "\\n", UTF-8. ascii.jsonl uses ensure_ascii=True (the candidates' writer),
      unicode.jsonl ensure_ascii=False (DerivedRecognizer.to_json).

  engine_state_oracle.py judge FILE
      Prints, as a JSON list, what Python makes of each line of FILE (split at b"\\n"):
      "invalid" (not UTF-8 or json.loads raises), "blank" (the loader skips it),
      "unloadable" (str.splitlines() breaks it, as the loader reads lines), "non_canonical"
      (json.dumps with the writer's arguments, either ensure_ascii, gives other bytes) or "ok".
"""
import json
import random
import sys


def dumps(value, ensure_ascii):
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=ensure_ascii)


FLOATS = [1e16, 0.1, -0.0, 1e-07, 2.0, 1e22, 5e-324, 1.7976931348623157e308, 0.30000000000000004,
          123456789.125, -1.5e-300, 1e-05, 0.0001, 9007199254740993.0, float("inf"), float("-inf"), float("nan")]
INTS = [0, -1, 2**53, 2**53 + 1, -(2**63), 2**64, 10**40, -(10**30) - 7]
SPECIALS = ["\u2028", "\u2029", "\u0085", "\x7f", "\x00", "\x1f", "\t", "\n", "\r", "\b", "\f", '"', "\\", "/",
            "\u00e9", "\u00a0", "\ufeff", "\ufffd", "\uffff", "\ue000", "\U0001f680", "\U0010ffff", "\u202e"]


def text(rng, allow_separators):
    out = []
    for _ in range(rng.randrange(0, 12)):
        r = rng.random()
        if r < 0.4:
            out.append(chr(rng.randrange(0x20, 0x7f)))
        elif r < 0.6:
            out.append(rng.choice(SPECIALS))
        elif r < 0.75:
            out.append(chr(rng.randrange(0xa0, 0xd800)))
        elif r < 0.85:
            out.append(chr(rng.randrange(0xe000, 0x10000)))
        else:
            out.append(chr(rng.randrange(0x10000, 0x110000)))
    s = "".join(out)
    if not allow_separators:
        s = s.replace("\u2028", "L").replace("\u2029", "P").replace("\u0085", "N")
    return s


def value(rng, depth, allow_separators):
    r = rng.random()
    if depth > 3 or r < 0.5:
        k = rng.randrange(7)
        if k == 0:
            return rng.choice(FLOATS)
        if k == 1:
            return rng.uniform(-1e6, 1e6) * 10 ** rng.randrange(-30, 30)
        if k == 2:
            return rng.choice(INTS + [rng.randrange(-10**6, 10**6)])
        if k == 3:
            return rng.choice([None, True, False])
        return text(rng, allow_separators)
    if r < 0.75:
        return [value(rng, depth + 1, allow_separators) for _ in range(rng.randrange(0, 5))]
    return {text(rng, allow_separators): value(rng, depth + 1, allow_separators) for _ in range(rng.randrange(0, 6))}


def record(rng, allow_separators):
    """A top-level object, shaped a little like the writer's records."""
    obj = {text(rng, allow_separators): value(rng, 0, allow_separators) for _ in range(rng.randrange(1, 6))}
    obj["candidate_id"] = "%064x" % rng.getrandbits(256)
    return obj


def write(seed, count, out_dir):
    rng = random.Random(seed)
    # ensure_ascii=True escapes everything, so U+2028 & co. may appear; with ensure_ascii=False they
    # would be written raw and the loader's splitlines() would break the line (tested separately).
    ascii_lines = [dumps(record(rng, True), True) for _ in range(count)]
    unicode_lines = [dumps(record(rng, False), False) for _ in range(count)]
    for name, lines in (("ascii.jsonl", ascii_lines), ("unicode.jsonl", unicode_lines)):
        with open(f"{out_dir}/{name}", "w", encoding="utf-8", newline="") as fh:
            fh.write("\n".join(lines) + ("\n" if lines else ""))


def judge_line(raw):
    try:
        line = raw.decode("utf-8")
    except UnicodeDecodeError:
        return "invalid"
    if not line.strip():
        return "blank"
    try:
        value = json.loads(line)
    except ValueError:
        return "invalid"
    except RecursionError:
        return "invalid"
    if line.splitlines() != [line]:
        return "unloadable"
    if line == dumps(value, True) or line == dumps(value, False):
        return "ok"
    return "non_canonical"


def judge(path):
    with open(path, "rb") as fh:
        data = fh.read()
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    print(json.dumps([judge_line(raw) for raw in lines]))


if __name__ == "__main__":
    if sys.argv[1] == "write":
        write(int(sys.argv[2]), int(sys.argv[3]), sys.argv[4])
    else:
        judge(sys.argv[2])
