/**
 * Crash-safe file replacement (design §5.3): write a temp file in the same
 * folder, fsync it, rename it over the target, fsync the folder. A reader
 * sees the old file or the new one, never a torn one. Temp files are 0600 and
 * named like Python's (`.ledger.*.tmp`, `.plan.*.tmp`), so the result has
 * the same mode as what Python AutoDev writes.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { randomBytes } from "node:crypto";

/** Creates an empty temp file (`mode`, less the umask) next to `target`; returns its path and open handle. */
async function createTemp(
  dir: string,
  prefix: string,
  mode = 0o600,
): Promise<{ tmp: string; fh: fs.promises.FileHandle }> {
  for (let attempt = 0; ; attempt++) {
    const tmp = path.join(dir, `${prefix}${randomBytes(6).toString("hex")}.tmp`);
    try {
      const fh = await fs.promises.open(tmp, fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_RDWR, mode);
      return { tmp, fh };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST" || attempt > 20) throw e;
    }
  }
}

/** fsyncs a directory so a rename inside it is durable (best effort where unsupported). */
export async function fsyncDir(dir: string): Promise<void> {
  let fh: fs.promises.FileHandle | undefined;
  try {
    fh = await fs.promises.open(dir, "r");
    await fh.sync();
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== "EISDIR" && code !== "EINVAL" && code !== "EPERM" && code !== "EBADF") throw e;
  } finally {
    await fh?.close();
  }
}

/** Runs `write` on `fh`, fsyncs it, and closes it (closed whatever happens). */
async function writeSynced(fh: fs.promises.FileHandle, write: () => Promise<unknown>): Promise<void> {
  try {
    await write();
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/**
 * Fills the temp file `tmp` (`fill`), renames it over `target` and fsyncs the folder; when
 * either step fails, removes `tmp` and rethrows, so the old `target` is left as it was.
 */
async function renameOver(tmp: string, target: string, fill: () => Promise<void>): Promise<void> {
  try {
    await fill();
    await fs.promises.rename(tmp, target);
  } catch (e) {
    await fs.promises.unlink(tmp).catch(() => undefined);
    throw e;
  }
  await fsyncDir(path.dirname(target));
}

/** How {@link atomicWriteFile} makes the new file. */
export interface AtomicWriteOptions {
  /** The new file's mode, less the umask (default 0600: the mode Python AutoDev's files have). */
  readonly mode?: number;
  /** Give it the mode of the regular file it replaces, when there is one. */
  readonly keepMode?: boolean;
}

/** The mode of the regular file at `target` (permission bits), or null when there is none. */
function existingMode(target: string): number | null {
  try {
    const st = fs.lstatSync(target);
    return st.isFile() ? st.mode & 0o7777 : null;
  } catch {
    return null;
  }
}

/** Atomically replaces `target` with `data` (written piece by piece when it is several). */
export async function atomicWriteFile(
  target: string,
  data: string | Buffer | Iterable<string>,
  prefix: string,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const dir = path.dirname(target);
  const keep = options.keepMode ? existingMode(target) : null;
  const { tmp, fh } = await createTemp(dir, prefix, options.mode);
  await renameOver(tmp, target, async () => {
    await writeSynced(fh, async () => {
      if (keep !== null) await fh.chmod(keep);
      if (typeof data === "string" || Buffer.isBuffer(data)) await fh.writeFile(data);
      else for (const chunk of data) await fh.write(chunk);
    });
  });
}

/**
 * Atomically replaces `target` with its current content plus `tail`: clone
 * (reflink where the filesystem allows, else copy) into a temp file, append,
 * fsync, rename, fsync the folder. O(file size), as in Python AutoDev, but a
 * crash at any point leaves the old file intact.
 */
export async function atomicAppendCopy(target: string, tail: string | Buffer, prefix: string): Promise<void> {
  const dir = path.dirname(target);
  const { tmp, fh: created } = await createTemp(dir, prefix);
  await created.close();
  await renameOver(tmp, target, async () => {
    let exists = true;
    try {
      await fs.promises.copyFile(target, tmp, fs.constants.COPYFILE_FICLONE);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
      exists = false;
    }
    if (exists) await fs.promises.chmod(tmp, 0o600);
    const fh = await fs.promises.open(tmp, "a");
    await writeSynced(fh, () => fh.appendFile(tail));
  });
}
