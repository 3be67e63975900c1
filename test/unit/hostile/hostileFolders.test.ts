// Hostile and broken folders (issue 11), items 1-4: with real FIFOs, devices, symlinks and sparse
// files, every command answers within 20 s with a non-zero exit and a message naming what was
// found, nothing is read or written outside the temp root, and memory stays bounded.
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { CLI_JS, HostileRoot, hostileRoot, listTree, runCliBounded } from "../../helpers/hostileWorkspace";
import { ROOT_ON_LINUX, skipUnless } from "../../helpers/environmentNeeds";
import { nobodyStage, type NobodyStage } from "../../helpers/asNobody";
import { PERL_LOCK_HELPER, PYTHON_LOCK_HELPER } from "../../../src/core/sources/autodev/lock/fileLockHelpers";
import { UnsafeLockFileError, acquireFileLock } from "../../../src/core/sources/autodev/lock/fileLock";
import { listEvidence } from "../../../src/core/sources/autodev/evidence/evidenceStore";
import { readLastLine } from "../../../src/core/sources/autodev/ledger/ledgerWriter";
import { readTailLines } from "../../../src/core/sources/autodev/ledger/read/ledgerTail";
import { verifyLedger } from "../../../src/core/sources/autodev/ledger/ledgerReader";
import { setMaxLineBytes, DEFAULT_MAX_LINE_BYTES } from "../../../src/core/fs/lineLimit";

/** Asks a lock helper script for the lock on `lockFile`; returns its answer line. */
function helperAnswer(program: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { stdio: ["pipe", "pipe", "pipe"] });
    let out = "";
    const timer = setTimeout(() => (child.kill(), reject(new Error(`${program} helper hung`))), 10_000);
    child.stdout.on("data", (d) => {
      out += d;
      const lines = out.split("\n");
      if (lines.length >= 3) {
        clearTimeout(timer);
        child.stdin.end();
        resolve(lines[1]);
      }
    });
    child.stdin.write("A 1000 10\n");
  });
}

describe("hostile folders: the lock file (item 1)", function () {
  this.timeout(60_000);
  let h: HostileRoot;
  beforeEach(() => (h = hostileRoot()));
  afterEach(() => h.cleanup());

  const variants: [string, (h: HostileRoot) => void, RegExp][] = [
    [
      "a dangling link out of the workspace",
      (h) => fs.symlinkSync(path.join(h.outside, "created-by-lock"), h.at(".lock")),
      /\.lock.*(dangling|symbolic link)/,
    ],
    ["a link to a file outside", (h) => fs.symlinkSync(h.secret, h.at(".lock")), /\.lock.*outside the workspace/],
    ["a directory", (h) => fs.mkdirSync(h.at(".lock")), /\.lock.*directory/],
    ["a FIFO", (h) => execFileSync("mkfifo", [h.at(".lock")]), /\.lock.*FIFO/],
  ];
  for (const [what, make, why] of variants) {
    it(`set-status refuses a .lock that is ${what}: exit 2, a message naming it, nothing created outside`, () => {
      fs.rmSync(h.at(".lock"), { force: true });
      make(h);
      const before = fs.readFileSync(h.at("plan-ledger.jsonl"));
      const r = runCliBounded(["set-status", h.ws, "1.3", "in_progress"]);
      assert.equal(r.code, 2, r.err);
      assert.match(r.err, why);
      assert.doesNotMatch(r.err, /\n\s+at /, "no stack trace");
      assert.deepEqual(listTree(h.outside), [h.secret], "nothing created outside");
      assert.equal(fs.readFileSync(h.secret, "utf8"), "SECRET-OUTSIDE-THE-WORKSPACE\n");
      assert.deepEqual(fs.readFileSync(h.at("plan-ledger.jsonl")), before, "ledger untouched");
    });
  }

  for (const [name, program, args] of [
    ["perl", "perl", ["-e", PERL_LOCK_HELPER]],
    ["python3", "python3", ["-I", "-S", "-c", PYTHON_LOCK_HELPER]],
  ] as const) {
    it(`the ${name} helper itself opens the lock with O_NOFOLLOW: a dangling link or a FIFO is refused, never created through @slow`, async () => {
      const link = path.join(h.ws, "link.lock");
      fs.symlinkSync(path.join(h.outside, "via-helper"), link);
      assert.match(await helperAnswer(program, [...args, link]), /^ERROR .*refusing .*link\.lock.*symbolic link/);
      const fifo = path.join(h.ws, "fifo.lock");
      execFileSync("mkfifo", [fifo]);
      assert.match(await helperAnswer(program, [...args, fifo]), /^ERROR .*refusing .*fifo\.lock.*not a regular file/);
      assert.deepEqual(listTree(h.outside), [h.secret]);
    });
  }

  for (const helper of [
    { kind: "flock", command: "flock" },
    { kind: "perl", command: "perl" },
    { kind: "python", command: "python3" },
  ] as const) {
    it(`acquireFileLock with ${helper.command} refuses a linked .lock before any helper opens it`, async () => {
      const link = path.join(h.ws, "x.lock");
      fs.symlinkSync(path.join(h.outside, "via-flock"), link);
      await assert.rejects(
        acquireFileLock(link, { timeoutMs: 1000, helpers: [helper] }),
        (e: unknown) => e instanceof UnsafeLockFileError && /x\.lock.*symbolic link/.test((e as Error).message),
      );
      assert.deepEqual(listTree(h.outside), [h.secret]);
    });
  }
});

describe("hostile folders: FIFOs, devices, link loops, EACCES (item 2) @slow", function () {
  this.timeout(60_000);
  let h: HostileRoot;
  beforeEach(() => (h = hostileRoot("python-evidence")));
  afterEach(() => h.cleanup());

  // [what, how to make it, what the answer says, what the machine must allow (mknod needs root)]
  const ledgers: [string, (h: HostileRoot) => void, RegExp, boolean?][] = [
    ["a FIFO", (h) => execFileSync("mkfifo", [h.at("plan-ledger.jsonl")]), /FIFO \(named pipe\)/],
    [
      "a link to /dev/zero",
      (h) => fs.symlinkSync("/dev/zero", h.at("plan-ledger.jsonl")),
      /\/dev\/zero, outside the workspace/,
    ],
    [
      "a link to /dev/urandom",
      (h) => fs.symlinkSync("/dev/urandom", h.at("plan-ledger.jsonl")),
      /\/dev\/urandom, outside the workspace/,
    ],
    [
      "a character device (mknod)",
      (h) => execFileSync("mknod", [h.at("plan-ledger.jsonl"), "c", "1", "5"]),
      /character device/,
      ROOT_ON_LINUX,
    ],
    [
      "a link loop",
      (h) => (fs.symlinkSync("loop-b", h.at("plan-ledger.jsonl")), fs.symlinkSync("plan-ledger.jsonl", h.at("loop-b"))),
      /loop of symbolic links/,
    ],
    ["a directory", (h) => fs.mkdirSync(h.at("plan-ledger.jsonl")), /directory/],
    ["a link to a secret outside", (h) => fs.symlinkSync(h.secret, h.at("plan-ledger.jsonl")), /outside the workspace/],
  ];
  for (const [what, make, why, possible = true] of ledgers) {
    it(`a ledger that is ${what}: verify, status, load and set-status answer with exit 2 and say what was found @slow`, function () {
      skipUnless(this, possible, "root on Linux, for mknod");
      fs.rmSync(h.at("plan-ledger.jsonl"));
      make(h);
      for (const args of [
        ["verify", h.ws],
        ["verify", h.ws, "--json"],
        ["status", h.ws],
        ["load", h.ws],
        ["set-status", h.ws, "2.1", "in_progress"],
      ]) {
        const r = runCliBounded(args);
        assert.equal(r.code, 2, `${args.join(" ")}: ${r.out}${r.err}`);
        if (args[0] === "set-status") {
          // The write path refuses first (assertWritable), with its own wording.
          assert.match(r.err, /\.autodev\/plan-ledger\.jsonl/);
          assert.match(r.err, new RegExp(`${why.source}|resolves to|cannot be resolved`));
        } else {
          assert.match(r.err, /the ledger \(\.autodev\/plan-ledger\.jsonl\)/);
          assert.match(r.err, why);
        }
        assert.doesNotMatch(r.out, /ledger ok/);
        assert.ok(!(r.out + r.err).includes("SECRET-OUTSIDE"));
      }
      assert.deepEqual(listTree(h.outside), [h.secret]);
    });
  }

  it("a .autodev/ the user cannot read (EACCES) is an error, not 'ledger ok: 0 entries'", function () {
    skipUnless(this, process.platform !== "win32", "POSIX file permissions");
    // Root reads past permissions, so as root the CLI runs as nobody (setpriv), from a folder nobody
    // can reach: the checkout may sit where other users cannot enter (under /root, in a 0700 folder).
    let nobody: NobodyStage | null = null;
    let ws = h.ws;
    let verify = (dir: string) => {
      const r = spawnSync(process.execPath, [CLI_JS, "verify", dir], { encoding: "utf8", timeout: 10_000 });
      return { code: r.status, out: r.stdout, err: r.stderr };
    };
    if (process.getuid?.() === 0) {
      const stage = nobodyStage(this, "eacces-");
      nobody = stage;
      ws = path.join(stage.dir, "ws");
      fs.cpSync(h.ws, ws, { recursive: true });
      stage.openUp(ws);
      verify = (dir) => stage.cli(["verify", dir], 10_000);
      const reads = verify(ws);
      assert.equal(reads.code, 0, `nobody reads the staged workspace before the chmod (sanity): ${reads.err}`);
    }
    try {
      fs.chmodSync(path.join(ws, ".autodev"), 0o000);
      const r = verify(ws);
      const out = r.out + r.err;
      assert.equal(r.code, 2, out);
      assert.match(out, /permission denied \(EACCES\)/);
      assert.doesNotMatch(out, /ledger ok/);
    } finally {
      fs.chmodSync(path.join(ws, ".autodev"), 0o755);
      nobody?.cleanup();
    }
  });

  it("plan.json, an evidence bundle, a patch and a tournament file as FIFOs: every command answers within 20 s", () => {
    fs.rmSync(h.at("plan.json"));
    execFileSync("mkfifo", [h.at("plan.json")]);
    fs.rmSync(h.at("evidence/1.1-review.json"));
    execFileSync("mkfifo", [h.at("evidence/1.1-review.json")]);
    fs.rmSync(h.at("evidence/1.1.patch"));
    execFileSync("mkfifo", [h.at("evidence/1.1.patch")]);
    fs.mkdirSync(h.at("tournaments/t1"), { recursive: true });
    execFileSync("mkfifo", [h.at("tournaments/t1/history.json")]);
    const ev = runCliBounded(["evidence", h.ws, "1.1", "--json"]);
    assert.match(ev.out + ev.err, /1\.1-review\.json is not a regular file \(found a FIFO/);
    const diff = runCliBounded(["diff", h.ws, "1.1"]);
    assert.notEqual(diff.code, 0);
    assert.match(diff.out + diff.err, /1\.1\.patch is not a regular file \(found a FIFO/);
    assert.equal(runCliBounded(["status", h.ws]).code, 0);
    assert.equal(runCliBounded(["verify", h.ws]).code, 0);
  });

  it("FIFO evidence never takes a thread of Node's shared pool: with 12 FIFOs listed, other file reads still complete", async () => {
    for (let i = 0; i < 12; i++) execFileSync("mkfifo", [h.at(`evidence/9.${i}-review.json`)]);
    const items = await Promise.all(Array.from({ length: 12 }, (_, i) => listEvidence(h.ws, `9.${i}`)));
    for (const list of items) assert.match(list[0].ok ? "" : list[0].error, /not a regular file \(found a FIFO/);
    assert.ok((await fs.promises.readFile(h.at("plan.json"))).length > 0, "the thread pool is free");
  });
});

describe("hostile folders: giant lines, bounded memory (item 3) @slow", function () {
  this.timeout(120_000);
  let h: HostileRoot;
  beforeEach(() => (h = hostileRoot()));
  afterEach(() => {
    setMaxLineBytes(DEFAULT_MAX_LINE_BYTES);
    h.cleanup();
  });

  it("a 2 GB sparse ledger with no newline: verify exits 1 with the line and its size, peak RSS under 600 MB @slow", () => {
    const ledger = h.at("plan-ledger.jsonl");
    fs.writeFileSync(ledger, "");
    fs.truncateSync(ledger, 2 * 1024 ** 3);
    const preload = path.join(h.root, "rss.js");
    fs.writeFileSync(
      preload,
      "process.on('exit', () => require('fs').writeSync(2, '\\nMAXRSS_KB ' + process.resourceUsage().maxRSS + '\\n'));\n",
    );
    const t0 = Date.now();
    const r = runCliBounded(["verify", h.ws, "--json"], process.env, ["--require", preload], 90);
    console.log(
      `      2 GB sparse no-newline ledger: verify took ${((Date.now() - t0) / 1000).toFixed(1)} s (load average ${os.loadavg()[0].toFixed(1)})`,
    );
    assert.equal(r.code, 1, r.err);
    const j = JSON.parse(r.out);
    assert.equal(j.errors[0].kind, "line_too_long");
    assert.equal(j.errors[0].line, 1);
    assert.match(
      j.errors[0].message,
      /ledger line 1 is 2147483648 bytes \(2048\.0 MB\), over the line-length limit of 256\.0 MB/,
    );
    const rssMB = Number(/MAXRSS_KB (\d+)/.exec(r.err)![1]) / 1024;
    console.log(`      2 GB sparse no-newline ledger: verify peak RSS ${rssMB.toFixed(0)} MB`);
    assert.ok(rssMB < 600, `peak RSS ${rssMB} MB`);
  });

  it("a line over --max-line-mb is an error at its line with its size, and reading goes on after it", async () => {
    const ledger = h.at("plan-ledger.jsonl");
    const lines = fs.readFileSync(ledger, "utf8").split("\n");
    const big = `{"op": "impl_tournament_complete", "pad": "${"x".repeat(3 * 1024 * 1024)}"}`;
    lines.splice(3, 0, big);
    fs.writeFileSync(ledger, lines.join("\n"));
    const r = runCliBounded(["verify", h.ws, "--json", "--max-line-mb", "1"]);
    assert.equal(r.code, 1, r.err);
    const j = JSON.parse(r.out);
    assert.equal(j.errors[0].kind, "line_too_long");
    assert.equal(j.errors[0].line, 4);
    assert.match(
      j.errors[0].message,
      new RegExp(
        `ledger line 4 is ${Buffer.byteLength(big)} bytes .* over the line-length limit of 1\\.0 MB.*--max-line-mb`,
      ),
    );
    assert.equal(j.entries, 21, "every entry after the long line was still read");
    assert.equal(
      runCliBounded(["verify", h.ws, "--json", "--max-line-mb", "0"]).code,
      2,
      "a bad limit is a usage error",
    );
    setMaxLineBytes(1024 * 1024);
    const direct = await verifyLedger(h.ws);
    assert.equal(direct.report.errors[0].kind, "line_too_long");
  });

  it("set-status on a ledger whose last line is over the limit refuses with the size, nothing appended", () => {
    const ledger = h.at("plan-ledger.jsonl");
    const before = fs.statSync(ledger).size;
    fs.appendFileSync(ledger, "{" + "y".repeat(2 * 1024 * 1024));
    const r = runCliBounded(["set-status", h.ws, "1.3", "in_progress", "--max-line-mb", "1"]);
    assert.equal(r.code, 1, r.err);
    assert.match(r.err, /line 22 is \d+ bytes .*over the line-length limit/);
    assert.equal(fs.statSync(ledger).size, before + 1 + 2 * 1024 * 1024);
  });
});

describe("hostile folders: tail reads (item 4)", function () {
  this.timeout(60_000);
  let h: HostileRoot;
  beforeEach(() => (h = hostileRoot()));
  afterEach(() => {
    setMaxLineBytes(DEFAULT_MAX_LINE_BYTES);
    h.cleanup();
  });

  it("readLastLine finds a multi-MB last line across chunks, skipping blank lines, CR, CRLF and Unicode spaces", async () => {
    const f = path.join(h.ws, "t.jsonl");
    const last = "z".repeat(3 * 1024 * 1024 + 17);
    fs.writeFileSync(f, `first\r\n${last}\r\n \t\r\u3000\n\n`);
    const got = await readLastLine(f);
    assert.equal(got!.text?.toString(), last);
    assert.equal(got!.missingFinalNewline, false);
    fs.writeFileSync(f, `a\rb`);
    assert.deepEqual(
      [String((await readLastLine(f))!.text), (await readLastLine(f))!.missingFinalNewline],
      ["b", true],
    );
    fs.writeFileSync(f, " \n\n");
    assert.equal((await readLastLine(f))?.text, null, "a blank ledger has no last line");
    assert.equal(await readLastLine(path.join(h.ws, "none.jsonl")), null, "a missing one is null");
    setMaxLineBytes(1024 * 1024);
    fs.writeFileSync(f, `ok\n${last}`);
    await assert.rejects(readLastLine(f), /last ledger line .* is at least \d+ bytes, over the line-length limit/);
  });

  it("readTailLines returns the lines from the last snapshot on, across chunk boundaries", async () => {
    const ledger = h.at("plan-ledger.jsonl");
    const lines = fs.readFileSync(ledger, "utf8").split("\n").filter(Boolean);
    const lastSnap = lines.map((l) => JSON.parse(l).op).lastIndexOf("snapshot");
    const tail = await readTailLines(ledger, (op) => op === "snapshot", h.ws);
    assert.deepEqual(tail!.map(String), lines.slice(lastSnap));
    fs.writeFileSync(ledger, lines.join("\r\n") + "\r\n" + " ".repeat(2_500_000) + "\n");
    assert.deepEqual(
      (await readTailLines(ledger, (op) => op === "snapshot", h.ws))!.map(String),
      lines.slice(lastSnap),
    );
  });
});
