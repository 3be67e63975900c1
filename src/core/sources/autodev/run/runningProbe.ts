/**
 * "Is AutoDev running?": true when another process holds the OS lock on
 * `.autodev/.lock` (Python's filelock takes flock(LOCK_EX) for every write
 * and for a whole `plan`/`execute` step). Probed without side effects on the
 * workspace: the file is never created (no file = nobody holds it), opened
 * read-only without following links and without blocking, one
 * `flock(LOCK_SH | LOCK_NB)` attempt made and dropped at once — so the
 * probe never holds the lock beyond that instant and never waits. Node has
 * no flock, so the attempt runs in a short perl or python3 process, the same
 * programs the lock helpers of `lock/` use. Never throws.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import { defaultLockHelpers, LockHelper } from "../lock/fileLockSettings";
import { lockPath } from "../autodevPaths";

/** What the probe found. `running` is null when it could not tell (no helper, Windows, odd file). */
export interface RunningProbe {
  readonly running: boolean | null;
  readonly detail: string;
}

const PERL_PROBE = String.raw`use strict; use Fcntl qw(:DEFAULT :flock :mode); my $f = shift;
sysopen(my $fh, $f, O_RDONLY | O_NOFOLLOW | O_NONBLOCK) or do { print "ERROR open: $!\n"; exit 0 };
my @st = stat($fh); if (!S_ISREG($st[2])) { print "ERROR not a regular file\n"; exit 0 }
if (flock($fh, LOCK_SH | LOCK_NB)) { flock($fh, LOCK_UN); print "FREE\n" }
elsif ($!{EWOULDBLOCK} || $!{EAGAIN}) { print "HELD\n" } else { print "ERROR flock: $!\n" }
close($fh);`;

const PYTHON_PROBE = String.raw`import os, sys, fcntl, stat, errno
try:
    fd = os.open(sys.argv[1], os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
except OSError as e:
    print("ERROR open: " + str(e.strerror)); sys.exit(0)
try:
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        print("ERROR not a regular file"); sys.exit(0)
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except OSError as e:
        print("HELD" if e.errno in (errno.EWOULDBLOCK, errno.EAGAIN) else "ERROR flock: " + str(e.strerror)); sys.exit(0)
    fcntl.flock(fd, fcntl.LOCK_UN)
    print("FREE")
finally:
    os.close(fd)`;

function runProbe(helper: LockHelper, file: string): Promise<string | null> {
  const script = helper.kind === "perl" ? ["-e", PERL_PROBE, file] : ["-c", PYTHON_PROBE, file];
  return new Promise((resolve) => {
    execFile(
      helper.command,
      [...(helper.args ?? []), ...script],
      { timeout: 5000, windowsHide: true },
      (err, stdout) => {
        const line = String(stdout).trim().split("\n")[0] ?? "";
        resolve(err && !line ? null : line || null);
      },
    );
  });
}

/** Probes `.autodev/.lock` of `cwd` (see the module comment). */
export async function probeAutodevRunning(
  cwd: string,
  helpers: readonly LockHelper[] = defaultLockHelpers(),
): Promise<RunningProbe> {
  const file = lockPath(cwd);
  let st: fs.Stats;
  try {
    st = await fs.promises.lstat(file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") {
      return { running: false, detail: "no .autodev/.lock: nothing holds it" };
    }
    return { running: null, detail: `.autodev/.lock cannot be checked (${code ?? String(e)}); cannot tell` };
  }
  if (!st.isFile()) {
    return {
      running: null,
      detail: `.autodev/.lock is not a regular file (a link, FIFO or device); not probed, so it cannot tell. Remove it (AutoDev recreates it)`,
    };
  }
  if (process.platform === "win32") return { running: null, detail: "the lock probe runs on POSIX only" };
  for (const helper of helpers.filter((h) => h.kind !== "flock")) {
    const answer = await runProbe(helper, file);
    if (answer === null) continue;
    if (answer === "HELD") {
      return { running: true, detail: "another process holds .autodev/.lock (AutoDev is writing or running a step)" };
    }
    if (answer === "FREE") return { running: false, detail: ".autodev/.lock is free" };
    return { running: null, detail: `.autodev/.lock could not be probed: ${answer.slice(6, 200)}` };
  }
  return {
    running: null,
    detail: "no perl or python3 on PATH to probe .autodev/.lock with, so it cannot tell (install perl or python3)",
  };
}
