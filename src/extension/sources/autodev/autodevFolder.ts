/**
 * The state of one workspace folder's `.autodev/` as the UI sees it: the live
 * plan, the integrity report, the entry count, an optional time-travel view,
 * and history-rewrite warnings against the head remembered from earlier
 * sessions. All reading happens in the ledger worker.
 */
import * as fs from "node:fs";
import * as vscode from "vscode";
import { Plan } from "../../../core/sources/autodev/plan/schemas";
import { revivePlanClone } from "../../../core/sources/autodev/plan/planTransfer";
import { RewriteFinding, RememberedHead } from "../../../core/sources/autodev/ledger/ledgerSession";
import { VerifyReport } from "../../../core/sources/autodev/ledger/verifyTypes";
import { RefreshResult } from "../../../core/worker/workerProtocol";
import { autodevRoot, ledgerPath } from "../../../core/sources/autodev/autodevPaths";
import { Disposable } from "../../disposable";
import { LedgerWorkerClient } from "../../ledgerWorkerClient";
import { OutputLog } from "../../outputLog";

/** A plan shown as of an earlier entry. */
export interface TimeTravel {
  readonly seq: number;
  readonly plan: Plan | null;
}

/** How long after a resumed start the whole ledger is re-verified in the background. */
const BACKGROUND_VERIFY_DELAY_MS = 20_000;

/** One folder's AutoDev state. */
export class AutodevFolder extends Disposable {
  private livePlan: Plan | null = null;
  private lastReport: VerifyReport | null = null;
  private entryCount = 0;
  private travel: TimeTravel | null = null;
  private rewrite: RewriteFinding | null = null;
  private refreshing: Promise<RefreshResult | null> | null = null;
  private again = false;
  private resumeTried = false;
  private backgroundVerify: ReturnType<typeof setTimeout> | undefined;
  private lastError: string | null = null;
  /** Set when the folder must not be read (a link out of the workspace in an untrusted workspace). */
  private refusal: string | null = null;
  private readonly changed = this.register(new vscode.EventEmitter<void>());
  /** Fires after any change of plan, report, entries or time travel. */
  readonly onDidChange = this.changed.event;

  constructor(
    readonly folder: vscode.WorkspaceFolder,
    private readonly worker: LedgerWorkerClient,
    private readonly memento: vscode.Memento,
    private readonly log: OutputLog,
  ) {
    super();
  }

  /** The folder that contains `.autodev/`. */
  get cwd(): string {
    return this.folder.uri.fsPath;
  }
  /** The plan to show: the time-travel plan when active, else the live one. */
  get plan(): Plan | null {
    return this.travel ? this.travel.plan : this.livePlan;
  }
  /** The live plan, whatever the time travel. */
  get live(): Plan | null {
    return this.livePlan;
  }
  /** Latest integrity report (null before the first verification finished). */
  get report(): VerifyReport | null {
    return this.lastReport;
  }
  get entries(): number {
    return this.entryCount;
  }
  get timeTravel(): TimeTravel | null {
    return this.travel;
  }
  /** A history rewrite detected against the remembered head. */
  get rewriteFinding(): RewriteFinding | null {
    return this.rewrite;
  }
  /** The last error reading the ledger (I/O, worker), if any. */
  get error(): string | null {
    return this.lastError;
  }
  /** Why this folder's state is not read at all, or null. */
  get readRefusal(): string | null {
    return this.refusal;
  }

  /** Refuses (or allows again) reading this folder's state; clears what was shown. */
  setReadRefusal(reason: string | null): void {
    if (reason === this.refusal) return;
    this.refusal = reason;
    if (reason) {
      this.livePlan = null;
      this.lastReport = null;
      this.travel = null;
      this.lastError = reason;
    } else this.lastError = null;
    this.changed.fire();
  }

  /** True when `.autodev/` exists in this folder. */
  get exists(): boolean {
    return fs.existsSync(autodevRoot(this.cwd));
  }
  /** Path of the ledger file. */
  get ledgerFile(): string {
    return ledgerPath(this.cwd);
  }

  /** Fast first paint for big ledgers: the tail snapshot, before the full verification. */
  async loadTail(): Promise<void> {
    if (this.refusal) return;
    try {
      const t0 = Date.now();
      const { plan, seq } = await this.worker.request({ type: "tailPlan", cwd: this.cwd });
      if (this.lastReport === null) {
        this.livePlan = revivePlanClone(plan);
        this.log.info(`${this.folder.name}: plan from the tail snapshot (seq ${seq ?? "—"}) in ${Date.now() - t0} ms`);
        this.changed.fire();
      }
    } catch (e) {
      this.log.error(`${this.folder.name}: reading the tail snapshot failed`, e);
    }
  }

  /** Verifies what changed (only new bytes when the prefix is intact); coalesces concurrent calls. */
  async refresh(): Promise<RefreshResult | null> {
    if (this.refusal) return null;
    if (this.refreshing) {
      this.again = true;
      return this.refreshing;
    }
    this.refreshing = this.doRefresh();
    try {
      return await this.refreshing;
    } finally {
      this.refreshing = null;
      if (this.again) {
        this.again = false;
        void this.refresh();
      }
    }
  }

  private async doRefresh(): Promise<RefreshResult | null> {
    try {
      // The first refresh of a window may resume from what the last one verified (only new bytes are read).
      const record = this.resumeTried ? undefined : this.memento.get<unknown>(this.recordKey());
      this.resumeTried = true;
      const r = await this.worker.request({ type: "refresh", cwd: this.cwd, record });
      if (r.update.mode === "none" && this.lastReport) return r;
      await this.apply(r);
      if (r.update.mode === "resumed") this.scheduleBackgroundVerify();
      return r;
    } catch (e) {
      this.lastError = e instanceof Error ? e.message : String(e);
      this.log.error(`${this.folder.name}: refresh failed`, e);
      this.changed.fire();
      return null;
    }
  }

  /** After a resumed start, re-verifies the whole ledger once the window has been idle a while. */
  private scheduleBackgroundVerify(): void {
    if (this.backgroundVerify) return;
    this.backgroundVerify = setTimeout(() => {
      void (async () => {
        try {
          const r = await this.worker.request({ type: "verify", cwd: this.cwd });
          await this.apply(r);
          this.log.info(`${this.folder.name}: background re-verification of the whole ledger done`);
        } catch (e) {
          this.log.error(`${this.folder.name}: background re-verification failed`, e);
        }
      })();
    }, BACKGROUND_VERIFY_DELAY_MS);
    this.register({ dispose: () => clearTimeout(this.backgroundVerify) });
  }

  private recordKey(): string {
    return `autodev.verified:${this.cwd}`;
  }

  /** Takes a refresh or verification result from the worker as the current state. */
  async apply(r: RefreshResult): Promise<void> {
    {
      if (r.record !== undefined) await this.memento.update(this.recordKey(), r.record ?? undefined);
      if (r.rewritten) {
        this.log.warn(`${this.folder.name}: ${r.update.reason}`);
        // The reason comes from src/core (English, as the CLI prints it).
        const message = r.update.reason
          ? vscode.l10n.t("AutoDev: {0}. It was verified again in full.", r.update.reason)
          : vscode.l10n.t("AutoDev: the ledger's verified history changed. It was verified again in full.");
        void vscode.window.showWarningMessage(message);
      }
      this.lastError = null;
      this.livePlan = revivePlanClone(r.plan);
      this.lastReport = r.report;
      this.entryCount = r.entries;
      this.log.info(
        `${this.folder.name}: ${r.update.mode} scan, +${r.update.added} entries, ${r.update.bytesRead} bytes in ${Math.round(r.ms)} ms; ` +
          (r.report.ok ? `ledger ok (${r.entries} entries)` : `ledger broken: ${r.report.errors[0]?.message}`) +
          (r.update.reason ? ` (full rescan: ${r.update.reason})` : ""),
      );
      await this.checkRewrite(r.head);
      this.changed.fire();
    }
  }

  private key(): string {
    return `autodev.head:${this.cwd}`;
  }

  private async checkRewrite(head: RememberedHead | null): Promise<void> {
    const remembered = this.memento.get<RememberedHead>(this.key());
    if (remembered) {
      const finding = await this.compareRemembered(remembered);
      if (finding) {
        this.rewrite = finding;
        this.log.warn(`${this.folder.name}: ${finding.message}`);
        const show = vscode.l10n.t("Show Ledger");
        const accept = vscode.l10n.t("Accept Current History");
        void vscode.window
          .showWarningMessage(vscode.l10n.t("AutoDev: {0}", finding.message), show, accept)
          .then(async (pick) => {
            if (pick === accept) await this.acceptHistory();
            if (pick === show) await vscode.window.showTextDocument(vscode.Uri.file(this.ledgerFile));
          });
        return;
      }
    }
    if (head && !this.rewrite) await this.memento.update(this.key(), head);
  }

  private async compareRemembered(h: RememberedHead): Promise<RewriteFinding | null> {
    if (this.entryCount < h.seq) {
      return {
        kind: "rollback",
        message: vscode.l10n.t(
          "the ledger was rolled back: seq {0} ({1}) was verified earlier, but now it has only {2} entries. History was rewritten.",
          h.seq,
          h.selfHash,
          this.entryCount,
        ),
      };
    }
    const page = await this.worker.request({ type: "entries", cwd: this.cwd, offset: h.seq - 1, limit: 1 });
    const e = page.items[0];
    if (e && e.seq === h.seq && e.selfHash !== h.selfHash) {
      return {
        kind: "fork",
        message: vscode.l10n.t(
          "the ledger's history was rewritten: seq {0} had hash {1} when verified earlier, and now has {2} (line {3}).",
          h.seq,
          h.selfHash,
          e.selfHash,
          e.line,
        ),
      };
    }
    return null;
  }

  /** Forgets the rewrite warning and remembers the current head instead. */
  async acceptHistory(): Promise<void> {
    this.rewrite = null;
    await this.memento.update(this.key(), undefined);
    // One refresh: its result carries the head to remember (apply() may skip an unchanged ledger).
    const r = await this.refresh();
    if (r?.head) await this.memento.update(this.key(), r.head);
    this.changed.fire();
  }

  /** Shows the plan as of entry `seq` (null = back to live). */
  async travelTo(seq: number | null): Promise<void> {
    if (seq === null) this.travel = null;
    else {
      const { plan } = await this.worker.request({ type: "planAt", cwd: this.cwd, seq });
      this.travel = { seq, plan: revivePlanClone(plan) };
    }
    this.changed.fire();
  }
}
