/**
 * The errors of the cross-process `.autodev/.lock` lock. Re-exported by `fileLock.ts`.
 */
import { WriteRefusedError } from "../../../errors";

/** No helper could take the OS lock on this machine: writes cannot be made safe (a refusal: CLI exit 2). */
export class LockHelperUnavailableError extends WriteRefusedError {
  constructor(
    readonly lockFile: string,
    readonly attempts: readonly { readonly helper: string; readonly reason: string }[],
  ) {
    super(
      `cannot lock ${lockFile}: no lock helper could run. AutoDev State writes need ` +
        (process.platform === "win32" ? "`python` (or the `py` launcher)" : "`perl` or `python3`") +
        " on PATH to take the same OS lock Python AutoDev's filelock uses; until then the workspace is read-only. " +
        (attempts.length === 0
          ? "No helpers were configured."
          : `Tried: ${attempts.map((a) => `${a.helper} (${a.reason})`).join("; ")}.`),
    );
  }
}

/** The helper reported an error taking the lock (permissions, filesystem without flock, …). */
export class FileLockError extends WriteRefusedError {}

/** The helper holding our lock died; another process may now hold it. */
export class FileLockLostError extends WriteRefusedError {}

/** `.autodev/.lock` is a link, a folder, a FIFO or another non-regular file: refused, never followed. */
export class UnsafeLockFileError extends FileLockError {}
