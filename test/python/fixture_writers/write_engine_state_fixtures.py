#!/usr/bin/env python3
"""Writes the engine_state fixtures (test/fixtures/engine-state-*) by RUNNING the real
writer: `EngineStateStore` of AssetOverflow/core (ADR-0146) at commit 0b19e083, with its
real `DerivedRecognizer` and `DiscoveryCandidate` classes. Nothing of that code is copied
here: this script imports it from a checkout given on the command line.

Prepare the checkout (the packages' own __init__.py files import the whole engine, so
they are replaced by empty ones; the modules used below import nothing else):

    git -C CORE_REPO archive 0b19e083 engine_state/__init__.py recognition/anti_unifier.py \
        recognition/outcome.py teaching/discovery.py generate/intent.py | tar -x -C CHECKOUT
    for p in recognition teaching generate; do : > CHECKOUT/$p/__init__.py; done

usage: write_engine_state_fixtures.py CHECKOUT OUT_DIR

`written_at_revision` comes from the writer's own `git rev-parse --short=12 HEAD`, run in
the current directory: the caller runs this script inside a scratch git repository with
fixed commit dates (see test/fixtures/engine-state-small/README.md), and the "unknown"
fixture is written from a directory outside any repository.

Broken fixtures start from the writer's bytes and then apply the byte edits listed in
BROKEN_EDITS (what a hand edit, another serializer or a torn copy leaves behind).
"""
import os
import shutil
import sys
import tempfile
from pathlib import Path

CHECKOUT, OUT = Path(sys.argv[1]).resolve(), Path(sys.argv[2]).resolve()
sys.path.insert(0, str(CHECKOUT))

import engine_state  # noqa: E402  (the real store)
from recognition.anti_unifier import Constant, DerivedRecognizer, TypedSlot, _teaching_set_id  # noqa: E402
from teaching.discovery import (  # noqa: E402
    DiscoveryCandidate,
    EvidencePointer,
    SubQuestion,
    _hash_candidate_id,
)


def recognizer(sequences, relation, constants, absent, slots=("str", "int", "str")):
    """A Phase 1 recognizer: agent slot, relation constant, count and unit slots."""
    return DerivedRecognizer(
        pattern=(
            TypedSlot(feature_name="agent", slot_type=slots[0], min_width=1, max_width=3, ignored_prefix_tokens=("the",)),
            Constant(relation),
            TypedSlot(feature_name="count", slot_type=slots[1]),
            TypedSlot(feature_name="unit", slot_type=slots[2]),
        ),
        teaching_set_id=_teaching_set_id(tuple(s) for s in sequences),
        constant_features=constants,
        absent_features=absent,
    )


RECOGNIZERS = [
    recognizer([["the", "baker", "has", "3", "loaves"], ["Ana", "has", "2", "cats"]], "has",
               {"relation": "has"}, {"negation": False}),
    recognizer([["Zoë", "owns", "4", "vélos"], ["the", "café", "owns", "12", "chaises"]], "owns",
               {"relation": "owns", "confidence": 0.1, "scale": 1e16, "floor": -0.0, "eps": 1e-07},
               {"plural": 2.0}),
    recognizer([["東京", "保有", "5", "台"], ["🚀", "保有", "1", "基"]], "保有",
               {"relation": "保有", "note": "tab\there \"quoted\" back\\slash"}, {}),
]


def candidate(subject, intent, trace, **extra):
    chain = {"subject": subject, "intent": intent, "connective": None, "object": None}
    cid = _hash_candidate_id({"proposed_chain": chain, "trigger": "would_have_grounded", "source_turn_trace": trace})
    return DiscoveryCandidate(
        candidate_id=cid, proposed_chain=chain, trigger="would_have_grounded", source_turn_trace=trace,
        pack_consistent=True, boundary_clean=extra.pop("boundary_clean", True), **extra,
    )


CANDIDATES = [
    candidate("gravity", "cause", "a1" * 32),
    candidate("naïve", "verification", "b2" * 32, boundary_clean=False),
    candidate("fraction", "cause", "c3" * 32, domain="math"),
    candidate(
        "photosynthesis", "cause", "d4" * 32,
        polarity="affirms", claim_domain="relational", contemplation_depth=2,
        evidence=(EvidencePointer(source="corpus", ref="chain:light→sugar", polarity="affirms", epistemic_status="coherent"),),
        sub_questions=(SubQuestion(sub_id="q1", proposed_subject="chlorophyll", proposed_intent="cause", outcome="gap_recorded"),),
    ),
]


def write(out: Path, recognizers, candidates, turn_count, schema_version=None) -> None:
    """Runs the real store's three save methods into out/engine_state."""
    store = engine_state.EngineStateStore(out / "engine_state")
    store.save_recognizers(recognizers)
    store.save_discovery_candidates(candidates)
    saved = engine_state._SCHEMA_VERSION
    if schema_version is not None:
        engine_state._SCHEMA_VERSION = schema_version  # a newer build's writer
    try:
        store.save_manifest(turn_count)
    finally:
        engine_state._SCHEMA_VERSION = saved


def edit_line(path: Path, line_no: int, old: bytes, new: bytes) -> None:
    """Replaces `old` by `new` once in 1-based line `line_no` of `path` (bytes)."""
    lines = path.read_bytes().split(b"\n")
    assert old in lines[line_no - 1], (path, line_no, old)
    lines[line_no - 1] = lines[line_no - 1].replace(old, new, 1)
    path.write_bytes(b"\n".join(lines))


def fresh(name: str) -> Path:
    out = OUT / name
    shutil.rmtree(out / "engine_state", ignore_errors=True)
    out.mkdir(parents=True, exist_ok=True)
    return out


# 1. A healthy checkpoint.
write(fresh("engine-state-small"), RECOGNIZERS, CANDIDATES, turn_count=42)

# 2. A checkpoint written outside any git repository ("unknown"), no candidates.
cwd = os.getcwd()
with tempfile.TemporaryDirectory() as outside:
    os.chdir(outside)
    engine_state.get_git_revision.cache_clear()
    write(fresh("engine-state-unknown"), RECOGNIZERS[:1], [], turn_count=0)
    os.chdir(cwd)
    engine_state.get_git_revision.cache_clear()

# 3. Broken: the writer's bytes (a duplicated candidate included: the store writes what it
#    is given), a newer build's manifest, then hand edits.
broken = fresh("engine-state-broken")
# The fourth recognizer holds a raw U+2028: ensure_ascii=False writes it as is, and the
# loader's str.splitlines() breaks the line there (the writer's own output does not load).
SEPARATOR = recognizer([["Ana", "has", "1", "idea"]], "has", {"relation": "has", "note": "line\u2028separator"}, {})
write(broken, RECOGNIZERS + [SEPARATOR], CANDIDATES + [CANDIDATES[0]], turn_count=7, schema_version=2)
rec = broken / "engine_state" / "recognizers.jsonl"
cand = broken / "engine_state" / "discovery_candidates.jsonl"
BROKEN_EDITS = [
    (rec, 1, b'"absent_features":{', b'"absent_features": {'),            # a space after ':'
    (rec, 2, b'"scale":1e+16', b'"scale":1e16'),                           # another float form
    (rec, 3, "保有".encode(), b"\\u4fdd\\u6709"),                           # half escaped, half raw
    (cand, 2, b'"subject":"na\\u00efve"', "\"subject\":\"naïve\"".encode()),  # fine alone (ensure_ascii=False)
    (cand, 3, b'"boundary_clean":true,"candidate_id"', b'"candidate_id"'),  # key order: moved below
]
for path, line_no, old, new in BROKEN_EDITS:
    edit_line(path, line_no, old, new)
edit_line(cand, 3, b'"domain":"math"', b'"domain":"math","boundary_clean":true')
lines = cand.read_bytes().split(b"\n")
lines.insert(4, lines[3][: len(lines[3]) // 2])  # a torn copy of line 4 as a new line 5
cand.write_bytes(b"\n".join(lines).rstrip(b"\n"))  # and no final newline
