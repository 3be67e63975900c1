/**
 * Running our code as another user (nobody, uid 65534), the one way every test does it: root
 * reads past file permissions, so a test of EACCES runs the program as nobody (`setpriv`). A
 * checkout may sit where nobody cannot enter (under /root, in a 0700 folder, a `mktemp -d`), so
 * what nobody runs is staged first in a folder every user reaches: the built CLI (dist/*.js) or an
 * esbuild bundle of one module. `nobodyStage` skips the test (through `skipUnless`) where this
 * cannot be done: not root on Linux, no setpriv, no such folder, a Node binary nobody can reach.
 * test/unit/rules/suiteRules.test.ts checks that no other test file calls setpriv.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { buildSync } from "esbuild";
import { ROOT_ON_LINUX, folderEveryoneReaches, reachableByEveryone, skipUnless } from "./environmentNeeds";

const REPO = path.resolve(__dirname, "../../..");
const DIST = path.join(REPO, "dist");
const AS_NOBODY = ["--reuid=65534", "--regid=65534", "--clear-groups"];

/** What a program run as nobody did. */
export interface NobodyRun {
  readonly code: number | null;
  readonly out: string;
  readonly err: string;
}

/** A folder every user reaches, with what nobody runs staged in it. */
export interface NobodyStage {
  /** The stage folder (0755): put workspaces nobody must read here too. */
  readonly dir: string;
  /** Runs the staged CLI (a copy of dist/*.js) as nobody with `args`. */
  cli(args: readonly string[], timeoutMs?: number): NobodyRun;
  /** Runs `node -e script` as nobody; `bundle(entry)` gives the paths the script may require. */
  node(script: string, timeoutMs?: number): NobodyRun;
  /** An esbuild bundle of the repo-relative TypeScript module `entry`, staged; returns its path. */
  bundle(entry: string): string;
  /** Makes `p` and everything under it readable by nobody (folders 0755, files 0644). */
  openUp(p: string): void;
  /** Removes the stage. */
  cleanup(): void;
}

function run(argv: readonly string[], timeoutMs: number): NobodyRun {
  const r = spawnSync("setpriv", [...AS_NOBODY, process.execPath, ...argv], {
    encoding: "utf8",
    timeout: timeoutMs,
    stdio: ["ignore", "pipe", "pipe"],
  });
  return { code: r.status, out: r.stdout ?? "", err: r.stderr ?? "" };
}

function openUp(p: string): void {
  const st = fs.lstatSync(p);
  if (st.isSymbolicLink()) return;
  fs.chmodSync(p, st.isDirectory() ? 0o755 : 0o644);
  if (st.isDirectory()) for (const n of fs.readdirSync(p)) openUp(path.join(p, n));
}

/**
 * A stage for running as nobody, or the test is skipped saying what is missing. The CLI is
 * staged on first use of `cli`.
 */
export function nobodyStage(ctx: Mocha.Context, prefix = "as-nobody-"): NobodyStage {
  skipUnless(ctx, ROOT_ON_LINUX, "root on Linux, to run a program as nobody");
  skipUnless(ctx, spawnSync("setpriv", ["--version"]).status === 0, "setpriv (util-linux), to run as nobody");
  skipUnless(ctx, reachableByEveryone(process.execPath), `${process.execPath} reachable by nobody`);
  const dir = folderEveryoneReaches(prefix);
  skipUnless(ctx, dir !== null, "a temp folder every user can reach");
  const stage = dir!;
  let cli: string | null = null;
  return {
    dir: stage,
    cli(args, timeoutMs = 20_000) {
      if (cli === null) {
        const bin = path.join(stage, "cli");
        fs.mkdirSync(bin);
        // The CLI and what it loads beside it (dist/cli.js runs dist/cliMain.js; the workers).
        for (const name of fs.readdirSync(DIST).filter((n) => n.endsWith(".js"))) {
          fs.copyFileSync(path.join(DIST, name), path.join(bin, name));
        }
        openUp(bin);
        cli = path.join(bin, "cli.js");
      }
      return run([cli, ...args], timeoutMs);
    },
    node(script, timeoutMs = 20_000) {
      return run(["-e", script], timeoutMs);
    },
    bundle(entry) {
      const outfile = path.join(stage, "bundles", `${path.basename(entry, ".ts")}.js`);
      buildSync({
        entryPoints: [path.join(REPO, entry)],
        bundle: true,
        platform: "node",
        format: "cjs",
        target: "node20",
        outfile,
        logLevel: "silent",
      });
      openUp(path.dirname(outfile));
      return outfile;
    },
    openUp,
    cleanup() {
      fs.rmSync(stage, { recursive: true, force: true });
    },
  };
}
