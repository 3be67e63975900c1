/**
 * The longest line a reader of this process (or worker thread) keeps in memory: the setting
 * `autodev.maxLineMB` in the editor, `--max-line-mb` in the CLI. Longer lines are reported and
 * skipped, never buffered.
 */

/** Default longest line kept in memory: 256 MB. */
export const DEFAULT_MAX_LINE_BYTES = 256 * 1024 * 1024;
let maxLineBytes = DEFAULT_MAX_LINE_BYTES;

/** Sets the line-length limit of every reader in this process/thread (bytes; a non-positive or NaN value restores the default). */
export function setMaxLineBytes(bytes: number): void {
  maxLineBytes = Number.isFinite(bytes) && bytes > 0 ? Math.floor(bytes) : DEFAULT_MAX_LINE_BYTES;
}

/** The line-length limit in force, in bytes. */
export function getMaxLineBytes(): number {
  return maxLineBytes;
}
