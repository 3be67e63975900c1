/**
 * Issue 21, items 4, 5, 6, 8, 9, 12 and 13: agloop's "Recover from checkpoint" against a hook
 * that rewrites state.json meanwhile, a FIFO for log.json, `.agloop` swapped for a link to an
 * outside folder (once, deterministically, and in a loop with CPU burners), a read-only log.json,
 * deeply nested checkpoints and state; and the lock probe saying "cannot tell".
 */
import { strict as assert } from "node:assert";
import { execFileSync, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { agloopSource } from "../../../src/core/sources/agloop/agloopSource";
import { planRecovery, runRecovery } from "../../../src/core/sources/agloop/agloopRecovery";
import { nobodyStage } from "../../helpers/asNobody";
import { probeAutodevRunning } from "../../../src/core/sources/autodev/run/runningProbe";
import type { SourceLocation } from "../../../src/core/sources/stateSource";
import {
  REPO,
  hostileRoot,
  listTree,
  runCliBounded,
  withCpuBurners,
  type HostileRoot,
} from "../../helpers/hostileWorkspace";

const NO_RETRY = { delayMs: 1, retries: 0 };

/** A hostile root with agloop state whose state.json is torn (recovery is offered), mode 0644. */
function tornAgloop(): { h: HostileRoot; loc: SourceLocation; state: string; log: string } {
  const h = hostileRoot("python-small");
  fs.cpSync(path.join(REPO, "test/fixtures/agloop-clean/.agloop"), path.join(h.ws, ".agloop"), { recursive: true });
  const state = path.join(h.ws, ".agloop/state.json");
  fs.writeFileSync(state, '{"torn": ');
  fs.chmodSync(state, 0o644);
  const loc: SourceLocation = { kind: "agloop", workspace: h.ws, dir: path.join(h.ws, ".agloop"), relDir: ".agloop" };
  return { h, loc, state, log: path.join(h.ws, ".agloop/log.json") };
}

/** Rejects when `p` takes longer than `ms` (a hang), after calling `unblock`. */
async function within<T>(p: Promise<T>, ms: number, unblock: () => void): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      unblock();
      reject(new Error(`did not answer within ${ms} ms (hang)`));
    }, ms);
  });
  try {
    return await Promise.race([p, hang]);
  } finally {
    clearTimeout(timer);
  }
}

/** Patches fs.promises.open for one test; `before(path)` runs before each open. */
function onOpen(before: (file: string) => void): () => void {
  const fsp = fs.promises as unknown as { open: (...a: unknown[]) => Promise<fs.promises.FileHandle> };
  const original = fsp.open;
  fsp.open = async (...args: unknown[]) => {
    before(String(args[0]));
    return original.apply(fs.promises, args);
  };
  return () => (fsp.open = original);
}

describe("hostile recovery (items 4, 5, 6, 8, 9, 13)", function () {
  this.timeout(60_000);

  it("4: a hook that rewrites a valid state.json while the checkpoints are read is not overwritten", async () => {
    const { h, loc, state } = tornAgloop();
    const valid = fs.readFileSync(path.join(REPO, "test/fixtures/agloop-clean/.agloop/state.json"), "utf8");
    let rewrote = false;
    const restore = onOpen((file) => {
      if (!rewrote && file.includes(`${path.sep}checkpoints${path.sep}`)) {
        rewrote = true; // the hook's atomic write lands while recovery reads a checkpoint
        fs.writeFileSync(`${state}.hook`, valid);
        fs.renameSync(`${state}.hook`, state);
      }
    });
    try {
      await assert.rejects(
        runRecovery(loc, undefined, new Date(), NO_RETRY),
        /changed while the checkpoints were read|exists and parses/,
      );
      assert.ok(rewrote);
      assert.equal(fs.readFileSync(state, "utf8"), valid, "the hook's state.json is kept");
    } finally {
      restore();
      h.cleanup();
    }
  });

  it("5: log.json swapped for a FIFO right before the recovery appends: refused at once, nothing written", async () => {
    const { h, loc, state, log } = tornAgloop();
    const fsp = fs.promises as unknown as { open: (...a: unknown[]) => Promise<fs.promises.FileHandle> };
    const original = fsp.open;
    let swapped = false;
    fsp.open = async (...args: unknown[]) => {
      const flags = Number(args[1]);
      if (!swapped && String(args[0]).endsWith("log.json") && (flags & fs.constants.O_WRONLY) !== 0) {
        swapped = true; // after every check: only the open itself can notice
        fs.rmSync(log);
        execFileSync("mkfifo", [log]);
      }
      return original.apply(fs.promises, args);
    };
    try {
      // A blocked open holds a libuv thread until a reader comes: the test opens one itself after 5 s.
      const unblock = (): void =>
        void fs.open(
          log,
          fs.constants.O_RDONLY | fs.constants.O_NONBLOCK,
          (e, fd) => !e && setTimeout(() => fs.close(fd, () => undefined), 2000),
        );
      const outcome = await within(
        runRecovery(loc, undefined, new Date(), NO_RETRY).then(
          () => "recovered",
          (e: Error) => e.message,
        ),
        5000,
        unblock,
      );
      assert.ok(swapped, "the FIFO raced the open");
      assert.match(outcome, /log\.json.*FIFO/);
      assert.equal(fs.readFileSync(state, "utf8"), '{"torn": ', "state.json untouched");
    } finally {
      fsp.open = original;
      h.cleanup();
    }
  });

  it("6: .agloop swapped for a link to an outside folder right before the write: nothing lands outside", async () => {
    const { h, loc, state } = tornAgloop();
    const agloop = path.join(h.ws, ".agloop");
    const link = path.join(h.ws, "swap-link");
    fs.symlinkSync(h.outside, link);
    const exchange = (): void => {
      fs.renameSync(agloop, `${agloop}.moved`);
      fs.renameSync(link, agloop);
      fs.renameSync(`${agloop}.moved`, link);
    };
    let swapped = false;
    const restore = onOpen((file) => {
      if (!swapped && path.basename(file).startsWith(".state.json.")) {
        swapped = true; // the attacker's exchange lands between the checks and the temp file
        exchange();
      }
    });
    try {
      await runRecovery(loc, undefined, new Date(), NO_RETRY).catch((e: Error) => e);
      assert.ok(swapped, "the swap raced the write");
      assert.deepEqual(listTree(h.outside), [h.secret], "nothing was written outside the workspace");
      exchange(); // back: .agloop is the real folder again
      assert.notEqual(fs.readFileSync(state, "utf8"), '{"torn": ', "the state was recovered into the real .agloop/");
    } finally {
      restore();
      h.cleanup();
    }
  });

  it("6: .agloop exchanged with an outside link in a loop, with CPU burners: recovery never writes outside @slow", async () => {
    const { h, loc, state } = tornAgloop();
    fs.symlinkSync(h.outside, path.join(h.ws, "swap-link"));
    const realDir = fs.openSync(path.join(h.ws, ".agloop"), fs.constants.O_RDONLY | fs.constants.O_DIRECTORY);
    try {
      await withCpuBurners(async () => {
        const swapper = spawn("python3", [
          path.join(REPO, "test/python/tools/swap_paths.py"),
          path.join(h.ws, ".agloop"),
          path.join(h.ws, "swap-link"),
          "4",
        ]);
        const done = new Promise((resolve) => swapper.on("exit", resolve));
        let over = false;
        void done.then(() => (over = true));
        let runs = 0;
        let recovered = 0;
        while (!over) {
          if (
            await runRecovery(loc, undefined, new Date(), NO_RETRY).then(
              () => true,
              () => false,
            )
          ) {
            recovered++;
          }
          runs++;
          fs.writeFileSync(`/proc/self/fd/${realDir}/state.json`, '{"torn": '); // torn again, in the real folder
          assert.deepEqual(fs.readdirSync(h.outside), ["secret"], `run ${runs}: nothing written outside`);
        }
        await done;
        console.log(`      ${runs} recoveries while swapping, ${recovered} wrote into the real .agloop/, 0 outside`);
        assert.ok(runs > 5, `${runs} recoveries raced the swaps`);
      });
      assert.ok(fs.existsSync(state));
    } finally {
      fs.closeSync(realDir);
      h.cleanup();
    }
  });

  it("9: a read-only log.json (EACCES, as nobody) refuses before state.json is written; a failed append says what was written; the mode is kept @slow", async function () {
    const nobody = nobodyStage(this, "recovery-");
    const recovery = nobody.bundle("src/core/sources/agloop/agloopRecovery.ts");
    const { h, loc, state, log } = tornAgloop();
    try {
      fs.chmodSync(h.root, 0o755);
      for (const p of listTree(h.root)) {
        if (!fs.lstatSync(p).isSymbolicLink()) fs.chmodSync(p, fs.lstatSync(p).isDirectory() ? 0o777 : 0o666);
      }
      fs.chmodSync(log, 0o444);
      fs.chmodSync(state, 0o644);
      const script = `require(${JSON.stringify(recovery)}).runRecovery(${JSON.stringify(loc)}, undefined, new Date(), { delayMs: 1, retries: 0 }).then(() => console.log("RECOVERED"), (e) => { console.log("REFUSED " + e.message); })`;
      const ran = nobody.node(script, 10_000);
      assert.equal(ran.code, 0, ran.err);
      const out = ran.out;
      assert.match(out, /^REFUSED .*log\.json.*(EACCES|not writable)/m);
      assert.match(out, /Nothing was written/);
      assert.equal(fs.readFileSync(state, "utf8"), '{"torn": ', "state.json untouched");
      // As root the append can still fail (disk full): the message says state.json WAS replaced.
      fs.chmodSync(log, 0o644);
      const probe = await fs.promises.open(state, "r");
      const proto = Object.getPrototypeOf(probe) as { write: (...a: unknown[]) => Promise<unknown> };
      await probe.close();
      const write = proto.write;
      proto.write = async function (this: fs.promises.FileHandle, ...a: unknown[]) {
        if (typeof a[0] === "string" && a[0].includes("state_recovered")) {
          throw Object.assign(new Error("ENOSPC: no space left on device"), { code: "ENOSPC" });
        }
        return write.apply(this, a);
      };
      try {
        await assert.rejects(
          runRecovery(loc, undefined, new Date(), NO_RETRY),
          /state\.json WAS replaced.*could not be appended.*ENOSPC/,
        );
      } finally {
        proto.write = write;
      }
      assert.equal(
        (fs.statSync(state).mode & 0o777).toString(8),
        "644",
        "the hooks' mode is kept (it was 0600 after a recovery)",
      );
    } finally {
      h.cleanup();
      nobody.cleanup();
    }
  });

  it("13: an unreadable state.json (a FIFO) is refused as unreadable, not as 'exists and parses'", async () => {
    const { h, loc, state } = tornAgloop();
    try {
      fs.rmSync(state);
      execFileSync("mkfifo", [state]);
      await assert.rejects(
        planRecovery(loc, undefined, NO_RETRY),
        (e: Error) => /cannot be read/.test(e.message) && !/exists and parses/.test(e.message),
      );
    } finally {
      h.cleanup();
    }
  });

  it("8: arrays nested 5,000 deep in a checkpoint and 10,000 deep in pending_decision: no RangeError, the next checkpoint is used @slow", async () => {
    const { h, loc, state } = tornAgloop();
    try {
      const valid = fs.readFileSync(path.join(REPO, "test/fixtures/agloop-clean/.agloop/state.json"), "utf8").trim();
      const deep = `${valid.slice(0, -1)},"_checkpoint":{"type":"pre-compact","trigger":"x"},"deep":${"[".repeat(5000)}${"]".repeat(5000)}}`;
      fs.writeFileSync(path.join(h.ws, ".agloop/checkpoints/pre-compact-20990101-000000.json"), deep);
      const tree = await agloopSource.tree(loc);
      assert.ok(tree.length > 0);
      const plan = await planRecovery(loc, undefined, NO_RETRY);
      assert.notEqual(
        plan.checkpoint,
        "pre-compact-20990101-000000.json",
        "the too-deep checkpoint is skipped for the next",
      );
      fs.writeFileSync(
        state,
        `${valid.slice(0, -1)},"compaction_context":{"pending_decision":${"[".repeat(10000)}${"]".repeat(10000)}}}`,
      );
      const r = runCliBounded(["check", h.ws]);
      assert.doesNotMatch(r.out + r.err, /check_failed|RangeError|Maximum call stack/);
      assert.ok((await agloopSource.tree(loc)).length > 0);
    } finally {
      h.cleanup();
    }
  });
});

describe("hostile: the lock probe says 'cannot tell' (item 12) @slow", () => {
  for (const [what, make] of [
    ["a FIFO", (p: string) => execFileSync("mkfifo", [p])],
    ["a link", (p: string) => fs.symlinkSync("plan-ledger.jsonl", p)],
  ] as const) {
    it(`.autodev/.lock ${what}: status says it cannot tell, never 'not running'`, async () => {
      const h = hostileRoot("python-small");
      try {
        fs.rmSync(h.at(".lock"), { force: true });
        make(h.at(".lock"));
        const r = runCliBounded(["status", h.ws]);
        assert.match(r.out, /Cannot tell whether AutoDev is running/);
        assert.doesNotMatch(r.out, /AutoDev is not running/);
        const j = JSON.parse(runCliBounded(["status", h.ws, "--json"]).out) as { running: unknown };
        assert.equal(j.running, null);
      } finally {
        h.cleanup();
      }
    });
  }

  it("a held lock with no probe helper on PATH is 'cannot tell'", async () => {
    const h = hostileRoot("python-small");
    try {
      fs.writeFileSync(h.at(".lock"), "");
      const probe = await probeAutodevRunning(h.ws, []);
      assert.equal(probe.running, null);
      assert.match(probe.detail, /cannot tell/);
    } finally {
      h.cleanup();
    }
  });
});
