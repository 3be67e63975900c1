/**
 * `--max-line-mb N`: the ledger line-length limit, accepted by every command
 * (it applies to every ledger read in this process), so it is taken out of
 * argv before the command's own options are parsed.
 */
import { setMaxLineBytes } from "../core/fs/lineLimit";
import { takeOption, UsageError } from "./cliArgs";

/** Removes `--max-line-mb N` / `--max-line-mb=N` from argv ({@link takeOption}) and applies it; throws UsageError on a bad value. */
export function takeLimitOptions(argv: readonly string[]): string[] {
  const { values, rest } = takeOption(argv, "max-line-mb");
  for (const value of values) {
    const mb = Number(value);
    if (value === undefined || !Number.isFinite(mb) || mb <= 0) {
      throw new UsageError(`--max-line-mb needs a positive number of megabytes, got ${JSON.stringify(value ?? "")}`);
    }
    setMaxLineBytes(mb * 1024 * 1024);
  }
  return rest;
}
