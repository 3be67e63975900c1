/**
 * Every mistake a new user makes with `autodev-state` gets a useful answer
 * (issue 12 §2): the built dist/cli.js in a child process, on copies of the
 * Python-written fixtures. Wrong folder, missing or unknown arguments, unknown
 * task ids and ops, out-of-range seqs and empty filters exit 2 with a message
 * that names what is wrong and what exists; write commands touch nothing on
 * disk when they refuse; help and --version answer; human and JSON verify
 * report the same findings.
 */
import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ledgerPath, lockPath, planPath } from "../../../src/core/sources/autodev/autodevPaths";
import { REPO_ROOT, copyFixture } from "../fixtures";

const CLI = path.join(REPO_ROOT, "dist/cli.js");
const TASKS = "1.1, 1.2, 1.3, 2.1, 2.2, 2.3";

function cli(...args: string[]): { code: number; out: string; err: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8" });
  return { code: r.status ?? -1, out: r.stdout, err: r.stderr };
}

/** Every file under `dir` with its bytes, to prove a refused command changed nothing. */
function snapshotTree(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const name of fs.readdirSync(d)) {
      const p = path.join(d, name);
      if (fs.statSync(p).isDirectory()) walk(p);
      else out.set(path.relative(dir, p), fs.readFileSync(p).toString("base64"));
    }
  };
  walk(dir);
  return out;
}

describe("autodev-state: every mistake gets a useful answer @slow", function () {
  this.timeout(60_000);
  const made: string[] = [];
  const tempDir = () => {
    const d = fs.mkdtempSync(path.join(os.tmpdir(), "autodev-cli-mistakes-"));
    made.push(d);
    return d;
  };
  const fixture = (name = "python-small") => {
    const d = copyFixture(name);
    made.push(d);
    return d;
  };
  after(() => {
    for (const d of made) fs.rmSync(d, { recursive: true, force: true });
  });

  describe("no ledger where the user pointed", () => {
    it("verify on a folder without .autodev/ exits 2 naming the ledger path; never ok, never 0 entries", () => {
      const dir = tempDir();
      for (const json of [false, true]) {
        const r = json ? cli("verify", dir, "--json") : cli("verify", dir);
        assert.equal(r.code, 2, r.err);
        assert.ok(r.err.includes(`no AutoDev ledger at ${path.join(dir, ".autodev", "plan-ledger.jsonl")}`), r.err);
        assert.doesNotMatch(r.out + r.err, /ledger ok|"ok": true|0 entries/);
      }
    });

    it("verify pointed at .autodev/ itself says which folder was meant", () => {
      const dir = fixture();
      const r = cli("verify", path.join(dir, ".autodev"));
      assert.equal(r.code, 2);
      assert.match(r.err, /no AutoDev ledger at .*\.autodev\/\.autodev\/plan-ledger\.jsonl; did you mean /);
      assert.ok(r.err.includes(`did you mean ${dir}?`), r.err);
    });

    it("every read command exits 2 on a folder without a ledger", () => {
      const dir = tempDir();
      for (const args of [
        ["verify"],
        ["replay"],
        ["load"],
        ["status"],
        ["log"],
        ["evidence", dir, "1.1"],
        ["diff", dir, "1.1"],
      ]) {
        const r = cli(...(args.length === 1 ? [args[0], dir] : args));
        assert.equal(r.code, 2, `${args[0]}: ${r.out}${r.err}`);
        assert.match(r.err, /no AutoDev ledger at /, args[0]);
      }
      assert.deepEqual(fs.readdirSync(dir), []);
    });
  });

  describe("write commands never create state where there is no plan", () => {
    it("set-status, retry, escalate and append on a folder without .autodev/ create nothing", () => {
      const dir = tempDir();
      for (const args of [
        ["set-status", dir, "1.1", "coded"],
        ["retry", dir, "1.1"],
        ["escalate", dir, "1.1"],
        ["append", dir, "update_task_status", "--payload", '{"task_id": "1.1", "status": "coded"}'],
      ]) {
        const r = cli(...args);
        assert.equal(r.code, 2, `${args[0]}: ${r.err}`);
        assert.match(r.err, /no AutoDev ledger at /);
      }
      assert.deepEqual(fs.readdirSync(dir), [], "no .autodev/ was created");
    });

    it("an empty ledger is no plan: no .lock appears, the ledger stays empty", () => {
      const dir = tempDir();
      fs.mkdirSync(path.join(dir, ".autodev"));
      fs.writeFileSync(ledgerPath(dir), "");
      const r = cli("escalate", dir, "1.1");
      assert.equal(r.code, 2);
      assert.match(r.err, /has no plan yet/);
      assert.equal(fs.existsSync(lockPath(dir)), false);
      assert.equal(fs.readFileSync(ledgerPath(dir), "utf8"), "");
    });

    it("bad arguments are refused before anything on disk changes", () => {
      const dir = fixture();
      fs.rmSync(lockPath(dir));
      const before = snapshotTree(dir);
      const refused = [
        cli("set-status", dir, "1.3", "done"),
        cli("set-status", dir, "1.3", "coded", "--lock-timeout", "soon"),
        cli("set-status", dir, "9.9", "coded"),
        cli("retry", dir, "9.9"),
        cli("append", dir, "bogus", "--payload", "{}"),
        cli("append", dir, "update_task_status", "--payload", "[1]"),
        cli("init", dir),
      ];
      for (const r of refused) assert.equal(r.code, 2, r.err);
      assert.deepEqual(snapshotTree(dir), before, "no file was created or changed");
      assert.equal(fs.existsSync(lockPath(dir)), false, "no .lock was created");
    });
  });

  describe("missing and unknown arguments are named", () => {
    it("escalate DIR, set-status DIR TASK and evidence DIR name what is missing", () => {
      const dir = fixture();
      const cases: Array<[string[], RegExp]> = [
        [["escalate", dir], /missing TASK/],
        [["set-status", dir, "1.3"], /missing STATUS/],
        [["set-status", dir], /missing TASK and STATUS/],
        [["evidence", dir], /missing TASK/],
        [["diff", dir], /missing TASK/],
      ];
      for (const [args, expected] of cases) {
        const r = cli(...args);
        assert.equal(r.code, 2, args.join(" "));
        assert.match(r.err, expected);
      }
    });

    it("an unknown task id lists the task ids that exist (evidence, diff, log --task, set-status, retry)", () => {
      const dir = fixture();
      const before = fs.readFileSync(ledgerPath(dir));
      for (const args of [
        ["evidence", dir, "9.9"],
        ["diff", dir, "9.9"],
        ["log", dir, "--task", "9.9"],
        ["set-status", dir, "9.9", "coded"],
        ["retry", dir, "9.9"],
        ["escalate", dir, "9.9"],
      ]) {
        const r = cli(...args);
        assert.equal(r.code, 2, `${args.join(" ")}: ${r.out}${r.err}`);
        assert.ok(r.err.includes(`unknown task "9.9"; the plan's tasks are: ${TASKS}`), r.err);
      }
      assert.ok(fs.readFileSync(ledgerPath(dir)).equals(before));
    });

    it("an unknown --op names the known ops", () => {
      const r = cli("log", fixture(), "--op", "update_status");
      assert.equal(r.code, 2);
      assert.match(
        r.err,
        /unknown op "update_status"; known ops: init_plan, update_plan, update_task_status, append_evidence/,
      );
    });

    it("replay --at past the head or below 1 is an error; the last seq is named", () => {
      const dir = fixture();
      const past = cli("replay", dir, "--at", "22");
      assert.equal(past.code, 2);
      assert.match(past.err, /past the last entry \(seq 21\); choose a seq from 1 to 21/);
      for (const at of ["0", "-3", "1.5", "x"]) assert.equal(cli("replay", dir, "--at", at).code, 2, at);
      assert.equal(cli("replay", dir, "--at", "21", "--json").code, 0);
    });

    it("a filter that matches nothing says so (and exits 0: nothing is wrong)", () => {
      const r = cli("log", fixture(), "--task", "1.1", "--op", "mark_blocked");
      assert.equal(r.code, 0);
      assert.equal(r.out, "");
      assert.match(r.err, /^no entries match --task 1\.1 --op mark_blocked \(21 entries in the ledger\)/);
    });
  });

  describe("help", () => {
    it("--version prints the package version", () => {
      const version = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")).version;
      const r = cli("--version");
      assert.equal(r.code, 0);
      assert.equal(r.out.trim(), `autodev-state ${version}`);
    });

    it("help COMMAND and COMMAND --help print that command's help, not everything", () => {
      for (const r of [cli("help", "set-status"), cli("set-status", "--help")]) {
        assert.equal(r.code, 0);
        assert.match(r.out, /^usage: autodev-state set-status \[DIR\] TASK STATUS/);
        assert.match(r.out, /state machine/);
        assert.doesNotMatch(r.out, /replay/);
      }
      assert.equal(cli("help", "nope").code, 2);
    });

    it("a usage error prints one line plus where to read more, not the whole usage", () => {
      const r = cli("verify", fixture(), "--jsn");
      assert.equal(r.code, 2);
      assert.deepEqual(r.err.trimEnd().split("\n"), [
        'autodev-state verify: unknown option "--jsn": did you mean --json? its options are --expect-head VALUE, --json',
        "run `autodev-state help verify`",
      ]);
      const unknown = cli("frobnicate");
      assert.equal(unknown.err.trimEnd().split("\n").length, 2);
      assert.match(unknown.err, /unknown command "frobnicate"; commands: verify, replay/);
    });
  });

  describe("verify: the same report in text and JSON", () => {
    it("a broken ledger's findings go to stdout in text mode", () => {
      const dir = fixture();
      fs.writeFileSync(
        ledgerPath(dir),
        fs.readFileSync(ledgerPath(dir), "utf8").replace('"title": "Write README"', '"title": "Write READYOU"'),
      );
      const text = cli("verify", dir);
      const json = JSON.parse(cli("verify", dir, "--json").out);
      assert.equal(text.code, 1);
      assert.match(text.out, /^ledger BROKEN: /);
      for (const e of json.errors) assert.ok(text.out.includes(e.message), e.message);
    });

    it("FSM warnings, missing evidence and plan.json drift appear in both", () => {
      const dir = fixture();
      // Python moves 1.3 pending → complete without the state machine (its writer does not check edges).
      const py = spawnSync(
        "python3",
        [path.join(REPO_ROOT, "test/python/tools/set_status.py"), dir, "1.3", "complete"],
        {
          encoding: "utf8",
        },
      );
      assert.equal(py.status, 0, py.stderr);
      fs.appendFileSync(planPath(dir), "\n");
      const text = cli("verify", dir);
      const json = JSON.parse(cli("verify", dir, "--json").out);
      assert.equal(text.code, 0, text.err);
      assert.equal(json.ok, true);
      const kinds = json.warnings.map((w: { kind: string }) => w.kind);
      for (const kind of ["fsm_violation", "missing_evidence", "plan_json_mismatch"]) {
        assert.ok(kinds.includes(kind), `${kind} in ${kinds}`);
      }
      for (const w of json.warnings) assert.ok(text.out.includes(w.message), `text output lacks: ${w.message}`);
      assert.match(text.out, /warning: plan\.json: plan\.json does not match the plan in the ledger/);
    });
  });

  describe("retries and escalations", () => {
    it("log and log --json label them as retry N / escalated, not coded → coded", () => {
      const dir = fixture();
      const text = cli("log", dir, "--task", "1.1").out.split("\n");
      assert.match(
        text.find((l) => l.startsWith("#7 "))!,
        /update_task_status\s+1\.1\s+retry 1 /,
      );
      assert.match(
        text.find((l) => l.startsWith("#17 "))!,
        /update_task_status\s+1\.1\s+escalated /,
      );
      const rows = JSON.parse(cli("log", dir, "--json", "--task", "1.1").out) as Array<{
        seq: number;
        change: string;
        retry_count: number | null;
        escalated: boolean;
      }>;
      const bySeq = new Map(rows.map((r) => [r.seq, r]));
      assert.deepEqual(
        [bySeq.get(7)!.change, bySeq.get(7)!.retry_count, bySeq.get(7)!.escalated],
        ["retry 1", 1, false],
      );
      assert.deepEqual(
        [bySeq.get(17)!.change, bySeq.get(17)!.retry_count, bySeq.get(17)!.escalated],
        ["escalated", null, true],
      );
      assert.ok(
        rows.every((r) => !/^(\w+) → \1$/.test(r.change ?? "")),
        "no X → X labels",
      );
    });

    it("a retry written by the CLI reads as the next retry", () => {
      const dir = fixture();
      assert.equal(cli("retry", dir, "1.1").code, 0);
      const last = cli("log", dir, "--task", "1.1", "--op", "update_task_status").out.trim().split("\n").pop()!;
      assert.match(last, /1\.1\s+retry 2 /);
    });
  });
});
