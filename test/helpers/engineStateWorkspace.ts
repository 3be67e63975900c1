/**
 * Temp workspaces for the engine_state tests: write checkpoint files, run git in them, and
 * write a manifest exactly as the writer does (python3's `json.dumps(m, sort_keys=True, indent=2)`).
 */
import { execFileSync, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

/** A fresh temp folder; files given as workspace-relative paths. */
export function makeWorkspace(files: Record<string, string | Buffer> = {}): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "engine-ws-"));
  writeFiles(dir, files);
  return dir;
}

/** Writes workspace-relative files, creating folders. */
export function writeFiles(dir: string, files: Record<string, string | Buffer>): void {
  for (const [rel, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), content);
  }
}

const GIT_ENV = {
  GIT_AUTHOR_NAME: "test",
  GIT_AUTHOR_EMAIL: "test@example.invalid",
  GIT_COMMITTER_NAME: "test",
  GIT_COMMITTER_EMAIL: "test@example.invalid",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
};

/** Runs git in `dir`; returns its trimmed stdout. */
export function git(dir: string, ...args: string[]): string {
  return execFileSync("git", args, { cwd: dir, env: { ...process.env, ...GIT_ENV }, encoding: "utf8" }).trim();
}

/** `git init` (branch main) and a first commit of everything in `dir`. */
export function gitInitAndCommit(dir: string): string {
  git(dir, "init", "-q", "-b", "main");
  return gitCommitAll(dir, "first");
}

/** Commits everything (allowing an empty commit); returns the new HEAD. */
export function gitCommitAll(dir: string, message: string): string {
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "--allow-empty", "-m", message);
  return git(dir, "rev-parse", "HEAD");
}

/** The manifest text the writer writes (python3 itself dumps it). */
export function writerManifest(manifest: Record<string, unknown>): string {
  const run = spawnSync(
    "python3",
    ["-c", "import json,sys; sys.stdout.write(json.dumps(json.loads(sys.stdin.read()), sort_keys=True, indent=2))"],
    { input: JSON.stringify(manifest), encoding: "utf8" },
  );
  if (run.status !== 0) throw new Error(run.stderr);
  return run.stdout;
}
