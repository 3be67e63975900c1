/**
 * The extension's loader (src/extension/extensionEntry.ts): it turns Node's compile cache on when
 * the host's Node has it and says what happened, and on a Node without it, with it turned off, or
 * when the API refuses or throws, it goes on without (the extension loads, only compiled again).
 */
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { spawnSync } from "node:child_process";
import { REPO_ROOT } from "../fixtures";
import { CompileCacheModule, flushCompileCache, startCompileCache } from "../../../src/extension/extensionEntry";

const STATUS = { FAILED: 0, ENABLED: 1, ALREADY_ENABLED: 2, DISABLED: 3 };

/** A `node:module` stand-in answering `status`, recording the folders it was asked for. */
function fakeModule(status: number, asked: string[], extra: Partial<CompileCacheModule> = {}): CompileCacheModule {
  return {
    enableCompileCache: (dir) => {
      asked.push(dir);
      return { status, directory: "/host/cache", message: "no room" };
    },
    constants: { compileCacheStatus: STATUS },
    ...extra,
  };
}

describe("extension loader: Node's compile cache", () => {
  it("enables it in the folder given and says so", () => {
    const asked: string[] = [];
    assert.equal(startCompileCache("/g/compile-cache", fakeModule(STATUS.ENABLED, asked), {}), "enabled");
    assert.deepEqual(asked, ["/g/compile-cache"]);
  });

  it("says when the host enabled one already, or Node's own switch turned it off, or it failed", () => {
    const asked: string[] = [];
    assert.match(startCompileCache("/g", fakeModule(STATUS.ALREADY_ENABLED, asked), {}), /already .*\/host\/cache/);
    assert.match(startCompileCache("/g", fakeModule(STATUS.DISABLED, asked), {}), /NODE_DISABLE_COMPILE_CACHE/);
    assert.match(startCompileCache("/g", fakeModule(STATUS.FAILED, asked), {}), /failed \(no room\)/);
  });

  it("goes on without on a Node that has no compile cache", () => {
    assert.match(startCompileCache("/g", {}, {}), /^unavailable/);
  });

  it("goes on without when the API throws, and a flush that throws is swallowed", () => {
    const throwing: CompileCacheModule = {
      enableCompileCache: () => {
        throw new Error("EACCES: permission denied");
      },
      flushCompileCache: () => {
        throw new Error("EROFS");
      },
    };
    assert.match(startCompileCache("/g", throwing, {}), /failed \(EACCES/);
    assert.doesNotThrow(() => flushCompileCache(throwing));
    assert.doesNotThrow(() => flushCompileCache({}));
  });

  it("asks nothing when AUTODEV_STATE_COMPILE_CACHE=0", () => {
    const asked: string[] = [];
    const state = startCompileCache("/g", fakeModule(STATUS.ENABLED, asked), { AUTODEV_STATE_COMPILE_CACHE: "0" });
    assert.match(state, /^off/);
    assert.deepEqual(asked, []);
  });

  it("in a real Node: writes the cache where Node has the API, else says unavailable and writes nothing", function () {
    this.timeout(60_000);
    const entry = path.join(REPO_ROOT, "out/src/extension/extensionEntry.js");
    // This Node, and the Node 24 the editor's extension host runs (scripts/vscode-server.mjs) when it is there.
    const node24 = path.join(process.env.AUTODEV_CACHE_DIR ?? path.join(REPO_ROOT, ".cache"), "node24", "bin", "node");
    for (const node of [process.execPath, ...(fs.existsSync(node24) ? [node24] : [])]) {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "autodev-ext-cc-"));
      try {
        const script = `const e = require(${JSON.stringify(entry)}); const s = e.startCompileCache(process.argv[1], undefined, {}); require(${JSON.stringify(path.join(REPO_ROOT, "out/src/core/errors.js"))}); e.flushCompileCache(); console.log(s);`;
        const r = spawnSync(node, ["-e", script, path.join(dir, "c")], { encoding: "utf8" });
        assert.equal(r.status, 0, r.stderr);
        const version = spawnSync(node, ["-p", "typeof require('node:module').enableCompileCache"], {
          encoding: "utf8",
        });
        const native = version.stdout.trim() === "function";
        const written = fs.existsSync(path.join(dir, "c"))
          ? fs.readdirSync(path.join(dir, "c"), { recursive: true })
          : [];
        if (native) {
          assert.equal(r.stdout.trim(), "enabled", node);
          assert.ok(written.length > 0, `${node}: nothing written in the cache folder`);
        } else {
          assert.match(r.stdout.trim(), /^unavailable \(Node v/, node);
          assert.deepEqual(written, []);
        }
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    }
  });
});
