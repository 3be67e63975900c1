/**
 * Issue 21, items 6 and 7 for AutoDev's own writes: `.autodev` exchanged with
 * a link to an outside folder at the moment of a write — the ledger's
 * append-by-copy, plan.json's replace, the lock file — must land nothing
 * outside the workspace and lose nothing: the write goes into the folder that
 * was checked, or is refused with a message that says so. Once exactly at the
 * write (the link in place for that one call, gone right after, so every check
 * around it passes), and in a loop with CPU burners.
 */
import { strict as assert } from "node:assert";
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import * as fs from "node:fs";
import * as path from "node:path";
import { PlanManager } from "../../../src/core/sources/autodev/ledger/planManager";
import { verifyLedger } from "../../../src/core/sources/autodev/ledger/ledgerReader";
import { createResponseFile } from "../../../src/core/sources/autodev/inline/responseCreate";
import {
  REPO,
  exchanger,
  hostileRoot,
  listTree,
  withCpuBurners,
  type HostileRoot,
} from "../../helpers/hostileWorkspace";

/** The mutable `node:fs` module itself (an `import * as` namespace cannot be patched). */
const fsModule = createRequire(__filename)("node:fs") as { openSync: (...a: unknown[]) => number };
const fsp = fs.promises as unknown as Record<"open" | "copyFile", (...a: unknown[]) => Promise<unknown>>;

/** A workspace (python-small: a plan and a ledger) with `swap-link` → the outside folder, and the exchange. */
function swappable(): { h: HostileRoot; exchange: () => void } {
  const h = hostileRoot("python-small");
  const autodev = path.join(h.ws, ".autodev");
  const link = path.join(h.ws, "swap-link");
  fs.symlinkSync(h.outside, link);
  return { h, exchange: exchanger(autodev, link) };
}

/**
 * Wraps `fs.promises.open`, `fs.promises.copyFile` and `fs.openSync`: the first
 * call whose path's last component starts with `prefix` runs with `.autodev`
 * exchanged for the link, and the exchange is undone right after it. Returns
 * how many swaps ran and the restore.
 */
function swapAround(prefix: string, exchange: () => void): { swaps: () => number; restore: () => void } {
  let swaps = 0;
  const hits = (args: unknown[]): boolean =>
    swaps === 0 && args.slice(0, 2).some((a) => typeof a === "string" && path.basename(a).startsWith(prefix));
  const originals = { open: fsp.open, copyFile: fsp.copyFile, openSync: fsModule.openSync };
  const wrapAsync =
    (original: (...a: unknown[]) => Promise<unknown>) =>
    async (...args: unknown[]): Promise<unknown> => {
      if (!hits(args)) return original.apply(fs.promises, args);
      exchange();
      swaps++;
      try {
        return await original.apply(fs.promises, args);
      } finally {
        exchange();
      }
    };
  fsp.open = wrapAsync(originals.open);
  fsp.copyFile = wrapAsync(originals.copyFile);
  fsModule.openSync = (...args: unknown[]): number => {
    if (!hits(args)) return originals.openSync.apply(fsModule, args);
    exchange();
    swaps++;
    try {
      return originals.openSync.apply(fsModule, args);
    } finally {
      exchange();
    }
  };
  return {
    swaps: () => swaps,
    restore: () => {
      fsp.open = originals.open;
      fsp.copyFile = originals.copyFile;
      fsModule.openSync = originals.openSync;
    },
  };
}

describe("hostile: .autodev swapped for a link to an outside folder at the moment of a write", () => {
  const cases: { what: string; prefix: string; write: (pm: PlanManager) => Promise<unknown>; op: string }[] = [
    {
      what: "the ledger's temp copy",
      prefix: ".ledger.",
      write: (pm) => pm.ledgerAppend("impl_tournament_complete"),
      op: "impl_tournament_complete",
    },
    {
      what: "plan.json's temp file",
      prefix: ".plan.",
      write: (pm) => pm.updateTaskStatus("1.3", "in_progress"),
      op: "snapshot",
    },
    {
      what: "the lock file",
      prefix: ".lock",
      write: (pm) => pm.ledgerAppend("impl_tournament_complete"),
      op: "impl_tournament_complete",
    },
  ];
  for (const c of cases) {
    it(`${c.what}: nothing lands outside, the write is in the real .autodev/`, async () => {
      const { h, exchange } = swappable();
      const before = (await verifyLedger(h.ws)).report.entries;
      const hook = swapAround(c.prefix, exchange);
      try {
        await c.write(new PlanManager(h.ws, { sessionId: "swap", lockTimeoutS: 5 }));
      } finally {
        hook.restore();
      }
      try {
        assert.equal(hook.swaps(), 1, "the swap raced the write");
        assert.deepEqual(listTree(h.outside), [h.secret], "nothing was written outside the workspace");
        const ops: string[] = [];
        const res = await verifyLedger(h.ws, { onEntry: (s) => ops.push(s.op) });
        assert.equal(res.report.ok, true, JSON.stringify(res.report.errors));
        assert.ok(res.report.entries > before, "the entry was appended to the real ledger");
        assert.equal(ops[ops.length - 1], c.op);
        assert.deepEqual(
          fs.readdirSync(path.join(h.ws, ".autodev")).filter((n) => n.endsWith(".tmp")),
          [],
          "no temp file left",
        );
      } finally {
        h.cleanup();
      }
    });
  }

  it("a folder that is a link when the write opens it is refused, naming it; nothing outside", async () => {
    const { h, exchange } = swappable();
    const pm = new PlanManager(h.ws, { sessionId: "swap", lockTimeoutS: 5 });
    await pm.assertWritable(); // the checks pass; the swap comes after them
    pm.assertWritable = async () => exchange(); // …so the write meets the link
    try {
      await assert.rejects(
        pm.ledgerAppend("impl_tournament_complete"),
        /\.autodev .*(link|swapped).*nothing was written/i,
      );
      assert.deepEqual(listTree(h.outside), [h.secret]);
    } finally {
      h.cleanup();
    }
  });
});

describe("hostile: Create Response (.autodev/responses/) against swapped and linked folders", () => {
  const response = (h: HostileRoot): string => path.join(h.ws, ".autodev/responses/1.2-reviewer.json");

  it("swapped for a link at the moment the file is created: nothing outside, the file is in the real folder", async () => {
    const { h, exchange } = swappable();
    const hook = swapAround("1.2-reviewer.json", exchange);
    try {
      const made = await createResponseFile(h.ws, "1.2", "reviewer");
      assert.equal(hook.swaps(), 1, "the swap raced the create");
      assert.equal(made.kind, "created");
      assert.deepEqual(listTree(h.outside), [h.secret], "nothing was written outside the workspace");
      assert.equal(JSON.parse(fs.readFileSync(response(h), "utf8")).task_id, "1.2");
    } finally {
      hook.restore();
      h.cleanup();
    }
  });

  it("responses/ a link out, a link at the file's name, a task id with a separator: refused, nothing outside", async () => {
    const h = hostileRoot("python-small");
    try {
      fs.symlinkSync(h.outside, path.join(h.ws, ".autodev/responses"));
      await assert.rejects(createResponseFile(h.ws, "1.2", "reviewer"), (e: Error) =>
        /\.autodev\/responses.*(link|outside).*nothing was written/i.test(e.message),
      );
      fs.unlinkSync(path.join(h.ws, ".autodev/responses"));
      fs.mkdirSync(path.join(h.ws, ".autodev/responses"));
      fs.symlinkSync(h.secret, response(h));
      await assert.rejects(createResponseFile(h.ws, "1.2", "reviewer"), /is a symbolic link, not a regular file/);
      await assert.rejects(createResponseFile(h.ws, "../../x", "reviewer"), /do not name a file/);
      assert.deepEqual(listTree(h.outside), [h.secret]);
      assert.equal(fs.readFileSync(h.secret, "utf8"), "SECRET-OUTSIDE-THE-WORKSPACE\n");
      fs.unlinkSync(response(h));
      fs.writeFileSync(response(h), "mine");
      assert.equal((await createResponseFile(h.ws, "1.2", "reviewer")).kind, "exists");
      assert.equal(fs.readFileSync(response(h), "utf8"), "mine", "an existing answer is never overwritten");
    } finally {
      h.cleanup();
    }
  });
});

/** Starts test/python/tools/swap_paths.py exchanging `a` and `b` for `seconds`; resolves with its end once it runs. */
async function startSwapping(
  a: string,
  b: string,
  seconds: number,
): Promise<{ done: Promise<void>; stop: () => Promise<void> }> {
  const child = spawn("python3", [path.join(REPO, "test/python/tools/swap_paths.py"), a, b, String(seconds)], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (d) => (out += d) && out.includes("READY") && resolve());
    child.on("exit", (code) => reject(new Error(`swap_paths.py exited ${code} before it was ready`)));
  });
  const done = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  return { done, stop: () => (child.kill("SIGKILL"), done) };
}

describe("hostile: .autodev exchanged with an outside link in a loop, with CPU burners @slow", function () {
  this.timeout(60_000);
  it("PlanManager writes land in the real folder or are refused clearly; none is lost; nothing outside", async () => {
    const { h, exchange } = swappable();
    const before = (await verifyLedger(h.ws)).report.entries;
    let ok = 0;
    let stop = async (): Promise<void> => undefined;
    const refusals = new Map<string, number>();
    try {
      await withCpuBurners(async () => {
        const swapper = await startSwapping(path.join(h.ws, ".autodev"), path.join(h.ws, "swap-link"), 4);
        const done = swapper.done;
        stop = swapper.stop;
        let over = false;
        void done.then(() => (over = true));
        const pm = new PlanManager(h.ws, { sessionId: "race", lockTimeoutS: 5 });
        // Every other write skips the path checks before it, so it meets the swap in the confined writes themselves.
        const checked = pm.assertWritable.bind(pm);
        let skipChecks = false;
        pm.assertWritable = async () => (skipChecks ? undefined : checked());
        for (let i = 0; !over; i++) {
          skipChecks = i % 2 === 1;
          try {
            await pm.ledgerAppend("impl_tournament_complete", new Map([["i", i]]));
            ok++;
          } catch (e) {
            const msg = e instanceof Error ? e.message : String(e);
            assert.match(msg, /outside the workspace|link|swapped|replaced|nothing was written/i, (e as Error).stack);
            const kind = msg.replace(/\/\S+/g, "PATH").slice(0, 90);
            refusals.set(kind, (refusals.get(kind) ?? 0) + 1);
          }
          assert.deepEqual(listTree(h.outside), [h.secret], `write ${i}: nothing written outside`);
        }
        await done;
      });
      if (fs.lstatSync(path.join(h.ws, ".autodev")).isSymbolicLink()) exchange(); // the real folder back in place
      const res = await verifyLedger(h.ws);
      console.log(`      ${ok} appends while swapping, ${[...refusals.values()].reduce((a, b) => a + b, 0)} refused:`);
      for (const [k, n] of refusals) console.log(`        ${n} × ${k}`);
      assert.equal(res.report.ok, true, JSON.stringify(res.report.errors));
      assert.equal(res.report.entries, before + ok, "every append that succeeded is in the real ledger");
      assert.ok(ok > 0, "some appends raced the swaps and went through");
    } finally {
      await stop(); // before the cleanup: a failure must not leave the swapper racing rmSync
      h.cleanup();
    }
  });
});
