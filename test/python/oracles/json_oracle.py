"""Reference outputs of CPython's json module, for the differential test.

Usage: python3 json_oracle.py FILE

FILE holds UTF-8 JSON documents, one per line (split on b"\\n" only, so raw
U+2028 / U+0085 stay inside their line). For each document this prints one
ASCII line:

  ERR<TAB><exception class><TAB><str(exception)>    if json.loads (or a dump) raises
  ["<sort_keys dump>", "<indent=2 dump>", "<sha256 hex of the sort_keys dump>"]

Standard library only.
"""

import hashlib
import json
import sys


def describe(document: str) -> str:
    try:
        value = json.loads(document)
        canonical = json.dumps(value, sort_keys=True)
        indented = json.dumps(value, indent=2)
    except (ValueError, RecursionError) as error:
        # JSONDecodeError is a ValueError; so is the 4300-digit int limit.
        return "ERR\t%s\t%s" % (type(error).__name__, error)
    digest = hashlib.sha256(canonical.encode("utf-8")).hexdigest()
    return json.dumps([canonical, indented, digest])


def main(path: str) -> None:
    with open(path, "rb") as handle:
        lines = handle.read().split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    out = [describe(line.decode("utf-8")) for line in lines]
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main(sys.argv[1])
