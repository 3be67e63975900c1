/**
 * The lock-holder helper programs used by `fileLock.ts`, as string constants.
 *
 * Node cannot call flock(2), so a small helper process takes and holds the OS
 * lock Python AutoDev's `filelock.FileLock(".autodev/.lock")` uses:
 * - POSIX: `flock(fd, LOCK_EX|LOCK_NB)` on the lock file, polled;
 * - Windows: `msvcrt.locking(fd, LK_NBLCK, 1)` (a one-byte `LockFile` at
 *   offset 0, which also conflicts with filelock 4's `LockFileEx` on byte 0).
 *
 * The perl and python helpers are long-lived and speak one line-based protocol
 * on stdin/stdout (one helper per lock file, one request at a time):
 *
 *   argv[1] = absolute path of the lock file
 *   helper → "READY <kind> <pid> <version>"            once, at start
 *            "ERROR <message>" and exit                 if it cannot work here
 *   "A <timeoutMs> <pollMs>" → "LOCKED <dev> <ino>" | "MISSING" | "TIMEOUT" | "ERROR <message>"
 *   "R"                      → "RELEASED"              (unlocked and closed)
 *   stdin EOF                → unlock if held, exit 0  (also when the parent dies)
 *
 * Every acquisition opens the file afresh (O_RDWR, no O_TRUNC, like filelock
 * 4: a loser must not truncate the winner's file; plus O_NOFOLLOW and
 * O_NONBLOCK, and an fstat that it is a regular file: a `.lock` that is a link,
 * a directory or a FIFO is refused, never followed). It never creates the file:
 * the caller does, inside the checked `.autodev/` descriptor, and a missing file
 * is answered "MISSING" (a folder above it swapped for a link leads where there
 * is none), so a helper cannot create a file outside the workspace. After the
 * flock succeeds it checks that the locked inode is still the one at the path
 * (a lock on an unlinked inode excludes nobody) and says which inode it locked
 * (device and inode, "LOCKED" alone on Windows): the caller compares it with the
 * file in the checked folder. Release unlocks and closes, leaving the file in place. While waiting, the POSIX helpers sleep in
 * select() on stdin so a parent that dies mid-wait ends them at once.
 * SIGINT/SIGHUP are ignored: the helper's lifetime is tied to stdin alone, so
 * a Ctrl-C the parent handles cannot silently drop the lock under it.
 *
 * Keep `${` out of these strings: they are template literals.
 */

/** Python 3 helper, run as `python -I -S -c PYTHON_LOCK_HELPER <lockFile>`. */
export const PYTHON_LOCK_HELPER = String.raw`import os, sys, time, errno, signal
P = sys.argv[1]
NT = os.name == 'nt'
for _n in ('SIGINT', 'SIGHUP', 'SIGBREAK'):
    if hasattr(signal, _n):
        signal.signal(getattr(signal, _n), signal.SIG_IGN)
buf = b''
def out(s):
    os.write(1, (s.replace('\r', ' ').replace('\n', ' ') + '\n').encode('utf-8', 'replace'))
if NT:
    import msvcrt
    def trylock(fd):
        try:
            os.lseek(fd, 0, 0)
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
            return True
        except OSError:
            return False
    def unlock(fd):
        os.lseek(fd, 0, 0)
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
    def same(fd):
        return True
    def wait(t):
        time.sleep(t)
        return False
    OPEN_RETRY = (PermissionError,)
    def ident(fd):
        return ''

else:
    import fcntl, select
    def trylock(fd):
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except OSError as e:
            if e.errno in (errno.EAGAIN, errno.EWOULDBLOCK, errno.EACCES):
                return False
            raise
    def unlock(fd):
        fcntl.flock(fd, fcntl.LOCK_UN)
    def same(fd):
        a = os.fstat(fd)
        try:
            b = os.stat(P)
        except FileNotFoundError:
            return False
        return a.st_nlink > 0 and (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)
    def wait(t):
        global buf
        if select.select([0], [], [], t)[0]:
            d = os.read(0, 4096)
            if not d:
                return True
            buf += d
        return False
    OPEN_RETRY = ()
    def ident(fd):
        st = os.fstat(fd)
        return ' %d %d' % (st.st_dev, st.st_ino)
NOFOLLOW = getattr(os, 'O_NOFOLLOW', 0) | getattr(os, 'O_NONBLOCK', 0)
MISSING = -1
def try_acquire():
    try:
        fd = os.open(P, os.O_RDWR | NOFOLLOW)
    except FileNotFoundError:
        return MISSING
    except OPEN_RETRY:
        return None
    except OSError as e:
        if e.errno == errno.ELOOP:
            raise OSError(e.errno, 'refusing %s: it is a symbolic link, not a regular file' % P)
        if e.errno == errno.EISDIR:
            raise OSError(e.errno, 'refusing %s: it is a directory, not a regular file' % P)
        raise
    if not NT:
        import stat
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            os.close(fd)
            raise OSError(errno.EINVAL, 'refusing %s: it is not a regular file' % P)
    try:
        if trylock(fd):
            if same(fd):
                return fd
            unlock(fd)
    except BaseException:
        os.close(fd)
        raise
    os.close(fd)
    return None
def readline():
    global buf
    while b'\n' not in buf:
        d = os.read(0, 4096)
        if not d:
            return None
        buf += d
    line, _, buf = buf.partition(b'\n')
    return line.decode('utf-8', 'replace').strip()
fd = None
out('READY python %d %s' % (os.getpid(), sys.version.split()[0]))
try:
    while True:
        line = readline()
        if line is None:
            break
        parts = line.split()
        if not parts:
            continue
        if parts[0] == 'A':
            if fd is not None:
                out('LOCKED' + ident(fd))
                continue
            deadline = time.monotonic() + float(parts[1]) / 1000.0
            poll = max(float(parts[2]) / 1000.0, 0.001)
            try:
                while True:
                    fd = try_acquire()
                    if fd == MISSING:
                        fd = None
                        out('MISSING')
                        break
                    if fd is not None:
                        out('LOCKED' + ident(fd))
                        break
                    left = deadline - time.monotonic()
                    if left <= 0:
                        out('TIMEOUT')
                        break
                    if wait(min(poll, left)):
                        sys.exit(0)
            except Exception as e:
                out('ERROR %s: %s' % (type(e).__name__, e))
        elif parts[0] == 'R':
            if fd is not None:
                try:
                    unlock(fd)
                finally:
                    os.close(fd)
                    fd = None
            out('RELEASED')
        else:
            out('ERROR unknown command %r' % parts[0])
finally:
    if fd is not None:
        try:
            unlock(fd)
        except Exception:
            pass
        os.close(fd)
`;

/**
 * Perl 5 helper, run as `perl -e PERL_LOCK_HELPER <lockFile>`. Refuses to run
 * when this perl emulates flock with fcntl/lockf locks (`d_flock` undefined):
 * those do not conflict with Python's flock(2).
 */
export const PERL_LOCK_HELPER = String.raw`use strict;
use Fcntl qw(O_RDWR O_NOFOLLOW O_NONBLOCK LOCK_EX LOCK_NB LOCK_UN);
use Errno;
use Time::HiRes ();
use Config;
$SIG{INT} = 'IGNORE';
$SIG{HUP} = 'IGNORE';
my $P = $ARGV[0];
my $buf = '';
sub out { my $s = shift; $s =~ s/[\r\n]+/ /g; syswrite(STDOUT, "$s\n"); }
if (!$Config{d_flock} || $^O eq 'MSWin32') { out("ERROR this perl has no native flock(2)"); exit 3; }
my $now = eval { Time::HiRes::clock_gettime(Time::HiRes::CLOCK_MONOTONIC()); 1 }
  ? sub { Time::HiRes::clock_gettime(Time::HiRes::CLOCK_MONOTONIC()) }
  : \&Time::HiRes::time;
sub rl {
  while (index($buf, "\n") < 0) {
    my $d; my $n = sysread(STDIN, $d, 4096);
    return undef unless $n;
    $buf .= $d;
  }
  my $i = index($buf, "\n");
  my $l = substr($buf, 0, $i);
  $buf = substr($buf, $i + 1);
  $l =~ s/^\s+|\s+$//g;
  return $l;
}
sub wait_eof {
  my $t = shift;
  my $rin = '';
  vec($rin, fileno(STDIN), 1) = 1;
  my $rout;
  if (select($rout = $rin, undef, undef, $t) > 0) {
    my $d; my $n = sysread(STDIN, $d, 4096);
    return 1 unless $n;
    $buf .= $d;
  }
  return 0;
}
sub try_acquire {
  my $h;
  if (!sysopen($h, $P, O_RDWR | O_NOFOLLOW | O_NONBLOCK)) {
    return 'MISSING' if $!{ENOENT};
    die "refusing $P: it is a symbolic link, not a regular file\n" if $!{ELOOP};
    die "refusing $P: it is a directory, not a regular file\n" if $!{EISDIR};
    die "cannot open $P: $!\n";
  }
  if (!-f $h) { close($h); die "refusing $P: it is not a regular file\n"; }
  if (flock($h, LOCK_EX | LOCK_NB)) {
    my @a = stat($h); my @b = stat($P);
    return $h if @b && $a[3] > 0 && $a[0] == $b[0] && $a[1] == $b[1];
    flock($h, LOCK_UN); close($h); return undef;
  }
  my $busy = $!{EWOULDBLOCK} || $!{EAGAIN} || $!{EACCES};
  my $err = "$!";
  close($h);
  return undef if $busy;
  die "flock $P: $err\n";
}
my $fh;
out("READY perl $$ $^V");
while (defined(my $line = rl())) {
  my @p = split ' ', $line;
  next unless @p;
  if ($p[0] eq 'A') {
    if ($fh) { my @s = stat($fh); out("LOCKED $s[0] $s[1]"); next; }
    my $deadline = $now->() + $p[1] / 1000;
    my $poll = $p[2] / 1000; $poll = 0.001 if $poll < 0.001;
    eval {
      while (1) {
        $fh = try_acquire();
        if (defined $fh && !ref $fh) { undef $fh; out('MISSING'); last; }
        if ($fh) { my @s = stat($fh); out("LOCKED $s[0] $s[1]"); last; }
        my $left = $deadline - $now->();
        if ($left <= 0) { out('TIMEOUT'); last; }
        exit 0 if wait_eof($left < $poll ? $left : $poll);
      }
      1;
    } or do { my $e = $@; $fh = undef; out("ERROR $e"); };
  } elsif ($p[0] eq 'R') {
    if ($fh) { flock($fh, LOCK_UN); close($fh); undef $fh; }
    out('RELEASED');
  } else {
    out("ERROR unknown command $p[0]");
  }
}
if ($fh) { flock($fh, LOCK_UN); close($fh); }
exit 0;
`;

/**
 * The shell command util-linux `flock(1)` runs while it holds the lock
 * (`flock -x -w SECS -E 75 LOCKFILE -c FLOCK_HOLD_COMMAND`): announce, then
 * hold until stdin reaches EOF. One process per acquisition; exit = released.
 */
export const FLOCK_HOLD_COMMAND = "echo LOCKED; exec cat >/dev/null";

/** flock(1)'s exit code on timeout (passed as `-E`), distinct from command failures. */
export const FLOCK_TIMEOUT_EXIT = 75;
