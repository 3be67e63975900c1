/**
 * A long-lived probe of `.autodev/.lock`, so "is AutoDev running?" can be asked every second
 * without starting a program each time: one perl or python3 process (the programs the lock
 * helpers of `lock/` use) reads one request per line — the lock file's path, hex-encoded so no
 * name can break the line — and answers FREE, HELD or ERROR. Each request opens the path anew
 * (read-only, no links followed, never created, non-blocking), checks it is a regular file, makes
 * one `flock(LOCK_SH | LOCK_NB)` attempt, drops it and closes the file: nothing is held between
 * requests and AutoDev's own flock never waits on us longer than that instant. A lock held by
 * `flock(1)` or any writer that does not truncate the file is seen, as Python's open-and-truncate is.
 * The process is unreferenced while idle (it never keeps Node alive) and ends at stdin's EOF.
 */
import * as path from "node:path";
import type { LockHelper } from "../lock/fileLockSettings";
import { LineProcess, setRef } from "../lock/lockHelperProcess";

const PERL_LOOP = String.raw`use strict; use Fcntl qw(:DEFAULT :flock :mode); $| = 1; print "READY\n";
while (my $hex = <STDIN>) { chomp $hex; my $f = pack("H*", $hex);
  my $fh; if (!sysopen($fh, $f, O_RDONLY | O_NOFOLLOW | O_NONBLOCK)) { print "ERROR open: $!\n"; next }
  my @st = stat($fh);
  if (!S_ISREG($st[2])) { print "ERROR not a regular file\n" }
  elsif (flock($fh, LOCK_SH | LOCK_NB)) { flock($fh, LOCK_UN); print "FREE\n" }
  elsif ($!{EWOULDBLOCK} || $!{EAGAIN}) { print "HELD\n" } else { print "ERROR flock: $!\n" }
  close($fh); }`;

const PYTHON_LOOP = String.raw`import os, sys, fcntl, stat, errno
print("READY", flush=True)
for line in sys.stdin:
    path = bytes.fromhex(line.strip())
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError as e:
        print("ERROR open: " + str(e.strerror), flush=True); continue
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            print("ERROR not a regular file", flush=True); continue
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except OSError as e:
            print("HELD" if e.errno in (errno.EWOULDBLOCK, errno.EAGAIN) else "ERROR flock: " + str(e.strerror), flush=True)
            continue
        fcntl.flock(fd, fcntl.LOCK_UN)
        print("FREE", flush=True)
    finally:
        os.close(fd)`;

/** How long a probe may take (a start included) before the process is killed and the answer is "cannot tell". */
const PROBE_TIMEOUT_MS = 5000;

/** One probe process over the first of its helpers that starts; requests are answered in order. */
export class LockProber {
  private proc: LineProcess | null = null;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly helpers: readonly LockHelper[]) {}

  /**
   * "FREE", "HELD", "ERROR …", or null when no helper could answer. A relative `file` is taken
   * from this process's working directory (the helper's own is the file system's root).
   */
  probe(file: string): Promise<string | null> {
    const absolute = path.resolve(file);
    const run = this.queue.then(() => this.ask(absolute));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Ends the process (stdin EOF). */
  close(): void {
    this.proc?.endInput();
    this.proc = null;
  }

  private async ask(file: string): Promise<string | null> {
    const proc = this.proc && !this.proc.closed ? this.proc : await this.start();
    if (!proc) return null;
    setRef(proc.child, true);
    try {
      proc.write(Buffer.from(file, "utf8").toString("hex"));
      const line = await proc.nextLineWithin(PROBE_TIMEOUT_MS, undefined).catch(() => null);
      if (line === null) this.proc = null;
      return line;
    } finally {
      setRef(proc.child, false);
    }
  }

  private async start(): Promise<LineProcess | null> {
    for (const helper of this.helpers) {
      if (helper.kind === "flock") continue;
      const args =
        helper.kind === "perl"
          ? [...(helper.args ?? []), "-e", PERL_LOOP]
          : [...(helper.args ?? []), "-I", "-S", "-c", PYTHON_LOOP];
      const proc = new LineProcess(helper.command, args);
      const ready = await proc.nextLineWithin(PROBE_TIMEOUT_MS, undefined).catch(() => null);
      if (ready === "READY") {
        setRef(proc.child, false);
        this.proc = proc;
        return proc;
      }
      proc.kill();
    }
    return null;
  }
}

const probers = new Map<string, LockProber>();

/** The shared prober of a list of helpers (one process per list, kept for the process's life). */
export function sharedLockProber(helpers: readonly LockHelper[]): LockProber {
  const key = JSON.stringify(helpers);
  let p = probers.get(key);
  if (!p) probers.set(key, (p = new LockProber(helpers)));
  return p;
}
