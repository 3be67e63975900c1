/**
 * Issue 21, item 7 and the regression: guarded reads racing the folder above
 * the file. A loop exchanges `.agloop` (or `.autodev`) with a link to an
 * outside folder (renameat2 RENAME_EXCHANGE, test/python/tools/swap_paths.py) while
 * two CPU burners keep the machine busy; every reader — agloop's state file,
 * AutoDev's state files, the ledger's guard and its readers, `sources --json` —
 * must answer with the inside file or a refusal, never the outside file. And
 * a file replaced by rename between the check and the open (what every
 * AutoDev append does) is read, not refused, with and without `/proc`.
 */
import { strict as assert } from "node:assert";
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { readAgloopFile } from "../../../src/core/sources/agloop/agloopFiles";
import { readWorkspaceStateFile } from "../../../src/core/sources/autodev/stateFile";
import { readRegularFile } from "../../../src/core/fs/safeRead";
import { readRegularFileSync } from "../../../src/core/fs/safeReadSync";
import { readInside } from "../../../src/core/sources/autodev/evidence/evidenceStore";
import { setProcFdAvailableForTest } from "../../../src/core/fs/openedPath";
import { verifyLedger } from "../../../src/core/sources/autodev/ledger/ledgerReader";
import { LedgerSession } from "../../../src/core/sources/autodev/ledger/ledgerSession";
import {
  exchanger,
  hostileRoot,
  REPO,
  runCliAsync,
  withCpuBurners,
  type HostileRoot,
} from "../../helpers/hostileWorkspace";

const SECRET = "SECRET-OUTSIDE-THE-WORKSPACE";

/** Starts exchanging `a` and `b` for `seconds`; resolves once the swapping runs, with a promise of its end. */
async function startSwapping(a: string, b: string, seconds: number): Promise<{ done: Promise<void> }> {
  const child = spawn("python3", [path.join(REPO, "test/python/tools/swap_paths.py"), a, b, String(seconds)], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  let out = "";
  await new Promise<void>((resolve, reject) => {
    child.stdout.on("data", (d) => {
      out += d;
      if (out.includes("READY")) resolve();
    });
    child.on("exit", (code) => reject(new Error(`swap_paths.py exited ${code} before it was ready`)));
  });
  return { done: new Promise((resolve) => child.on("exit", () => resolve())) };
}

/** Reads with `read` until `done` settles; counts what came back. */
async function readWhile(
  done: Promise<void>,
  read: () => Promise<string>,
): Promise<{ reads: number; leaks: string[] }> {
  let over = false;
  void done.then(() => (over = true));
  const leaks: string[] = [];
  let reads = 0;
  while (!over) {
    const got = await read().catch((e: unknown) => String(e)); // a refusal is a right answer; the outside file is not
    reads++;
    if (got.includes(SECRET)) leaks.push(got.slice(0, 200));
  }
  return { reads, leaks };
}

/** A hostile root whose outside folder mirrors `.agloop/` and `.autodev/` with secret files. */
function rootWithOutsideTwins(): HostileRoot {
  const h = hostileRoot("python-small");
  fs.cpSync(path.join(REPO, "test/fixtures/agloop-clean/.agloop"), path.join(h.ws, ".agloop"), { recursive: true });
  fs.writeFileSync(path.join(h.outside, "state.json"), JSON.stringify({ secret: SECRET }));
  fs.writeFileSync(path.join(h.outside, "config.json"), JSON.stringify({ secret: SECRET }));
  fs.writeFileSync(path.join(h.outside, "plan-ledger.jsonl"), `{"seq": 1, "op": "${SECRET}"}\n`);
  fs.symlinkSync(h.outside, path.join(h.ws, "swap-link"));
  return h;
}

describe("hostile: a folder swapped for a link while it is read (with CPU burners) @slow", function () {
  this.timeout(120_000);

  it("agloop and AutoDev state files never come from outside (the kernel's path of the descriptor)", async () => {
    const h = rootWithOutsideTwins();
    try {
      fs.writeFileSync(h.at("config.json"), JSON.stringify({ inside: true }));
      await withCpuBurners(async () => {
        const { done: agloop } = await startSwapping(path.join(h.ws, ".agloop"), path.join(h.ws, "swap-link"), 4);
        const a = await readWhile(agloop, async () => {
          const r = await readAgloopFile(h.ws, ".agloop/state.json", 1 << 20);
          return r.kind === "ok" ? r.text : r.kind === "refused" ? r.problem.message : "";
        });
        await agloop;
        const { done: autodev } = await startSwapping(path.join(h.ws, ".autodev"), path.join(h.ws, "swap-link"), 4);
        const b = await readWhile(autodev, async () => {
          const r = await readWorkspaceStateFile(h.ws, ".autodev/config.json");
          const s = readRegularFileSync(h.at("config.json"), { root: h.ws, what: "config" });
          return (r.kind === "ok" ? r.text : r.kind === "error" ? r.error : "") + (s?.toString() ?? "");
        });
        await autodev;
        console.log(
          `      ${a.reads} agloop reads, ${b.reads} AutoDev reads while swapping; ${a.leaks.length + b.leaks.length} outside`,
        );
        assert.deepEqual(a.leaks, [], ".agloop/state.json never read from outside");
        assert.deepEqual(b.leaks, [], ".autodev/config.json never read from outside");
        assert.ok(a.reads > 20 && b.reads > 20, "enough reads raced the swaps");
      });
    } finally {
      h.cleanup();
    }
  });

  it("the ledger's guard, its readers, the live refresh and `sources --json` never show the outside ledger", async () => {
    const h = rootWithOutsideTwins();
    try {
      await withCpuBurners(async () => {
        const { done: swapping } = await startSwapping(path.join(h.ws, ".autodev"), path.join(h.ws, "swap-link"), 8);
        const session = new LedgerSession(h.ws);
        const reads = readWhile(swapping, async () => {
          const parts: string[] = [];
          for (const step of [
            async () => (await readRegularFile(h.at("plan-ledger.jsonl"), { root: h.ws }))?.toString() ?? "",
            async () => JSON.stringify((await verifyLedger(h.ws)).report),
            async () => {
              session.invalidate();
              await session.refresh();
              return JSON.stringify(session.report) + JSON.stringify(session.entries.slice(-3));
            },
          ]) {
            parts.push(await step().catch((e: unknown) => String(e)));
          }
          return parts.join("\n");
        });
        const cli = readWhile(swapping, async () => {
          const r = await runCliAsync(["sources", h.ws, "--json"]);
          return r.out + r.err;
        });
        const [inProcess, sources] = await Promise.all([reads, cli]);
        await swapping;
        console.log(`      ${inProcess.reads} ledger read rounds, ${sources.reads} sources --json runs while swapping`);
        assert.deepEqual(inProcess.leaks, [], "no ledger read returned the outside file");
        assert.deepEqual(sources.leaks, [], "sources --json never printed the outside ledger");
        assert.ok(inProcess.reads > 10, "enough reads raced the swaps");
      });
    } finally {
      h.cleanup();
    }
  });
});

describe("hostile: a file replaced by rename between the check and the open", () => {
  for (const proc of [true, false]) {
    it(`is read (the version opened), never refused: ${proc ? "/proc" : "fresh walk"}`, async () => {
      const h = hostileRoot("python-small");
      if (!proc) setProcFdAvailableForTest(false);
      const fsp = fs.promises as unknown as { open: (...a: unknown[]) => Promise<fs.promises.FileHandle> };
      const original = fsp.open;
      const file = h.at("config.json");
      fs.writeFileSync(file, "old\n");
      let replaced = 0;
      fsp.open = async (...args: unknown[]) => {
        if (String(args[0]) === file && replaced < 1) {
          replaced++; // AutoDev's write lands right after our lstat: temp file + rename over the target
          fs.writeFileSync(`${file}.tmp`, "new\n");
          fs.renameSync(`${file}.tmp`, file);
        }
        return original.apply(fs.promises, args);
      };
      try {
        const got = await readRegularFile(file, { root: h.ws, what: "config" });
        assert.equal(replaced, 1, "the rename raced the open");
        assert.equal(got?.toString(), "new\n");
        const state = await readWorkspaceStateFile(h.ws, ".autodev/config.json");
        assert.equal(state.kind, "ok");
      } finally {
        fsp.open = original;
        setProcFdAvailableForTest(undefined);
        h.cleanup();
      }
    });
  }
});

describe("hostile: a folder swapped for a link right before the open, back right after", () => {
  for (const proc of [true, false]) {
    it(`is refused or read from inside, never from outside: ${proc ? "/proc" : "fresh walk (no /proc)"}`, async () => {
      const h = rootWithOutsideTwins();
      if (!proc) setProcFdAvailableForTest(false);
      const fsp = fs.promises as unknown as { open: (...a: unknown[]) => Promise<fs.promises.FileHandle> };
      const original = fsp.open;
      const agloop = path.join(h.ws, ".agloop");
      const link = path.join(h.ws, "swap-link");
      const exchange = (): void => {
        fs.renameSync(agloop, `${agloop}.moved`);
        fs.renameSync(link, agloop);
        fs.renameSync(`${agloop}.moved`, link);
      };
      let swaps = 0;
      fsp.open = async (...args: unknown[]) => {
        if (String(args[0]).startsWith(agloop + path.sep) && swaps < 2) {
          exchange(); // the attacker's link is in place for the open…
          swaps++;
          try {
            return await original.apply(fs.promises, args);
          } finally {
            exchange(); // …and gone again for every check after it
            swaps++;
          }
        }
        return original.apply(fs.promises, args);
      };
      try {
        const r = await readAgloopFile(h.ws, ".agloop/state.json", 1 << 20);
        assert.equal(swaps, 2, "the swap raced the open");
        assert.equal(r.kind, "ok", JSON.stringify(r));
        assert.ok(r.kind === "ok" && !r.text.includes(SECRET), "the inside state.json, read again");
      } finally {
        fsp.open = original;
        setProcFdAvailableForTest(undefined);
        h.cleanup();
      }
    });
  }
});

describe("hostile: .autodev swapped for a link right before an evidence file is opened, back right after", () => {
  it("the evidence read refuses it, naming where it led; the outside file is never returned", async () => {
    const h = rootWithOutsideTwins();
    const autodev = path.join(h.ws, ".autodev");
    const name = fs.readdirSync(path.join(autodev, "evidence")).find((n) => n.endsWith(".json"))!;
    fs.mkdirSync(path.join(h.outside, "evidence"));
    fs.writeFileSync(path.join(h.outside, "evidence", name), JSON.stringify({ secret: SECRET }));
    const exchange = exchanger(autodev, path.join(h.ws, "swap-link"));
    const fsp = fs.promises as unknown as { open: (...a: unknown[]) => Promise<fs.promises.FileHandle> };
    const original = fsp.open;
    let swaps = 0;
    fsp.open = async (...args: unknown[]) => {
      if (path.basename(String(args[0])) !== name || swaps > 0) return original.apply(fs.promises, args);
      exchange(); // the link is in place for the open only
      swaps++;
      try {
        return await original.apply(fs.promises, args);
      } finally {
        exchange();
      }
    };
    try {
      const dir = path.join(autodev, "evidence");
      const r = await readInside(dir, path.join(dir, name));
      assert.equal(swaps, 1, "the swap raced the open");
      assert.equal(r.ok, false, "refused");
      assert.ok(!r.ok && r.error.includes("outside") && r.error.includes(h.outside), !r.ok ? r.error : "read");
      const again = await readInside(dir, path.join(dir, name));
      assert.ok(again.ok && !again.data.toString().includes(SECRET), "read from inside once the folder is back");
    } finally {
      fsp.open = original;
      h.cleanup();
    }
  });
});
