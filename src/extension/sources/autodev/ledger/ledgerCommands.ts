/**
 * Commands that read and check the ledger: Verify Ledger Integrity, Replay
 * Ledger (with a diff against plan.json), Show Plan As Of… / Back to Live,
 * and opening the state files or a ledger entry's line.
 */
import * as vscode from "vscode";
import { configPath, planPath, specPath } from "../../../../core/sources/autodev/autodevPaths";
import { ABSENT_SIGNATURE } from "../../../../core/fs/fileSignatureFormat";
import { actionWords, changeWords } from "../../../../core/timeline/timelineWords";
import { LEDGER_WORDS } from "../../../../core/sources/autodev/timeline/ledgerTimelineWords";
import { whenText } from "../../../text/dateText";
import { AutodevFolder } from "../folder/autodevFolder";
import { CommandHandler } from "../../../commandManager";
import { FolderPicker } from "../folder/folderPicker";
import type { StateWorkerClient } from "../../../stateWorkerClient";
import { OutputLog } from "../../../outputLog";
import { ReadOnlyDocuments } from "../../../readOnlyDocuments";
import type { SettingsReader } from "../../../settings/settings";
import { autodevRequest } from "../autodevRequest";
import { ConfirmAsk, modalAsk } from "../../../confirm";
import { countProblems } from "../../../../core/sources/sourceProblems";
import { verifyOutcomeText } from "./verifyOutcome";

/** Implements the ledger commands. */
export class LedgerCommands {
  /** The message the last verification showed (for tests: it must count what Problems lists). */
  lastOutcome: string | null = null;

  constructor(
    private readonly worker: StateWorkerClient,
    private readonly picker: FolderPicker,
    private readonly docs: ReadOnlyDocuments,
    private readonly log: OutputLog,
    private readonly settings: SettingsReader,
  ) {}

  /** id → handler */
  handlers(): Record<string, CommandHandler> {
    return {
      "autodev.verify": (arg) => this.verify(arg),
      "autodev.replay": (arg) => this.replay(arg),
      "autodev.showPlanAsOf": (arg, seq) => this.showPlanAsOf(arg, seq),
      "autodev.backToLive": (arg) => this.picker.pick(arg).then((f) => f?.travelTo(null)),
      "autodev.openPlanJson": (arg) => this.openStateFile(arg, planPath, "plan.json"),
      "autodev.openSpec": (arg) => this.openStateFile(arg, specPath, "spec.md"),
      "autodev.openConfig": (arg) => this.openStateFile(arg, configPath, "config.json"),
      "autodev.openLedgerLine": (arg, line) => this.openLedgerLine(arg, typeof line === "number" ? line : undefined),
      "autodev.acceptHistory": (arg) => this.acceptHistory(arg),
      "autodev.pinVerifiedHead": (arg) => this.pinHead(arg),
      "autodev.unpinVerifiedHead": (arg) => this.picker.pick(arg).then((f) => f?.unpinHead()),
    };
  }

  /** Pin Verified Head: the folder's ledger must extend its current verified head from now on. */
  async pinHead(arg?: unknown): Promise<void> {
    const f = await this.picker.pick(arg);
    if (!f) return;
    const pinned = await f.pinHead();
    if (!pinned) {
      void vscode.window.showWarningMessage(
        vscode.l10n.t("AutoDev: {0} has no verified head to pin (verify the ledger first).", f.folder.name),
      );
      return;
    }
    void vscode.window.showInformationMessage(
      vscode.l10n.t(
        "AutoDev: pinned head seq {0} ({1}) of {2}. A ledger that is cut or rewritten before it is flagged; in CI: autodev-state verify --expect-head {0}:{1}",
        pinned.seq,
        pinned.selfHash,
        f.folder.name,
      ),
    );
  }

  /**
   * Accept Rewritten Ledger History: the folder (a rewritten one when the command names none),
   * then a modal question saying what is accepted. True when the history was accepted.
   */
  async acceptHistory(arg?: unknown, ask: ConfirmAsk = modalAsk): Promise<boolean> {
    const f = await this.picker.pick(arg, (x) => x.rewriteFinding !== null);
    return f ? f.acceptHistory(ask) : false;
  }

  /** Verify Ledger Integrity: full rescan with progress and cancel; diagnostics, report, summary. */
  async verify(arg?: unknown): Promise<boolean | undefined> {
    const f = await this.picker.pick(arg);
    if (!f) return undefined;
    // The size the last refresh read (the host does no file I/O; a Verify before the first read asks nothing).
    const size = f.report?.bytes ?? 0;
    const limit = this.settings.confirmVerifyAboveMB(f.folder) * 1024 * 1024;
    if (limit > 0 && size > limit) {
      const verify = vscode.l10n.t("Verify");
      const go = await vscode.window.showWarningMessage(
        vscode.l10n.t("The ledger is {0} MB. Verify it fully now?", (size / 1048576).toFixed(0)),
        { modal: true },
        verify,
      );
      if (go !== verify) return undefined;
    }
    const result = await vscode.window
      .withProgress(
        {
          location: vscode.ProgressLocation.Notification,
          title: vscode.l10n.t("AutoDev: verifying {0}/.autodev/plan-ledger.jsonl", f.folder.name),
          cancellable: true,
        },
        async (progress, token) => {
          let id = 0;
          let last = 0;
          const sub = this.worker.onProgress((p) => {
            if (p.cwd !== f.cwd || p.total === 0) return;
            const pct = (p.bytes / p.total) * 100;
            progress.report({
              increment: pct - last,
              message: vscode.l10n.t("{0} / {1} MB", (p.bytes / 1048576).toFixed(0), (p.total / 1048576).toFixed(0)),
            });
            f.setProgress(vscode.l10n.t("verifying {0}%", Math.round(pct)));
            last = pct;
          });
          const cancel = token.onCancellationRequested(
            () => void this.worker.request({ type: "cancel", cwd: f.cwd, target: id }),
          );
          try {
            return await autodevRequest(
              this.worker,
              f.cwd,
              { type: "verify", historyWarnings: this.settings.historyWarnings(f.folder) },
              (i) => (id = i),
            );
          } finally {
            sub.dispose();
            cancel.dispose();
            f.setProgress(null);
          }
        },
      )
      .then(
        (r) => r,
        (e: Error) => {
          if (/cancelled/.test(e.message)) {
            void vscode.window.showInformationMessage(vscode.l10n.t("AutoDev: verification cancelled."));
          } else throw e;
          return null;
        },
      );
    if (!result) return undefined;
    await f.apply(result);
    const r = result.report;
    this.writeReport(
      f,
      r.ok,
      r.entries,
      r.errors.map((e) => `  line ${e.atLine}${e.seq !== null ? ` (seq ${e.seq})` : ""} — ${e.kind}: ${e.message}`),
      r.warnings.map((w) => `  line ${w.atLine} — ${w.kind}: ${w.message}`),
      result.ms,
    );
    const outcome = verifyOutcomeText(r, result.ms, countProblems(f.problems ?? []));
    this.lastOutcome = outcome.text;
    if (!outcome.error) void vscode.window.showInformationMessage(outcome.text);
    else {
      const first = r.errors[0];
      const goToLine = vscode.l10n.t("Go to Line");
      const showReport = vscode.l10n.t("Show Report");
      // Not awaited: the command resolves with the verdict while the message waits for the user.
      void vscode.window.showErrorMessage(outcome.text, goToLine, showReport).then((pick) => {
        if (pick === goToLine) void this.openLedgerLine(f, first.atLine);
        if (pick === showReport) this.log.show();
      });
    }
    return r.ok;
  }

  private writeReport(
    f: AutodevFolder,
    ok: boolean,
    entries: number,
    errors: string[],
    warnings: string[],
    ms: number,
  ): void {
    this.log.info(`Verification of ${f.ledgerFile}: ${ok ? "OK" : "BROKEN"}, ${entries} entries, ${Math.round(ms)} ms`);
    for (const e of errors) this.log.error(e);
    for (const w of warnings) this.log.warn(w);
  }

  /** Replay Ledger: rebuild from genesis, compare with plan.json and the snapshot fast path; diff on mismatch. */
  async replay(arg?: unknown): Promise<void> {
    const f = await this.picker.pick(arg);
    if (!f) return;
    const c = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: vscode.l10n.t("AutoDev: replaying the ledger from genesis…"),
      },
      () => autodevRequest(this.worker, f.cwd, { type: "replayCompare" }),
    );
    if (c.error) {
      void vscode.window.showErrorMessage(vscode.l10n.t("AutoDev: replay failed: {0}", c.error));
      return;
    }
    const replayedUri = this.docs.put("replayed-plan.json", c.replayed ?? "null\n");
    const sameFast = c.replayed === c.fastPath;
    const sameDisk = c.replayed === c.planJson;
    this.log.info(
      `Replay of ${f.folder.name}: ${c.entries} entries; plan.json ${sameDisk ? "matches" : "differs"}; snapshot fast path ${sameFast ? "matches" : "differs"}`,
    );
    if (sameDisk && sameFast) {
      void vscode.window.showInformationMessage(
        vscode.l10n.t(
          "AutoDev: replayed {0} entries; plan.json and the snapshot fast path both match the replayed plan.",
          c.entries,
        ),
      );
      return;
    }
    if (!sameDisk) {
      const left =
        c.planJson === null
          ? this.docs.put(vscode.l10n.t("plan.json (missing)"), "")
          : vscode.Uri.file(planPath(f.cwd));
      await vscode.commands.executeCommand(
        "vscode.diff",
        left,
        replayedUri,
        vscode.l10n.t("plan.json ↔ replayed from genesis ({0})", f.folder.name),
      );
    }
    if (!sameFast) {
      const fastUri = this.docs.put("snapshot-fast-path.json", c.fastPath ?? "null\n");
      await vscode.commands.executeCommand(
        "vscode.diff",
        fastUri,
        replayedUri,
        vscode.l10n.t("snapshot fast path ↔ replayed from genesis ({0})", f.folder.name),
      );
    }
    const differs =
      !sameDisk && !sameFast
        ? vscode.l10n.t("AutoDev: the replayed plan differs from plan.json and the snapshot fast path; see the diff.")
        : !sameDisk
          ? vscode.l10n.t("AutoDev: the replayed plan differs from plan.json; see the diff.")
          : vscode.l10n.t("AutoDev: the replayed plan differs from the snapshot fast path; see the diff.");
    void vscode.window.showWarningMessage(differs);
  }

  /** Show Plan As Of…: pick an entry (or give a seq); the tree shows that state. */
  async showPlanAsOf(arg?: unknown, seqArg?: unknown): Promise<void> {
    const f = await this.picker.pick(arg);
    if (!f) return;
    if (typeof seqArg === "number") return f.travelTo(seqArg);
    const head = await autodevRequest(this.worker, f.cwd, { type: "entries", offset: 0, limit: 0 });
    const limit = 5000;
    const { total, items } = await autodevRequest(this.worker, f.cwd, {
      type: "entries",
      offset: Math.max(0, head.total - limit),
      limit,
    });
    // Words, not identifiers; snapshots are folded into the entry they follow, as in the timeline.
    const picks = items
      .filter((e, i) => !(e.op === "snapshot" && i > 0))
      .reverse()
      .map((e) => ({
        label: `#${e.seq} ${actionWords(LEDGER_WORDS, e.op)}`,
        description: [e.taskId ? vscode.l10n.t("task {0}", e.taskId) : "", changeWords(LEDGER_WORDS, e)]
          .filter(Boolean)
          .join(" · "),
        detail: [e.timestamp ? whenText(e.timestamp) : "", e.sessionId].filter(Boolean).join(" · "),
        seq: e.seq,
      }));
    const pick = await vscode.window.showQuickPick(picks, {
      placeHolder: vscode.l10n.t("Show the plan as of which entry? ({0} entries; newest first)", total),
      matchOnDescription: true,
      matchOnDetail: true,
    });
    if (pick) await f.travelTo(pick.seq);
  }

  private async openStateFile(arg: unknown, fn: (cwd: string) => string, name: string): Promise<void> {
    const f = await this.picker.pick(arg);
    if (!f) return;
    const file = fn(f.cwd);
    // Whether it is there, as the state worker sees it (the host looks at no file itself).
    const [look] = await this.worker.request({ type: "signatures", cwd: f.cwd, files: [file] });
    if (look === ABSENT_SIGNATURE) {
      void vscode.window.showInformationMessage(
        vscode.l10n.t("AutoDev: {0}/.autodev/{1} does not exist.", f.folder.name, name),
      );
      return;
    }
    await vscode.window.showTextDocument(vscode.Uri.file(file), { preview: true });
  }

  /** Opens plan-ledger.jsonl at a line (1-based). */
  async openLedgerLine(arg: unknown, line?: number): Promise<void> {
    const f = await this.picker.pick(arg);
    if (!f) return;
    let target = line;
    if (target === undefined) {
      const typed = await vscode.window.showInputBox({
        prompt: vscode.l10n.t("Ledger line number"),
        validateInput: (v) => (/^\d+$/.test(v) ? null : vscode.l10n.t("a line number")),
      });
      if (!typed) return;
      target = Number(typed);
    }
    const pos = new vscode.Position(Math.max(0, target - 1), 0);
    await vscode.window.showTextDocument(vscode.Uri.file(f.ledgerFile), {
      selection: new vscode.Range(pos, pos),
      preview: true,
    });
  }
}
