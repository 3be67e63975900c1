/**
 * The state worker's own watch of a state folder's live files (src/core/worker/liveWatch.ts): an
 * atomic replace as Python AutoDev does it is told with the new file's identity, the writer's
 * temporary copy and other files are not, a state folder reached through a link or outside the
 * workspace is never watched, a swapped folder is watched again where it is now (a link swapped in
 * is not), the number of watches is bounded, and unwatching stops the events. Waits are for events
 * (bounded), never for a time.
 */
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { LiveFileEvent, LiveWatches, MAX_LIVE_WATCHES, linkFreeDir } from "../../../src/core/worker/liveWatch";
import { fileSignature } from "../../../src/core/fs/fileSignature";

const LEDGER = "plan-ledger.jsonl";

/** Python AutoDev's append: copy, append, fsync, os.replace (the temporary file beside the ledger). */
function atomicAppend(dir: string, line: string): void {
  const file = path.join(dir, LEDGER);
  const tmp = path.join(dir, `.ledger.${process.pid}.tmp`);
  const before = fs.existsSync(file) ? fs.readFileSync(file) : Buffer.alloc(0);
  const fd = fs.openSync(tmp, "w");
  fs.writeSync(fd, before);
  fs.writeSync(fd, line + "\n");
  fs.fsyncSync(fd);
  fs.closeSync(fd);
  fs.renameSync(tmp, file);
}

describe("LiveWatches: the worker's own watch of live files", function () {
  this.timeout(30_000);
  let ws = "";
  let heard: LiveFileEvent[] = [];
  let waiters: (() => void)[] = [];
  let live: LiveWatches;

  const tellOf = (e: LiveFileEvent) => {
    heard.push(e);
    for (const w of waiters.splice(0)) w();
  };
  /** Resolves once `check` holds after an event (fails after 10 s: an event that never came). */
  async function until(check: () => boolean, what: string): Promise<void> {
    const deadline = Date.now() + 10_000;
    while (!check()) {
      const left = deadline - Date.now();
      if (left <= 0) assert.fail(`no event: ${what}; heard ${JSON.stringify(heard)}`);
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, Math.min(left, 200)).unref();
      });
    }
  }

  beforeEach(() => {
    ws = fs.mkdtempSync(path.join(os.tmpdir(), "live-watch-"));
    fs.mkdirSync(path.join(ws, ".autodev"));
    fs.writeFileSync(path.join(ws, ".autodev", LEDGER), '{"seq":1}\n');
    heard = [];
    waiters = [];
    live = new LiveWatches(tellOf);
  });
  afterEach(() => {
    live.dispose();
    fs.rmSync(ws, { recursive: true, force: true });
  });

  it("tells an atomic replace of the ledger with the new file's identity, not the temporary copy or other files", async () => {
    assert.equal(live.watch(ws, "autodev", ".autodev", [LEDGER]), true);
    fs.writeFileSync(path.join(ws, ".autodev", ".lock"), "");
    atomicAppend(path.join(ws, ".autodev"), '{"seq":2}');
    await until(() => heard.length > 0, "the replace");
    const ledger = path.join(ws, ".autodev", LEDGER);
    await until(() => heard.at(-1)?.signature === fileSignature(ledger), "the new ledger's identity");
    assert.ok(heard.every((e) => e.rel === `.autodev/${LEDGER}` && e.cwd === ws && e.kind === "autodev"));
    assert.notEqual(heard.at(-1)?.signature, "absent");
  });

  it("watching the same folder again keeps the watch; an empty list of files stops it", async () => {
    assert.equal(live.watch(ws, "autodev", ".autodev", [LEDGER]), true);
    assert.equal(live.watch(ws, "autodev", ".autodev", [LEDGER]), true);
    assert.equal(live.size, 1);
    assert.equal(live.watch(ws, "autodev", ".autodev", []), false);
    assert.equal(live.size, 0);
  });

  it("never watches a state folder that is a link (to outside the workspace or not), nor a path leaving it", () => {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), "live-watch-out-"));
    try {
      fs.rmSync(path.join(ws, ".autodev"), { recursive: true });
      fs.symlinkSync(outside, path.join(ws, ".autodev"));
      assert.equal(linkFreeDir(ws, ".autodev"), null);
      assert.equal(live.watch(ws, "autodev", ".autodev", [LEDGER]), false);
      fs.mkdirSync(path.join(ws, "real"));
      fs.symlinkSync(path.join(ws, "real"), path.join(ws, "inner"));
      assert.equal(live.watch(ws, "autodev", "inner", [LEDGER]), false, "a link inside the workspace");
      assert.equal(live.watch(ws, "autodev", "../" + path.basename(outside), [LEDGER]), false);
      assert.equal(live.watch(ws, "autodev", outside, [LEDGER]), false, "an absolute path");
      assert.equal(live.size, 0);
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });

  it("a swapped state folder is watched where it is now, and its ledger told", async () => {
    assert.equal(live.watch(ws, "autodev", ".autodev", [LEDGER]), true);
    const fresh = path.join(ws, ".autodev.new");
    fs.mkdirSync(fresh);
    fs.writeFileSync(path.join(fresh, LEDGER), '{"seq":1}\n{"seq":2}\n');
    fs.renameSync(path.join(ws, ".autodev"), path.join(ws, ".autodev.old"));
    fs.renameSync(fresh, path.join(ws, ".autodev"));
    const ledger = path.join(ws, ".autodev", LEDGER);
    await until(() => heard.some((e) => e.signature === fileSignature(ledger)), "the swapped-in folder's ledger");
    heard = [];
    atomicAppend(path.join(ws, ".autodev"), '{"seq":3}');
    await until(() => heard.some((e) => e.signature === fileSignature(ledger)), "an append in the swapped-in folder");
    assert.equal(live.size, 1);
  });

  it("a link swapped in for the state folder closes the watch and nothing outside is told", async () => {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), "live-watch-out-"));
    try {
      assert.equal(live.watch(ws, "autodev", ".autodev", [LEDGER]), true);
      fs.renameSync(path.join(ws, ".autodev"), path.join(ws, ".autodev.old"));
      fs.symlinkSync(outside, path.join(ws, ".autodev"));
      // The old folder (watched until its move is heard) still changes: that is what closes the watch.
      fs.writeFileSync(path.join(ws, ".autodev.old", LEDGER), '{"seq":9}\n');
      await until(() => live.size === 0, "the watch closed");
      const closedAt = heard.length;
      atomicAppend(outside, '{"seq":1}');
      // A barrier: a change in a second watched folder, made after the outside write, is heard; had
      // the closed watch followed the link, the outside write would have been told before it.
      const other = fs.mkdtempSync(path.join(os.tmpdir(), "live-watch-other-"));
      try {
        fs.mkdirSync(path.join(other, ".autodev"));
        fs.writeFileSync(path.join(other, ".autodev", LEDGER), '{"seq":1}\n');
        assert.equal(live.watch(other, "autodev", ".autodev", [LEDGER]), true);
        atomicAppend(path.join(other, ".autodev"), '{"seq":2}');
        await until(() => heard.slice(closedAt).some((e) => e.cwd === other), "the barrier in the other folder");
      } finally {
        live.unwatch(other);
        fs.rmSync(other, { recursive: true, force: true });
      }
      assert.deepEqual(
        heard.slice(closedAt).filter((e) => e.cwd === ws),
        [],
        "nothing is told for the closed watch once the link is in",
      );
      assert.ok(heard.every((e) => !e.signature.startsWith(String(fs.lstatSync(path.join(outside, LEDGER)).ino))));
      assert.equal(live.watch(ws, "autodev", ".autodev", [LEDGER]), false);
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });

  it("unwatching stops the events", async () => {
    assert.equal(live.watch(ws, "autodev", ".autodev", [LEDGER]), true);
    live.unwatch(ws);
    assert.equal(live.size, 0);
    atomicAppend(path.join(ws, ".autodev"), '{"seq":2}');
    // A second watch on another folder proves events flow; the unwatched one stays silent.
    const other = fs.mkdtempSync(path.join(os.tmpdir(), "live-watch-b-"));
    try {
      fs.mkdirSync(path.join(other, ".autodev"));
      assert.equal(live.watch(other, "autodev", ".autodev", [LEDGER]), true);
      atomicAppend(path.join(other, ".autodev"), '{"seq":1}');
      await until(() => heard.some((e) => e.cwd === other), "the other folder");
      assert.ok(heard.every((e) => e.cwd === other));
    } finally {
      fs.rmSync(other, { recursive: true, force: true });
    }
  });

  it(`watches at most ${MAX_LIVE_WATCHES} folders; more fall back to the editor's watcher`, () => {
    const dirs: string[] = [];
    try {
      for (let i = 0; i < MAX_LIVE_WATCHES; i++) {
        const d = fs.mkdtempSync(path.join(os.tmpdir(), "live-watch-n-"));
        fs.mkdirSync(path.join(d, ".autodev"));
        dirs.push(d);
        assert.equal(live.watch(d, "autodev", ".autodev", [LEDGER]), true);
      }
      assert.equal(live.watch(ws, "autodev", ".autodev", [LEDGER]), false);
      assert.equal(live.size, MAX_LIVE_WATCHES);
    } finally {
      live.dispose();
      for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
    }
  });
});
