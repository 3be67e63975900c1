/**
 * Nothing lost: several of our writers and a Python writer appending together
 * lose nothing; injected I/O faults leave the old ledger intact. (Writers
 * SIGKILLed at random moments: crashSafetyKills.test.ts.)
 */
import { strict as assert } from "node:assert";
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { PlanManager } from "../../../src/core/sources/autodev/ledger/planManager";
import { verifyLedger } from "../../../src/core/sources/autodev/ledger/ledgerReader";
import { ledgerPath } from "../../../src/core/sources/autodev/autodevPaths";
import { REPO_ROOT, copyFixture } from "../fixtures";

const CHILD = path.join(__dirname, "../helpers/writerChild.bundle.js"); // esbuild.mjs --tests
const PY_VERIFY = path.join(REPO_ROOT, "test/python/tools/verify_ledger.py");

function pythonVerify(dir: string): string {
  const r = spawnSync("python3", [PY_VERIFY, ledgerPath(dir)], { encoding: "utf8" });
  return r.stdout.trim();
}

describe("crash safety and concurrent writers", function () {
  this.timeout(600_000);

  it("three of our writers and one Python writer appending together lose nothing @slow", async () => {
    const dir = copyFixture("python-small");
    const per = 40;
    const run = (cmd: string, args: string[]) =>
      new Promise<void>((resolve, reject) => {
        const c = spawn(cmd, args, { stdio: ["ignore", "ignore", "pipe"] });
        let err = "";
        c.stderr.on("data", (d) => (err += d));
        c.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`${cmd} exited ${code}: ${err}`))));
      });
    await Promise.all([
      run(process.execPath, [CHILD, dir, "concurrent", String(per), "A"]),
      run(process.execPath, [CHILD, dir, "concurrent", String(per), "B"]),
      run(process.execPath, [CHILD, dir, "concurrent", String(per), "C"]),
      run(process.env.AUTODEV_PYTHON ?? "python3", [
        path.join(REPO_ROOT, "test/python/tools/concurrent_writer.py"),
        dir,
        String(per),
        "P",
      ]),
    ]);
    const seen = new Map<string, number>();
    const { report } = await verifyLedger(dir, {
      onEntry: (_s, e) => {
        const w = e?.payload.get("writer");
        if (typeof w === "string") {
          seen.set(`${w}:${e!.payload.get("n")}`, (seen.get(`${w}:${e!.payload.get("n")}`) ?? 0) + 1);
        }
      },
    });
    assert.ok(report.ok, JSON.stringify(report.errors[0]));
    assert.equal(report.entries, 21 + 4 * per);
    assert.equal(seen.size, 4 * per);
    assert.ok(
      [...seen.values()].every((n) => n === 1),
      "every entry exactly once",
    );
    assert.match(pythonVerify(dir), new RegExp(`^OK ${21 + 4 * per} `));
    console.log(`      ${4 * per} entries from 4 concurrent writers (3 Node, 1 Python), each exactly once`);
  });

  it("a failing write (disk full, permission denied, folder gone) leaves the old ledger intact", async () => {
    const dir = copyFixture("python-small");
    const before = fs.readFileSync(ledgerPath(dir));
    const pm = new PlanManager(dir, { sessionId: "fault" });
    const fsp = fs.promises as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
    const faults: [string, string, string][] = [
      ["copyFile", "ENOSPC", "no space left on device"],
      ["rename", "EACCES", "permission denied"],
      ["open", "ENOENT", "no such file or directory"],
    ];
    for (const [fn, code, text] of faults) {
      const original = fsp[fn];
      fsp[fn] = async (...args: unknown[]) => {
        if (String(args[0]).includes(".ledger.") || String(args[1] ?? "").includes(".ledger.")) {
          throw Object.assign(new Error(`${code}: ${text}, ${fn} '${String(args[0])}'`), { code, syscall: fn });
        }
        return original.apply(fs.promises, args);
      };
      try {
        await assert.rejects(
          pm.ledgerAppend("impl_tournament_complete", new Map([["fault", code]])),
          (e: NodeJS.ErrnoException) => e.code === code,
        );
      } finally {
        fsp[fn] = original;
      }
      assert.ok(fs.readFileSync(ledgerPath(dir)).equals(before), `${code}: ledger unchanged`);
      assert.deepEqual(
        fs.readdirSync(path.join(dir, ".autodev")).filter((f) => f.startsWith(".ledger.")),
        [],
        `${code}: temp file removed`,
      );
    }
    const r = spawnSync(
      process.execPath,
      [path.join(REPO_ROOT, "dist/cli.js"), "retry", path.join(dir, "missing-folder"), "1.1"],
      { encoding: "utf8" },
    );
    assert.equal(r.status, 2);
    assert.match(r.stderr, /is not a folder/);
  });
});
