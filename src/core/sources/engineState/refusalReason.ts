/**
 * How engine_state problems word a file the shared checks (src/core/fs/fileGuard.ts)
 * refused to read: a phrase that follows the file's name ("… is a FIFO (named pipe),
 * not a regular file"), completed by the caller with what was expected and what to do.
 */
import type { FileRefusal, FoundKind } from "../../fs/fileGuard";

/** What a non-regular file is, in words. */
function describe(kind: FoundKind): string {
  switch (kind) {
    case "directory":
      return "a directory";
    case "FIFO (named pipe)":
      return "a FIFO (named pipe)";
    case "character device":
    case "block device":
      return "a device";
    case "socket":
      return "a socket";
    case "symbolic link":
      return "a symbolic link";
    default:
      return `a ${kind}`;
  }
}

/** The phrase after a file's name that says why it was not read. */
export function refusalReason(refusal: FileRefusal): string {
  switch (refusal.why) {
    case "unreadable":
      return `cannot be ${refusal.step === "open" ? "opened" : "read"} (${refusal.code})`;
    case "broken link":
      return `is a link that leads nowhere (${refusal.code})`;
    case "root unresolved":
      return `cannot be checked: its workspace folder cannot be resolved (${refusal.code})`;
    case "outside":
    case "escapes":
      return "resolves to a path outside the workspace folder";
    case "wrong kind":
      return `is ${describe(refusal.found)}, not a regular file`;
    case "changed":
      return refusal.found === null
        ? "kept being replaced while it was being opened"
        : `was replaced by ${describe(refusal.found)} while it was being opened`;
    case "swapped":
      return `was reached through a folder swapped for a link while it was being opened (it led to ${refusal.real})`;
    case "too large":
      return `is ${refusal.size} bytes, more than the ${refusal.maxBytes} bytes expected of it`;
    case "grew":
      return `grew past the ${refusal.maxBytes} bytes expected of it`;
  }
}
