/**
 * `--max-line-mb N`: the ledger line-length limit, accepted by every command
 * (it applies to every ledger read in this process), so it is taken out of
 * argv before the command's own options are parsed.
 */
import { setMaxLineBytes } from "../core/fs/lineLimit";
import { UsageError } from "./cliArgs";

/** Removes `--max-line-mb N` / `--max-line-mb=N` from argv and applies it; throws UsageError on a bad value. */
export function takeLimitOptions(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--") {
      out.push(...argv.slice(i));
      break;
    }
    if (a !== "--max-line-mb" && !a.startsWith("--max-line-mb=")) {
      out.push(a);
      continue;
    }
    const value = a.includes("=") ? a.slice(a.indexOf("=") + 1) : argv[++i];
    const mb = Number(value);
    if (value === undefined || !Number.isFinite(mb) || mb <= 0) {
      throw new UsageError(`--max-line-mb needs a positive number of megabytes, got ${JSON.stringify(value ?? "")}`);
    }
    setMaxLineBytes(mb * 1024 * 1024);
  }
  return out;
}
