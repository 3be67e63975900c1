/**
 * Every engine_state problem code on small hand-made checkpoints, the manifest as the writer's
 * loader reads it (blank = no manifest, schema versions it refuses), and the fixtures written
 * by the real EngineStateStore (test/fixtures/engine-state-*).
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { checkJsonlFile, ENGINE_STATE_MAX_LINE_BYTES } from "../../../src/core/sources/engineState/jsonlCheck";
import { DEFAULT_MAX_LINE_BYTES, setMaxLineBytes } from "../../../src/core/fs/lineLimit";
import { engineStateSource } from "../../../src/core/sources/engineState/engineStateSource";
import type { SourceProblem } from "../../../src/core/sources/stateSource";
import { makeWorkspace, writerManifest } from "../../helpers/engineStateWorkspace";
import { copyFixture } from "../fixtures";

const MANIFEST = "engine_state/manifest.json";
const RECOGNIZERS = "engine_state/recognizers.jsonl";
const CANDIDATES = "engine_state/discovery_candidates.jsonl";

async function problemsOf(workspace: string): Promise<SourceProblem[]> {
  const location = await engineStateSource.detect(workspace);
  assert.ok(location, "engine_state should be detected");
  return [...(await engineStateSource.check(location))];
}

/** `file:line code severity` per problem. */
async function codes(files: Record<string, string | Buffer>): Promise<string[]> {
  const problems = await problemsOf(makeWorkspace(files));
  return problems.map((p) => `${path.basename(p.file)}:${p.line ?? "-"} ${p.code} ${p.severity}`);
}

async function summaryOf(files: Record<string, string | Buffer>): Promise<Record<string, unknown>> {
  const ws = makeWorkspace(files);
  const location = await engineStateSource.detect(ws);
  assert.ok(location);
  return engineStateSource.summarize(location);
}

const CANDIDATE = (id: string) =>
  `{"boundary_clean":true,"candidate_id":"${id}","pack_consistent":true,"proposed_chain":{"connective":null,"intent":"cause","object":null,"subject":"gravity"},"review_state":"unreviewed","source_turn_trace":"","trigger":"would_have_grounded"}`;

describe("engine_state checks", () => {
  it("accepts canonical lines in either ensure_ascii form", async () => {
    assert.deepEqual(
      await codes({
        [RECOGNIZERS]: '{"a":"caf\u00e9","b":1e+16,"c":-0.0}\n{"a":"caf\\u00e9","b":0.1,"c":1e-07}\n',
        [CANDIDATES]: "",
      }),
      [],
    );
  });

  it("invalid_json at the line and column of a line that json.loads refuses", async () => {
    const problems = await problemsOf(makeWorkspace({ [RECOGNIZERS]: '{"a":1}\n{"a":\n{"b":2}\n' }));
    assert.deepEqual(
      problems.map((p) => [p.line, p.column, p.code, p.severity]),
      [[2, 6, "invalid_json", "error"]],
    );
    assert.match(problems[0].message, /Expecting value: line 1 column 6 \(char 5\)/);
  });

  it("invalid_json for a manifest that does not parse, at its line, and for one that is not an object", async () => {
    const problems = await problemsOf(makeWorkspace({ [MANIFEST]: '{\n  "schema_version": 1,\n  "turn_count": ,\n}' }));
    assert.deepEqual(
      problems.map((p) => [p.file, p.line, p.code]),
      [[MANIFEST, 3, "invalid_json"]],
    );
    assert.deepEqual(await codes({ [MANIFEST]: "[1, 2]" }), ["manifest.json:1 invalid_json error"]);
    assert.deepEqual(await codes({ [MANIFEST]: Buffer.from([0x7b, 0xff, 0x7d]) }), [
      "manifest.json:- invalid_json error",
    ]);
  });

  it("non_canonical_line for spaces, key order, float and escape forms, blank lines and CRLF", async () => {
    assert.deepEqual(
      await codes({
        [RECOGNIZERS]:
          [
            '{"a": 1}', // a space
            '{"b":1,"a":2}', // key order
            '{"a":1e16}', // Python writes 1e+16
            '{"a":1.0E-7}', // Python writes 1e-07
            '{"a":"\\u00E9"}', // uppercase hex
            '{"a":"caf\u00e9\\u00e9"}', // half raw, half escaped
            '{"a":"\\/"}', // an escaped slash
            '{"a":1,"a":1}', // a duplicate key
            "   ", // blank
            '{"a":1}\r', // CRLF ending
            '{"a":2}',
          ].join("\n") + "\n",
      }),
      [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((n) => `recognizers.jsonl:${n} non_canonical_line error`),
    );
  });

  it("unloadable_line for a raw U+2028 (ensure_ascii=False writes it; splitlines breaks the line)", async () => {
    const problems = await problemsOf(makeWorkspace({ [RECOGNIZERS]: '{"note":"a\u2028b"}\n{"note":"a\\u2028b"}\n' }));
    assert.deepEqual(
      problems.map((p) => [p.line, p.column, p.code]),
      [[1, 11, "unloadable_line"]],
    );
  });

  it("unsupported_schema_version when newer than 1 or not an integer; 0, 1, true and absent load", async () => {
    for (const bad of ["2", "10000000000000000000000", '"1"', "1.0", "null", "[1]"]) {
      assert.deepEqual(
        await codes({ [MANIFEST]: `{\n  "schema_version": ${bad},\n  "turn_count": 3\n}` }),
        ["manifest.json:2 unsupported_schema_version error"],
        bad,
      );
    }
    for (const good of ["1", "0", "-3", "true"]) {
      assert.deepEqual(await codes({ [MANIFEST]: `{"schema_version": ${good}}` }), [], good);
    }
    assert.deepEqual(await codes({ [MANIFEST]: '{"turn_count": 3}' }), []);
    assert.equal((await summaryOf({ [MANIFEST]: '{"schema_version": true}' })).schema_version, 1);
    assert.equal((await summaryOf({ [MANIFEST]: '{"schema_version": "1"}' })).schema_version, null);
  });

  it("an empty or whitespace-only manifest is no manifest, as the writer's loader treats it", async () => {
    for (const blank of ["", "  \n\t\n", "\u00a0\u2028 "]) {
      const ws = { [MANIFEST]: blank, [RECOGNIZERS]: '{"a":1}\n' };
      assert.deepEqual(await codes(ws), []);
      const summary = await summaryOf(ws);
      assert.equal(summary.schema_version, null);
      assert.equal(summary.written_at_revision, null);
      assert.equal(summary.recognizers, 1);
    }
  });

  it("duplicate_candidate_id at the repeating line, naming the first", async () => {
    const problems = await problemsOf(
      makeWorkspace({ [CANDIDATES]: [CANDIDATE("aa"), CANDIDATE("bb"), CANDIDATE("aa")].join("\n") + "\n" }),
    );
    assert.deepEqual(
      problems.map((p) => [p.line, p.code, p.severity]),
      [[3, "duplicate_candidate_id", "warning"]],
    );
    assert.match(problems[0].message, /of line 1/);
  });

  it("missing_final_newline at the last line, as a warning beside the line's own check", async () => {
    assert.deepEqual(await codes({ [RECOGNIZERS]: '{"a":1}\n{"a":2}' }), [
      "recognizers.jsonl:2 missing_final_newline warning",
    ]);
    assert.deepEqual(await codes({ [RECOGNIZERS]: '{"a":1}\n{"a": 2}' }), [
      "recognizers.jsonl:2 non_canonical_line error",
      "recognizers.jsonl:2 missing_final_newline warning",
    ]);
  });

  it("a line longer than the limit is reported by size and reading goes on", async () => {
    const ws = makeWorkspace({ "x.jsonl": `{"a":1}\n{"a":"${"x".repeat(5000)}"}\n{"a": 3}\n` });
    const problems: SourceProblem[] = [];
    const model = await checkJsonlFile(path.join(ws, "x.jsonl"), "x.jsonl", ws, problems, { maxLineBytes: 1000 });
    assert.deepEqual(
      problems.map((p) => [p.line, p.code]),
      [
        [2, "line_too_long"],
        [3, "non_canonical_line"],
      ],
    );
    assert.equal(model.records, 3);
  });

  it("the line limit is engine_state's 64 MiB, or the process's (autodev.maxLineMB) when that is lower", async () => {
    assert.equal(ENGINE_STATE_MAX_LINE_BYTES, 64 * 1024 * 1024);
    // Line 2: 64 MiB + 1 bytes of NULs (a sparse file, so nothing that size is written).
    const ws = makeWorkspace({ "x.jsonl": `{"a":1}\n` });
    const file = path.join(ws, "x.jsonl");
    fs.truncateSync(file, 8 + ENGINE_STATE_MAX_LINE_BYTES + 1);
    const tooLong = async () => {
      const problems: SourceProblem[] = [];
      await checkJsonlFile(file, "x.jsonl", ws, problems);
      return problems
        .filter((p) => p.code === "line_too_long")
        .map((p) => [p.line, /(\d+)-byte limit/.exec(p.message)?.[1]]);
    };
    try {
      assert.deepEqual(await tooLong(), [[2, String(ENGINE_STATE_MAX_LINE_BYTES)]], "the default process limit");
      setMaxLineBytes(500 * 1024 * 1024);
      assert.deepEqual(
        await tooLong(),
        [[2, String(ENGINE_STATE_MAX_LINE_BYTES)]],
        "a higher setting does not raise it",
      );
      setMaxLineBytes(4);
      assert.deepEqual(
        await tooLong(),
        [
          [1, "4"],
          [2, "4"],
        ],
        "a lower setting lowers it",
      );
    } finally {
      setMaxLineBytes(DEFAULT_MAX_LINE_BYTES);
    }
  });

  it("the fixture written by the real writer has no problem but its stale revision (no git here: none)", async () => {
    const ws = copyFixture("engine-state-small");
    assert.deepEqual(await problemsOf(ws), []);
    const location = await engineStateSource.detect(ws);
    assert.ok(location);
    assert.deepEqual(await engineStateSource.summarize(location), {
      kind: "engine_state",
      path: "engine_state",
      schema_version: 1,
      turn_count: 42,
      written_at_revision: "7ae1dd0ecc37",
      head_revision: null,
      recognizers: 3,
      candidates: 4,
      contract: {
        phase: "checkpointed",
        task: null,
        evidence: [
          { what: "the manifest", file: "engine_state/manifest.json", present: true },
          { what: "the recognizers", file: "engine_state/recognizers.jsonl", present: true },
          { what: "the discovery candidates", file: "engine_state/discovery_candidates.jsonl", present: true },
        ],
        reentry: "a restart loads the checkpoint of turn 42 written at 7ae1dd0ecc37; --no-load-state starts clean",
        preconditions: [{ what: "the manifest's schema_version is one the loader reads", met: true }],
        next: ["checkpointed"],
      },
    });
    assert.deepEqual(Object.keys(await engineStateSource.summarize(location)).slice(0, 2), ["kind", "path"]);
  });

  it("the broken fixture gives exactly the problems its README lists", async () => {
    const ws = copyFixture("engine-state-broken");
    const got = (await problemsOf(ws)).map((p) => `${path.basename(p.file)}:${p.line ?? "-"} ${p.code}`);
    assert.deepEqual(got, [
      "discovery_candidates.jsonl:3 non_canonical_line",
      "discovery_candidates.jsonl:5 invalid_json",
      "discovery_candidates.jsonl:6 duplicate_candidate_id",
      "discovery_candidates.jsonl:6 missing_final_newline",
      "manifest.json:2 unsupported_schema_version",
      "recognizers.jsonl:1 non_canonical_line",
      "recognizers.jsonl:2 non_canonical_line",
      "recognizers.jsonl:3 non_canonical_line",
      "recognizers.jsonl:4 unloadable_line",
    ]);
    fs.rmSync(ws, { recursive: true, force: true });
  });

  it('a checkpoint written outside git says "unknown" and an empty candidates file is zero records', async () => {
    const ws = copyFixture("engine-state-unknown");
    assert.deepEqual(await problemsOf(ws), []);
    const location = await engineStateSource.detect(ws);
    assert.ok(location);
    const summary = await engineStateSource.summarize(location);
    assert.equal(summary.written_at_revision, "unknown");
    assert.equal(summary.candidates, 0);
    assert.equal(summary.recognizers, 1);
  });

  it("writerManifest matches the fixture's bytes (the helper writes what the writer writes) @slow", () => {
    const fixture = fs.readFileSync(path.join(copyFixture("engine-state-small"), MANIFEST), "utf8");
    assert.equal(writerManifest({ written_at_revision: "7ae1dd0ecc37", turn_count: 42, schema_version: 1 }), fixture);
  });
});
