/**
 * A writer process for crash and concurrency tests: appends entries through
 * PlanManager (the locked commit path) until killed or done.
 *
 * usage: node writerChild.js DIR MODE COUNT TAG
 *   MODE "crash":  alternate markTaskRetry (entry + plan.json + snapshot) and big audit entries (1 B .. 2 MB)
 *   MODE "concurrent": COUNT audit entries with payload {writer: TAG, n}
 * Prints "WROTE <n> <seq>" after each commit: <seq> is the ledger's last seq once the commit returned
 * (with one writer, this writer's own last entry), so a test can check no completed commit was lost.
 */
import { readLastEntryHead } from "../../../src/core/sources/autodev/ledger/ledgerWriter";
import { PlanManager } from "../../../src/core/sources/autodev/ledger/planManager";
import { PyObject, PyValue } from "../../../src/core/pyjson/pyValue";

async function main(): Promise<void> {
  const [dir, mode, countText, tag] = process.argv.slice(2);
  const pm = new PlanManager(dir, { sessionId: `writer-${tag}`, lockTimeoutS: 60 });
  const count = Number(countText);
  for (let n = 0; n < count; n++) {
    if (mode === "crash") {
      if (n % 2 === 0) await pm.markTaskRetry("1.3");
      else {
        const size = [1, 1000, 100_000, 2_000_000][n % 4];
        await pm.ledgerAppend(
          "impl_tournament_complete",
          new Map<string, PyValue>([
            ["writer", tag],
            ["n", n],
            ["blob", "x".repeat(size)],
          ]) as PyObject,
        );
      }
    } else {
      await pm.ledgerAppend(
        "impl_tournament_complete",
        new Map<string, PyValue>([
          ["writer", tag],
          ["n", n],
        ]) as PyObject,
      );
    }
    process.stdout.write(`WROTE ${n} ${(await readLastEntryHead(dir)).seq}\n`);
  }
  process.exit(0);
}

main().catch((e) => {
  process.stderr.write(`writer failed: ${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
