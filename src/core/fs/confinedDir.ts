/**
 * Writing inside a state folder that a hostile repository may swap for a link
 * while we write (`O_NOFOLLOW` covers the last component of a path only).
 *
 * The folder is opened once (`O_DIRECTORY | O_NOFOLLOW`) after the checks of
 * fileGuard.ts, and the descriptor's real place is checked (openedPath.ts):
 * exactly `<real workspace>/<rel>`. On Linux every later path goes through the
 * descriptor (`/proc/self/fd/N/<name>`: openat semantics), so the temp file,
 * the rename and an append land in the folder that was checked even if
 * `.agloop` is exchanged for a link a microsecond later. Where `/proc` is
 * absent the folder's real path is used and re-checked (device and inode)
 * right before each rename and append; a swap timed between that re-check and
 * the rename is the residual risk there (docs/limits.md).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { randomBytes } from "node:crypto";
import { WriteRefusedError } from "../errors";
import { CREATE_NEW_FLAGS, errnoCode, guardPath, NO_BLOCK, NO_FOLLOW, type FileRefusal } from "./fileGuard";
import { descriptorPathSync, sameFile } from "./openedPath";
import { OPEN_ATTEMPTS } from "./guardedOpen";

/** A folder that cannot be written safely; the message names it and what was found. */
export class ConfinedWriteError extends WriteRefusedError {}

const DIR_FLAGS = fs.constants.O_RDONLY | (fs.constants.O_DIRECTORY ?? 0) | NO_FOLLOW;
const APPEND_FLAGS = fs.constants.O_WRONLY | fs.constants.O_APPEND | fs.constants.O_CREAT | NO_FOLLOW | NO_BLOCK;

function refusalText(rel: string, r: FileRefusal): string {
  switch (r.why) {
    case "wrong kind":
      return `${r.at ?? rel} is a ${r.found}, not a folder`;
    case "unreadable":
      return `${r.at ?? rel} cannot be checked (${r.code})`;
    default:
      return `${rel} cannot be used (${r.why})`;
  }
}

/** The folder's descriptor was elsewhere than its path said: tried again, then reported. */
class SwappedWhileOpened extends ConfinedWriteError {}

async function mkdirIfMissing(dir: string): Promise<void> {
  try {
    await fs.promises.mkdir(dir);
  } catch (e) {
    if (errnoCode(e) !== "EEXIST") throw e; // a link there is refused by the open after this
  }
}

/** An open, checked folder of the workspace to write in; `close()` when done. */
export class ConfinedDir {
  private constructor(
    /** The folder's open descriptor (`O_DIRECTORY`); a child process may inherit it. */
    readonly fd: number,
    /** The folder's real path (`<real workspace>/<rel>`). */
    readonly real: string,
    /** True when paths go through the descriptor (`/proc/self/fd/N/<name>`, Linux). */
    readonly viaProc: boolean,
    private readonly opened: fs.Stats,
    private readonly workspace: string,
    /** The folder, relative to the workspace (forward slashes), for messages. */
    readonly rel: string,
  ) {}

  /**
   * Opens `<workspace>/<rel>` (forward slashes) for writing in; refuses a link, a non-folder or a swapped parent
   * (tried again while a folder above it is being swapped). `create`: a missing last component is made
   * (`mkdir`, which never follows a link), inside a parent that is itself opened confined.
   */
  static async open(workspace: string, rel: string, options: { create?: boolean } = {}): Promise<ConfinedDir> {
    const parts = rel.split("/");
    if (options.create) {
      const parent = parts.length > 1 ? await ConfinedDir.open(workspace, parts.slice(0, -1).join("/")) : null;
      try {
        await parent?.mkdir(parts[parts.length - 1]);
        if (parent === null) await mkdirIfMissing(path.join(workspace, rel));
      } finally {
        parent?.close();
      }
    }
    let last: unknown;
    for (let attempt = 0; attempt < OPEN_ATTEMPTS; attempt++) {
      try {
        return await ConfinedDir.openOnce(workspace, rel);
      } catch (e) {
        if (!(e instanceof SwappedWhileOpened)) throw e;
        last = e;
      }
    }
    throw last;
  }

  private static async openOnce(workspace: string, rel: string): Promise<ConfinedDir> {
    const abs = path.join(workspace, ...rel.split("/"));
    const checked = await guardPath(abs, { root: workspace, links: "refuse" }, "folder");
    if (checked.kind === "missing") throw new ConfinedWriteError(`${rel} does not exist; nothing was written.`);
    if (checked.kind === "refused") {
      throw new ConfinedWriteError(`${refusalText(rel, checked.refusal)}; nothing was written.`);
    }
    const expected = path.join(await fs.promises.realpath(workspace), ...rel.split("/"));
    let fd: number;
    try {
      fd = fs.openSync(abs, DIR_FLAGS);
    } catch (e) {
      throw new ConfinedWriteError(`${rel} cannot be opened (${errnoCode(e)}); nothing was written.`);
    }
    const st = fs.fstatSync(fd);
    const at = descriptorPathSync(fd);
    const placeOk = at !== null ? at.real === expected && !at.replaced : sameFile(st, checked.stat);
    if (!st.isDirectory() || !placeOk) {
      fs.closeSync(fd);
      throw new SwappedWhileOpened(
        `${rel} was swapped for something else while it was opened (it led to ${at?.real ?? "another folder"}); nothing was written.`,
      );
    }
    return new ConfinedDir(fd, expected, at !== null, st, workspace, rel);
  }

  /** Opens the sub-folder `name` the same way (made first when `create`); the caller closes both. */
  async sub(name: string, options: { create?: boolean } = {}): Promise<ConfinedDir> {
    if (options.create) await this.mkdir(name);
    return ConfinedDir.open(this.workspace, `${this.rel}/${name}`);
  }

  /** Makes the folder `name` inside (0777 less the umask) unless it exists; never through a link. */
  async mkdir(name: string): Promise<void> {
    await mkdirIfMissing(this.pathOf(name));
  }

  /** The path of `name` inside the folder: through the descriptor on Linux, else under the real path. */
  pathOf(name: string): string {
    if (name.includes("/") || name.includes("\\") || name === "." || name === "..") {
      throw new ConfinedWriteError(`${JSON.stringify(name)} is not a file name`);
    }
    return this.viaProc ? `/proc/self/fd/${this.fd}/${name}` : path.join(this.real, name);
  }

  /**
   * The folder's path must still lead to the folder opened: the kernel's path of the descriptor on
   * Linux, a fresh `lstat` elsewhere. Call between reads by path and the writes they decide, so both
   * concern the same folder.
   */
  assertStillAt(): void {
    if (this.viaProc) {
      const at = descriptorPathSync(this.fd);
      if (at !== null && (at.replaced || at.real !== this.real)) {
        throw new ConfinedWriteError(
          `${this.rel} was moved or swapped for a link while it was written in (it is now ${at.real}); stopped before writing.`,
        );
      }
      return;
    }
    this.assertInPlace();
  }

  /** Without `/proc`: the folder's path must still lead to the folder opened (call right before a rename or append). */
  assertInPlace(): void {
    if (this.viaProc) return;
    let now: fs.Stats | null = null;
    try {
      now = fs.lstatSync(this.real);
    } catch {
      // reported below
    }
    if (now === null || !now.isDirectory() || !sameFile(now, this.opened)) {
      throw new ConfinedWriteError(`${this.real} was replaced while it was written in; stopped before the rename.`);
    }
  }

  /** The lstat of `name` in the folder, or null when it does not exist. */
  async lstat(name: string): Promise<fs.Stats | null> {
    try {
      return await fs.promises.lstat(this.pathOf(name));
    } catch (e) {
      if (errnoCode(e) === "ENOENT") return null;
      throw e;
    }
  }

  /**
   * Replaces `name` atomically with `data`: a temp file (`prefix…tmp`, created
   * exclusively, never through a link) with `mode`, fsynced, renamed over
   * `name`, the folder fsynced.
   */
  async writeAtomic(
    name: string,
    data: string | Buffer,
    prefix: string,
    mode: number,
    owner?: { uid: number; gid: number },
  ): Promise<void> {
    const tmpName = `${prefix}${randomBytes(6).toString("hex")}.tmp`;
    const tmp = this.pathOf(tmpName);
    const fh = await fs.promises.open(tmp, CREATE_NEW_FLAGS, 0o600);
    try {
      try {
        await fh.writeFile(data);
        await fh.chmod(mode & 0o7777);
        if (owner !== undefined && process.getuid?.() === 0) {
          await fh.chown(owner.uid, owner.gid).catch(() => undefined);
        }
        await fh.sync();
      } finally {
        await fh.close();
      }
      this.assertInPlace();
      await fs.promises.rename(tmp, this.pathOf(name));
    } catch (e) {
      await fs.promises.unlink(tmp).catch(() => undefined);
      throw e;
    }
    this.fsync();
  }

  /** fsyncs the folder, so a rename inside it is durable (best effort where a folder cannot be fsynced). */
  fsync(): void {
    try {
      fs.fsyncSync(this.fd);
    } catch {
      // best effort
    }
  }

  /**
   * Opens `name` for appending (created 0644 when missing): non-blocking, never
   * through a link, and only a regular file (a FIFO there cannot block the
   * write, a device is never written). The caller closes the handle.
   */
  async openAppend(name: string): Promise<fs.promises.FileHandle> {
    this.assertInPlace();
    let fh: fs.promises.FileHandle;
    try {
      fh = await fs.promises.open(this.pathOf(name), APPEND_FLAGS, 0o644);
    } catch (e) {
      const code = errnoCode(e);
      const why =
        code === "ENXIO"
          ? "a FIFO (named pipe) with no reader"
          : code === "ELOOP"
            ? "a symbolic link"
            : code === "EISDIR"
              ? "a folder"
              : `not writable (${code})`;
      throw new ConfinedWriteError(`${name} is ${why}; expected a regular file to append to.`);
    }
    const st = await fh.stat();
    if (!st.isFile()) {
      await fh.close();
      throw new ConfinedWriteError(`${name} is not a regular file (a FIFO or device); nothing was appended to it.`);
    }
    return fh;
  }

  /** The names in the folder (unsorted). */
  async list(): Promise<string[]> {
    return fs.promises.readdir(this.viaProc ? `/proc/self/fd/${this.fd}` : this.real);
  }

  /** Removes the file `name` (never a folder); false when it did not exist. */
  async unlink(name: string): Promise<boolean> {
    try {
      await fs.promises.unlink(this.pathOf(name));
      return true;
    } catch (e) {
      if (errnoCode(e) === "ENOENT") return false;
      throw e;
    }
  }

  /** Closes the folder's descriptor. */
  close(): void {
    fs.closeSync(this.fd);
  }
}
