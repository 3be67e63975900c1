/**
 * Issue 21, items 1, 2, 3, 10, 11 and 14: hostile folders that crashed the check with one
 * `check_failed` (an uncapped problem list spread into a call), that cost minutes and gigabytes
 * (a million bad lines, a quadratic YAML key check, 8M tournament entries, sparse files read
 * whole), that were dropped as if absent (a ledger that is a FIFO, a folder, a dangling link or a
 * loop; `.autodev/` or `.agloop/` unreadable) or summarised as zeros. Each runs the real CLI with a
 * 20 s limit and a 600 MB heap (`--max-old-space-size=600`: past it Node dies, and the test fails).
 */
import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO, hostileRoot, listTree, runCliBounded, type CliRun } from "../../helpers/hostileWorkspace";
import { nobodyStage } from "../../helpers/asNobody";

const HEAP = ["--max-old-space-size=600"];

/** `check` (and `sources --json`) on `ws`: exit, output size, no crash. */
function checkBounded(ws: string, env: NodeJS.ProcessEnv = process.env): CliRun {
  const r = runCliBounded(["check", ws], env, HEAP);
  assert.ok(r.out.length + r.err.length < 1 << 20, `check printed ${r.out.length + r.err.length} bytes`);
  assert.doesNotMatch(r.out + r.err, /check_failed|RangeError|Maximum call stack|heap out of memory/);
  return r;
}

/** The problems `check --json` lists for files under `prefix`. */
function problemsUnder(
  ws: string,
  prefix: string,
  env: NodeJS.ProcessEnv = process.env,
): { code: string; message: string }[] {
  const r = runCliBounded(["check", ws, "--json"], env, HEAP);
  const doc = JSON.parse(r.out) as { sources: { problems: { file: string; code: string; message: string }[] }[] };
  return doc.sources.flatMap((s) => s.problems).filter((p) => p.file.startsWith(prefix));
}

function agloopInto(ws: string): void {
  fs.cpSync(path.join(REPO, "test/fixtures/agloop-clean/.agloop"), path.join(ws, ".agloop"), { recursive: true });
}

/** Makes every path of the root readable by nobody, then applies `mode` to `dir`. */
function lockFolder(root: string, dir: string, mode: number): void {
  fs.chmodSync(root, 0o755);
  for (const p of listTree(root)) {
    if (!fs.lstatSync(p).isSymbolicLink()) fs.chmodSync(p, fs.lstatSync(p).isDirectory() ? 0o755 : 0o644);
  }
  fs.chmodSync(dir, mode);
}

describe("hostile bounds: many problems, bad lines, sparse files (items 1, 2, 10) @slow", function () {
  this.timeout(120_000);

  it("1: 390 KB of {} knowledge lines, a 400 KB history.json, a 40k-task state.json: capped findings, the ledger still ok", () => {
    const h = hostileRoot("python-small");
    try {
      fs.writeFileSync(h.at("knowledge.jsonl"), "{}\n".repeat(130_000));
      fs.mkdirSync(h.at("tournaments/plan-x"), { recursive: true });
      fs.writeFileSync(h.at("tournaments/plan-x/history.json"), `[${Array(100_000).fill("{}").join(",")}]`);
      agloopInto(h.ws);
      const state = JSON.parse(fs.readFileSync(path.join(h.ws, ".agloop/state.json"), "utf8")) as { tasks: unknown[] };
      state.tasks = Array(40_000).fill({});
      fs.writeFileSync(path.join(h.ws, ".agloop/state.json"), JSON.stringify(state));
      const r = checkBounded(h.ws);
      assert.equal(r.code, 1, "the agloop state's errors fail the check");
      assert.match(
        r.out,
        /^autodev \.autodev: ok/m,
        "the clean ledger stays ok beside the bad knowledge and tournament files",
      );
      const knowledge = problemsUnder(h.ws, ".autodev/knowledge.jsonl");
      assert.ok(knowledge.length <= 202, `${knowledge.length} knowledge problems listed`);
      assert.ok(knowledge.some((p) => /more lines from here on skipped|more like this/.test(p.message)));
      const state2 = problemsUnder(h.ws, ".agloop/state.json");
      assert.ok(state2.length > 100 && state2.length <= 220, `${state2.length} state problems listed`);
      assert.ok(state2.some((p) => /more (like this|schema issues)/.test(p.message)));
      const s = runCliBounded(["sources", h.ws, "--json"], process.env, HEAP);
      assert.ok(s.out.length < 256 << 10, `sources --json printed ${s.out.length} bytes for 40,000 empty tasks`);
      assert.match(s.out, /"tasks_total": 40000/);
    } finally {
      h.cleanup();
    }
  });

  it("1: a 2M-line hive file of {} under the home folder: the swarm's findings are not hidden, memory bounded", () => {
    const h = hostileRoot("python-small");
    try {
      const home = path.join(h.root, "home");
      fs.mkdirSync(path.join(home, ".local/share/autodev"), { recursive: true });
      fs.writeFileSync(path.join(home, ".local/share/autodev/shared-learnings.jsonl"), "{}\n".repeat(2_000_000));
      const r = checkBounded(h.ws, { ...process.env, HOME: home });
      assert.match(r.out, /^autodev \.autodev: ok/m);
      // Over the line cap of a knowledge file (MAX_KNOWLEDGE_LINES), refused unread rather than read for seconds.
      assert.match(r.out, /has more than 250000 non-empty lines \(line 250001\); not read/);
    } finally {
      h.cleanup();
    }
  });

  for (const mb of [1, 3]) {
    it(`2: engine_state with ${mb} MB of blank lines: 200 problems and a count, not ${mb}M problems`, () => {
      const h = hostileRoot("engine-state-small");
      try {
        fs.writeFileSync(path.join(h.ws, "engine_state/recognizers.jsonl"), "\n".repeat(mb * 1_000_000));
        const r = checkBounded(h.ws);
        assert.equal(r.code, 1);
        assert.match(r.out, new RegExp(`${mb * 1_000_000 - 200} more like this \\(non_canonical_line\\)`));
      } finally {
        h.cleanup();
      }
    });
  }

  it("2: agloop: 6 MB of {} log lines and a 1 MiB plan.yaml of distinct keys answer in time; a 4 MiB plan.yaml is refused", () => {
    const h = hostileRoot("python-small");
    try {
      agloopInto(h.ws);
      fs.writeFileSync(path.join(h.ws, ".agloop/log.json"), "{}\n".repeat(2 * 1024 * 1024));
      let r = checkBounded(h.ws);
      assert.equal(r.code, 1);
      assert.match(r.out, /more problem\(s\) in log\.json were not listed/);
      fs.writeFileSync(path.join(h.ws, ".agloop/log.json"), "");
      const keys: string[] = [];
      for (let i = 0; i < 80_000; i++) keys.push(`key${i}: 0`); // 0.95 MB, under the 1 MiB cap
      fs.writeFileSync(path.join(h.ws, ".agloop/plan.yaml"), keys.join("\n") + "\n");
      r = checkBounded(h.ws);
      assert.match(r.out, /\.agloop\/plan\.yaml:\d+: warning unknown_field/);
      fs.writeFileSync(path.join(h.ws, ".agloop/plan.yaml"), "tasks:\n" + "  - {}\n".repeat(600_000));
      r = checkBounded(h.ws);
      assert.match(r.out, /plan\.yaml: error file_too_large/);
    } finally {
      h.cleanup();
    }
  });

  it("2: a history.json of 2M bad entries (4 MB) and one of 8M (16 MB): bounded, said in a message", () => {
    const h = hostileRoot("python-small");
    try {
      fs.mkdirSync(h.at("tournaments/plan-a"), { recursive: true });
      fs.mkdirSync(h.at("tournaments/plan-b"), { recursive: true });
      fs.writeFileSync(h.at("tournaments/plan-a/history.json"), `[${Array(1_990_000).fill("0").join(",")}]`);
      fs.writeFileSync(h.at("tournaments/plan-b/history.json"), `[${Array(8_000_000).fill("0").join(",")}]`);
      const r = checkBounded(h.ws);
      assert.match(r.out, /history\.json has 1990000 entries; only the first 200 were read/);
      assert.match(r.out, /plan-b\/history\.json is \d+ bytes, over the 4194304-byte limit/);
      const t = runCliBounded(["tournaments", h.ws, "--json"], process.env, HEAP);
      assert.ok(t.out.length < 1 << 20, `tournaments --json printed ${t.out.length} bytes`);
    } finally {
      h.cleanup();
    }
  });

  it("10: an 8 GiB sparse packed-refs, 200 sparse 16 MiB checkpoints and result.json files are not read whole", () => {
    const h = hostileRoot("engine-state-small");
    try {
      const git = path.join(h.ws, ".git");
      fs.mkdirSync(path.join(git, "refs/heads"), { recursive: true });
      fs.writeFileSync(path.join(git, "HEAD"), "ref: refs/heads/main\n");
      fs.writeFileSync(path.join(git, "packed-refs"), "");
      fs.truncateSync(path.join(git, "packed-refs"), 8 * 2 ** 30);
      agloopInto(h.ws);
      for (let i = 0; i < 200; i++) {
        const cp = path.join(h.ws, `.agloop/checkpoints/pre-compact-2099${String(1000 + i).slice(-4)}-000000.json`);
        fs.writeFileSync(cp, "");
        fs.truncateSync(cp, 16 * 2 ** 20);
      }
      fs.mkdirSync(path.join(h.ws, ".autodev/tournaments/plan-x"), { recursive: true });
      for (let i = 1; i <= 200; i++) {
        const pass = path.join(h.ws, `.autodev/tournaments/plan-x/pass_${String(i).padStart(2, "0")}`);
        fs.mkdirSync(pass);
        fs.writeFileSync(path.join(pass, "result.json"), "");
        fs.truncateSync(path.join(pass, "result.json"), 16 * 2 ** 20);
      }
      const r = checkBounded(h.ws); // within 20 s: nothing sparse is read whole
      const unusable = r.out
        .split("\n")
        .filter((l) => /pre-compact-2099\d+-000000\.json(:\d+)?: warning invalid_checkpoint/.test(l)).length;
      assert.equal(unusable, 20, "only the 20 newest checkpoints are read (each reported as unusable)");
      const s = runCliBounded(["sources", h.ws, "--json"], process.env, HEAP);
      const es = (JSON.parse(s.out) as Record<string, unknown>[]).find((d) => d.kind === "engine_state")!;
      assert.equal(es.head_revision, null, "HEAD cannot be resolved from an 8 GiB packed-refs");
    } finally {
      h.cleanup();
    }
  });
});

describe("hostile: a present source that cannot be read is never ok (items 3, 11, 14) @slow", function () {
  this.timeout(60_000);

  const kinds: [string, (p: string) => void, RegExp][] = [
    ["a FIFO", (p) => execFileSync("mkfifo", [p]), /FIFO/],
    ["a folder", (p) => fs.mkdirSync(p), /directory/],
    ["a dangling link", (p) => fs.symlinkSync("nowhere.jsonl", p), /missing target|cannot be resolved|ENOENT/],
    ["a link loop", (p) => fs.symlinkSync("plan-ledger.jsonl", p), /loop of symbolic links|ELOOP/],
  ];
  for (const [what, make, why] of kinds) {
    it(`3: a ledger that is ${what}, beside a healthy .agloop/: check and sources exit 1 and say why`, () => {
      const h = hostileRoot("python-small");
      try {
        fs.rmSync(h.at("plan-ledger.jsonl"));
        make(h.at("plan-ledger.jsonl"));
        agloopInto(h.ws);
        const r = checkBounded(h.ws);
        assert.equal(r.code, 1, r.out);
        assert.match(r.out, /^autodev \.autodev: BROKEN/m);
        assert.match(r.out, why);
        const s = runCliBounded(["sources", h.ws, "--json"]);
        assert.equal(s.code, 1, s.out);
        assert.match(s.out, /"kind": "autodev"[\s\S]*"error"/);
      } finally {
        h.cleanup();
      }
    });
  }

  for (const folder of [".autodev", ".agloop"]) {
    it(`3, 11, 14: ${folder}/ unreadable (EACCES, run as nobody): check and sources exit 1, never ok`, function () {
      const nobody = nobodyStage(this);
      const h = hostileRoot("python-small");
      const asNobody = (args: string[]) => nobody.cli(args);
      try {
        agloopInto(h.ws);
        lockFolder(h.root, path.join(h.ws, folder), 0o000);
        const r = asNobody(["check", h.ws]);
        assert.equal(r.code, 1, r.out + r.err);
        assert.match(r.out, new RegExp(`${folder.replace(".", "\\.")}[^\\n]*: BROKEN`));
        assert.match(r.out, /EACCES|permission denied/);
        const s = asNobody(["sources", h.ws, "--json"]);
        assert.equal(s.code, 1, s.out + s.err);
      } finally {
        fs.chmodSync(path.join(h.ws, folder), 0o755);
        h.cleanup();
        nobody.cleanup();
      }
    });
  }

  it("11: an unreadable checkpoints/ is one problem; state, plan and log are still checked", function () {
    const nobody = nobodyStage(this);
    const h = hostileRoot("python-small");
    const asNobody = (args: string[]) => nobody.cli(args);
    try {
      agloopInto(h.ws);
      fs.writeFileSync(path.join(h.ws, ".agloop/log.json"), "not json\n");
      lockFolder(h.root, path.join(h.ws, ".agloop/checkpoints"), 0o000);
      const r = asNobody(["check", h.ws]);
      assert.equal(r.code, 1, r.out + r.err);
      assert.match(r.out, /\.agloop\/checkpoints: error unsafe_file: Cannot list \.agloop\/checkpoints: EACCES/);
      assert.match(r.out, /\.agloop\/log\.json:1: error invalid_json/);
    } finally {
      fs.chmodSync(path.join(h.ws, ".agloop/checkpoints"), 0o755);
      h.cleanup();
      nobody.cleanup();
    }
  });

  it("14: sources --json gives null, not 0, for files it could not read, and exits 1; a score keyed __proto__ is kept", () => {
    const h = hostileRoot("engine-state-small");
    try {
      fs.rmSync(path.join(h.ws, "engine_state/recognizers.jsonl"));
      execFileSync("mkfifo", [path.join(h.ws, "engine_state/recognizers.jsonl")]);
      agloopInto(h.ws);
      fs.rmSync(path.join(h.ws, ".agloop/log.json"));
      fs.mkdirSync(path.join(h.ws, ".agloop/log.json"));
      const s = runCliBounded(["sources", h.ws, "--json"]);
      assert.equal(s.code, 1, s.out);
      const doc = JSON.parse(s.out) as Record<string, unknown>[];
      const es = doc.find((d) => d.kind === "engine_state")!;
      const ag = doc.find((d) => d.kind === "agloop")!;
      assert.equal(es.recognizers, null);
      assert.equal(ag.log_entries, null);
      assert.ok((es.unreadable as string[]).some((u) => u.includes("recognizers.jsonl")));
    } finally {
      h.cleanup();
    }
    const t = hostileRoot("python-small");
    try {
      fs.mkdirSync(t.at("tournaments/plan-x"), { recursive: true });
      const pass = {
        pass_num: 1,
        winner: "A",
        scores: JSON.parse('{"__proto__": 7, "A": 3}') as unknown,
        valid_judges: 1,
        elapsed_s: 1.5,
        judge_details: [],
        incumbent_hash_before: "a",
        incumbent_hash_after: "a",
      };
      fs.writeFileSync(t.at("tournaments/plan-x/history.json"), JSON.stringify([pass]));
      const text = runCliBounded(["tournaments", t.ws]);
      assert.match(text.out, /__proto__ 7/);
      const json = runCliBounded(["tournaments", t.ws, "--json"]);
      assert.match(json.out, /"__proto__": 7/);
    } finally {
      t.cleanup();
    }
  });
});
