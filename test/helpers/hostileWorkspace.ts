/**
 * Hostile-folder test helpers: a temp root holding a workspace copy and an
 * "outside" folder (so a test can prove nothing was read or written outside),
 * and the CLI run with a hard 20 s limit that reports a hang as a failure (the unbounded readers this guards against took 34–146 s; a bounded one takes under 3 s on an idle machine, so a shared machine at load 13 stays inside it).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { spawn, spawnSync } from "node:child_process";

/** The repository root (tests run from out/test/...). */
export const REPO = path.join(__dirname, "../../..");
/** The built CLI (AUTODEV_CLI_JS runs the same tests against another build, e.g. the one before a fix). */
export const CLI_JS = process.env.AUTODEV_CLI_JS ?? path.join(REPO, "dist/cli.js");

/** A temp root with `ws/` (a copy of test/fixtures/NAME) and `outside/` holding a secret. */
export interface HostileRoot {
  readonly root: string;
  readonly ws: string;
  readonly outside: string;
  readonly secret: string;
  /** `<ws>/.autodev/<name>` */
  at(name: string): string;
  /** Removes everything. */
  cleanup(): void;
}

/** Makes a hostile root from a fixture. */
export function hostileRoot(fixture = "python-small"): HostileRoot {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "hostile-")));
  const ws = path.join(root, "ws");
  const outside = path.join(root, "outside");
  fs.cpSync(path.join(REPO, "test/fixtures", fixture), ws, { recursive: true });
  fs.mkdirSync(outside);
  const secret = path.join(outside, "secret");
  fs.writeFileSync(secret, "SECRET-OUTSIDE-THE-WORKSPACE\n");
  return {
    root,
    ws,
    outside,
    secret,
    at: (name) => path.join(ws, ".autodev", name),
    cleanup: () => fs.rmSync(root, { recursive: true, force: true }),
  };
}

/** Result of one CLI run. */
export interface CliRun {
  readonly code: number;
  readonly out: string;
  readonly err: string;
}

/**
 * Runs the CLI; a run still going after `limitS` seconds (default 10) is killed and reported as a
 * hang (assertion failure). Only the 2 GB scans get a longer limit, for loaded shared machines.
 */
export function runCliBounded(
  args: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
  nodeArgs: readonly string[] = [],
  limitS = 20,
): CliRun {
  const r = spawnSync(process.execPath, [...nodeArgs, CLI_JS, ...args], {
    encoding: "utf8",
    timeout: limitS * 1000,
    env,
    maxBuffer: 256 << 20,
  });
  if (r.error && (r.error as NodeJS.ErrnoException).code === "ETIMEDOUT") {
    throw new Error(`autodev-state ${args.join(" ")} did not answer within ${limitS} s (hang)`);
  }
  return { code: r.status ?? -1, out: r.stdout, err: r.stderr };
}

/** Swaps the folder `dir` and the link `link` by name (three renames); calling it again swaps them back. */
export function exchanger(dir: string, link: string): () => void {
  return () => {
    fs.renameSync(dir, `${dir}.moved`);
    fs.renameSync(link, dir);
    fs.renameSync(`${dir}.moved`, link);
  };
}

/** Every file under `dir` (recursive, links not followed). */
export function listTree(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    out.push(p);
    if (e.isDirectory()) out.push(...listTree(p));
  }
  return out.sort();
}

/** Two busy processes (`node -e 'for(;;);'`), so a race is tested on a loaded machine; `stop()` ends them. */
interface CpuBurners {
  stop(): void;
}

/** Starts `count` CPU burners (default 2, one per core of the shared machines). */
function startCpuBurners(count = 2): CpuBurners {
  const children = Array.from({ length: count }, () =>
    spawn(process.execPath, ["-e", "for(;;);"], { stdio: "ignore", detached: false }),
  );
  return {
    stop: () => {
      for (const c of children) c.kill("SIGKILL");
    },
  };
}

/** Runs `fn` with CPU burners running; always stops them. */
export async function withCpuBurners<T>(fn: () => Promise<T>, count = 2): Promise<T> {
  const burners = startCpuBurners(count);
  try {
    return await fn();
  } finally {
    burners.stop();
  }
}

/** Result of an asynchronous child run. */
export interface ChildRun extends CliRun {
  readonly signal: NodeJS.Signals | null;
}

/** Runs a command asynchronously (so several run side by side), collecting its output. */
export function runChild(
  cmd: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<ChildRun> {
  return new Promise((resolve, reject) => {
    const c = spawn(cmd, args, { stdio: ["ignore", "pipe", "pipe"], env });
    let out = "";
    let err = "";
    c.stdout.on("data", (d) => (out += d));
    c.stderr.on("data", (d) => (err += d));
    c.on("error", reject);
    c.on("close", (code, signal) => resolve({ code: code ?? -1, signal, out, err }));
  });
}

/** Runs the built CLI asynchronously. */
export function runCliAsync(args: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<ChildRun> {
  return runChild(process.execPath, [CLI_JS, ...args], env);
}
