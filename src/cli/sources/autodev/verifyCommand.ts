/**
 * `autodev-state verify`: the chain, replay and the history checks of one
 * ledger. Its own module, importing only what verify needs, so the CLI loads
 * no more than that for the command a user runs most (main.ts loads each
 * command's module when it runs).
 */
import * as fs from "node:fs";
import { ParsedArgs, UsageError, withOptionalDir } from "../../cliArgs";
import { noLedgerYet, requireAutodevState } from "./cliPreflight";
import { missingEvidenceWarnings, planJsonWarning } from "../../../core/sources/autodev/historyChecks";
import { printJson, println } from "../../cliOutput";
import { verifyLedger } from "../../../core/sources/autodev/ledger/ledgerReader";
import { EntrySummary, VerifyWarning } from "../../../core/sources/autodev/ledger/verifyTypes";
import { displayMessage, displayValue } from "../../../core/text/displayText";
import { AnchorWatch, parseAnchoredHead } from "../../../core/sources/autodev/report/anchoredHead";
import { pushAll } from "../../../core/sources/sourceProblems";
import { autodevRoot, ledgerPath } from "../../../core/sources/autodev/autodevPaths";

/** Exit code of `verify` in the plan phase: nothing to verify yet (neither ok nor an integrity failure). */
export const EXIT_NO_LEDGER_YET = 5;

/**
 * `verify [DIR] [--json] [--expect-head SEQ:HASH]`: the same findings and warnings in text (stdout)
 * and JSON; exit 1 when broken, or when the ledger no longer holds the anchored head;
 * {@link EXIT_NO_LEDGER_YET} in the plan phase (AutoDev has written `.autodev/` but no ledger yet) —
 * except with an anchored head: a ledger that was anchored and is gone is truncated, exit 1.
 */
export async function cmdVerify(args: ParsedArgs): Promise<number> {
  const { dir } = withOptionalDir(args.positionals, []);
  const expectRaw = args.options.get("expect-head");
  const anchor = expectRaw === undefined ? null : parseAnchoredHead(expectRaw);
  if (anchor && !anchor.ok) throw new UsageError(`--expect-head: ${anchor.error}`);
  const watch = anchor ? new AnchorWatch(anchor.head) : null;
  if (watch && ledgerGone(dir)) return ledgerGoneVerdict(dir, watch, args.switches.has("json"));
  if ((await requireAutodevState(dir)) === "plan_phase") {
    const message = `${noLedgerYet(dir)}; nothing to verify yet`;
    if (args.switches.has("json")) {
      printJson({ ok: null, ledger: false, entries: 0, head: null, errors: [], warnings: [], message });
    } else println(message);
    return EXIT_NO_LEDGER_YET;
  }
  // Only the last status change per task is kept (for the missing-evidence warnings): bounded memory.
  const lastChange = new Map<string, EntrySummary>();
  const { report, plan } = await verifyLedger(dir, {
    onEntry: (e) => {
      watch?.see(e.seq, e.selfHash);
      if (e.taskId && e.toStatus) lastChange.set(e.taskId, e);
    },
  });
  const anchorVerdict = watch?.verdict(report.ok, report.head ? Number(report.head.seq) : 0) ?? null;
  const warnings: VerifyWarning[] = [...report.warnings];
  if (report.ok) {
    if (plan) pushAll(warnings, await missingEvidenceWarnings(dir, plan, [...lastChange.values()]));
    const drift = await planJsonWarning(dir, plan);
    if (drift) warnings.push(drift);
  }
  const where = (w: VerifyWarning) => (w.kind.startsWith("plan_json") ? "plan.json" : `line ${w.atLine}`);
  if (args.switches.has("json")) {
    printJson({
      // `ok` is the whole verdict (chain and anchor); `chain_ok` the hash chain alone.
      ok: report.ok && (anchorVerdict === null || anchorVerdict.kind === "extends"),
      chain_ok: report.ok,
      ledger: true,
      entries: report.entries,
      head: report.head ? { seq: report.head.seq, self_hash: report.head.selfHash } : null,
      errors: report.errors.map((e) => ({ line: e.line, seq: e.seq, kind: e.kind, message: e.message })),
      warnings: warnings.map((w) => ({
        file: w.kind.startsWith("plan_json") ? "plan.json" : "plan-ledger.jsonl",
        line: w.atLine,
        seq: w.seq,
        kind: w.kind,
        message: w.message,
      })),
      ...(watch && anchorVerdict
        ? {
            expect_head: {
              seq: watch.anchor.seq,
              self_hash: watch.anchor.selfHash,
              ok: anchorVerdict.kind === "extends",
              verdict: anchorVerdict.kind,
              message: anchorVerdict.message,
            },
          }
        : {}),
    });
  } else {
    if (report.ok) {
      println(
        `ledger ok: ${report.entries} entries${report.head ? `, head seq ${report.head.seq} (${displayValue(report.head.selfHash)})` : ""}`,
      );
    } else {
      println(
        `ledger BROKEN: ${report.errors.length} finding${report.errors.length === 1 ? "" : "s"} in ${report.entries} entries`,
      );
      for (const e of report.errors) {
        println(
          `  ${e.kind}${e.line !== null ? ` (line ${e.line})` : ` (line ${e.atLine}, seq ${e.seq})`}: ${displayMessage(e.message)}`,
        );
      }
      if (report.head) println(`last good entry: seq ${report.head.seq} at line ${report.head.line}`);
    }
    for (const w of warnings) println(`warning: ${where(w)}: ${displayMessage(w.message)}`);
    if (anchorVerdict) {
      println(`${anchorVerdict.kind === "extends" ? "" : "expect-head FAILED: "}${anchorVerdict.message}`);
    }
  }
  return report.ok && (anchorVerdict === null || anchorVerdict.kind === "extends") ? 0 : 1;
}

/** True when `.autodev/` is there but its ledger is not (lstat: a link or a FIFO is "there", and read as such). */
function ledgerGone(dir: string): boolean {
  try {
    if (!fs.statSync(autodevRoot(dir)).isDirectory()) return false;
  } catch {
    return false;
  }
  try {
    fs.lstatSync(ledgerPath(dir));
    return false;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "ENOENT";
  }
}

/** An anchored head and no ledger: it was there and is gone — truncated to nothing, exit 1. */
function ledgerGoneVerdict(dir: string, watch: AnchorWatch, json: boolean): number {
  const verdict = watch.verdict(true, 0);
  const message = `${verdict.message}; ${ledgerPath(dir)} is gone`;
  if (json) {
    printJson({
      ok: false,
      chain_ok: null,
      ledger: false,
      entries: 0,
      head: null,
      errors: [],
      warnings: [],
      expect_head: {
        seq: watch.anchor.seq,
        self_hash: watch.anchor.selfHash,
        ok: false,
        verdict: verdict.kind,
        message,
      },
    });
  } else println(`expect-head FAILED: ${displayMessage(message)}`);
  return 1;
}
