/**
 * One workspace folder's `.autodev/` as the AutoDev adapter keeps it: the live plan, the integrity
 * report, the entry count, an optional time-travel view, history-rewrite warnings against the head
 * remembered from earlier sessions, the history warnings and the run view — and, from these, what
 * the generic hosts show (problems, timeline, whom the run waits on). All reading happens in the
 * state worker through AutoDev's own requests.
 */
import { waitActions } from "../wait/waitActions";
import * as vscode from "vscode";
import { LEDGER_REL, ledgerPath } from "../../../../core/sources/autodev/autodevPaths";
import type { RememberedHead } from "../../../../core/sources/autodev/ledger/ledgerSession";
import type { VerifyReport } from "../../../../core/sources/autodev/ledger/verifyTypes";
import { revivePlanClone } from "../../../../core/sources/autodev/plan/planTransfer";
import type { Plan } from "../../../../core/sources/autodev/plan/schemas";
import type { AutodevRunView } from "../../../../core/sources/autodev/run/runView";
import type { RefreshResult } from "../../../../core/sources/autodev/worker/autodevRequests";
import type { AutodevContractResult } from "../../../../core/sources/autodev/contract/autodevContract";
import type { SourceSettings, SourceTreeNode } from "../../../../core/sources/stateSource";
import type { DetectedSource } from "../../../../core/worker/workerProtocol";
import type { IntegritySummary } from "../../../../protocolTimeline";
import type { SettingsReader } from "../../../settings";
import type { FolderProblem, FolderTimeline, WaitingOn } from "../../sourceAdapter";
import { folderProblems } from "../autodevProblems";
import type { AutodevProblem } from "../../../../core/sources/autodev/autodevSnapshot";
import { autodevRequest } from "../autodevRequest";
import { AutodevFolderBase, FolderServices } from "./autodevFolderBase";
import { linkRefusal } from "./linkRefusal";
import type { TaskChange } from "../../../../core/sources/autodev/worker/autodevRequests";
import { ConfirmAsk, modalAsk } from "../../../confirm";
import {
  HISTORY_REWRITTEN,
  HistoryRewrite,
  RememberedHeads,
  acceptQuestion,
  reportRefresh,
  showRewrite,
} from "./rememberedHead";

/** A plan shown as of an earlier entry. */
export interface TimeTravel {
  readonly seq: number;
  readonly plan: Plan | null;
  /** The core tree of that plan (the worker's `planAt`). */
  readonly tree: readonly SourceTreeNode[];
}

/** Integrity at a glance, from a report (null before the first). */
function integrityOf(r: VerifyReport | null): IntegritySummary | null {
  const first = r?.errors[0];
  return r ? { ok: r.ok, brokenLine: first ? first.atLine : null, message: first ? first.message : null } : null;
}

/** How long after a resumed start the whole ledger is re-verified in the background. */
const BACKGROUND_VERIFY_DELAY_MS = 20_000;

/** One folder's AutoDev state. */
export class AutodevFolder extends AutodevFolderBase {
  private livePlan: Plan | null = null;
  private liveTree: readonly SourceTreeNode[] | null = null;
  private lastReport: VerifyReport | null = null;
  private entryCount = 0;
  private travel: TimeTravel | null = null;
  private rewrite: HistoryRewrite | null = null;
  private head: RememberedHead | null = null;
  private pinLost: HistoryRewrite | null = null;
  private readonly pins: RememberedHeads;
  /** The problems of the last refresh (the worker's composition, as `check`'s), null before the first. */
  private shown: readonly AutodevProblem[] | null = null;
  private contractNow: AutodevContractResult | null = null;
  private changesByTask = new Map<string, TaskChange>();
  private ledgerThere = true;
  private runView: AutodevRunView | null = null;
  private refreshing: Promise<RefreshResult | null> | null = null;
  private again = false;
  private resumeTried = false;
  private backgroundVerify: ReturnType<typeof setTimeout> | undefined;
  /** A live refresh held back because the ledger's last line may still be being written (tailHold.ts). */
  private tailHeld = false;
  private tailRecheck: ReturnType<typeof setTimeout> | undefined;
  private lastError: string | null = null;
  /** Set when the folder must not be read (a link out of the workspace in an untrusted workspace). */
  private refusal: string | null = null;
  private readonly heads: RememberedHeads;

  constructor(
    folder: vscode.WorkspaceFolder,
    detected: DetectedSource,
    settings: SourceSettings,
    services: FolderServices,
    private readonly settingsReader: SettingsReader,
  ) {
    super(folder, detected, settings, services);
    this.heads = new RememberedHeads(this.cwd, services.worker, services.memento);
    this.pins = new RememberedHeads(this.cwd, services.worker, services.memento, "autodev.pinnedHead");
    this.register({ dispose: () => clearTimeout(this.backgroundVerify) });
    this.register({ dispose: () => clearTimeout(this.tailRecheck) });
  }

  /** The phase contract of the current step (null before it was read, or on a broken ledger). */
  get contract(): AutodevContractResult | null {
    return this.lastReport?.ok ? this.contractNow : null;
  }

  /** Starts reading: the refusal check, the tail snapshot for a fast first paint, then verification. */
  start(): void {
    void linkRefusal(this.services.worker, this.cwd).then((refusal) => {
      this.setReadRefusal(refusal);
      if (!this.refusal) void this.loadTail().then(() => this.refreshLedger());
    });
  }

  /** The plan to show: the time-travel plan when active, else the live one. */
  get plan(): Plan | null {
    return this.travel ? this.travel.plan : this.livePlan;
  }
  /**
   * The core tree to show (the worker's, tree/stateTree.ts): as of the time-travel entry when
   * travelling, else of the last refresh (the tail snapshot's plan before the first); null before any.
   */
  get tree(): readonly SourceTreeNode[] | null {
    return this.travel ? this.travel.tree : this.liveTree;
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
  /** The head the user pinned (Pin Verified Head), if any. */
  get pinnedHead(): RememberedHead | undefined {
    return this.pins.remembered;
  }

  /** The ledger no longer extends the pinned head (truncated or rewritten), or null. */
  get pinnedHeadLost(): HistoryRewrite | null {
    return this.pinLost;
  }

  /** Pins the head verified last (null when there is none); the ledger must extend it from now on. */
  async pinHead(): Promise<RememberedHead | null> {
    const head = this.lastReport?.ok ? this.lastReport.head : null;
    if (!head) return null;
    const pinned: RememberedHead = { seq: Number(head.seq), selfHash: head.selfHash, length: head.endOffset };
    await this.pins.remember(pinned);
    this.pinLost = null;
    this.fireLedger();
    return pinned;
  }

  /** Forgets the pinned head. */
  async unpinHead(): Promise<void> {
    await this.pins.forget();
    this.pinLost = null;
    this.fireLedger();
  }

  /** A history rewrite detected against the remembered head (null again once the ledger holds it). */
  get rewriteFinding(): HistoryRewrite | null {
    return this.rewrite;
  }
  /** The last error reading the ledger (I/O, worker), if any. */
  get error(): string | null {
    return this.lastError;
  }
  /** The run view (running, waiting, tournaments, knowledge, config, spec), null until first read. */
  get run(): AutodevRunView | null {
    return this.runView;
  }
  /** Path of the ledger file. */
  get ledgerFile(): string {
    return ledgerPath(this.cwd);
  }

  override get problems(): readonly FolderProblem[] | null {
    if (!this.shown) return null;
    const problems = folderProblems(this.shown, this.pinLost?.message ?? null);
    const rw = this.rewrite;
    if (rw) {
      problems.unshift({
        file: LEDGER_REL,
        line: rw.line,
        severity: "warning",
        code: HISTORY_REWRITTEN,
        message: rw.message,
        origin: "AutoDev ledger",
      });
    }
    return problems;
  }

  /** False in the plan phase: AutoDev has written `.autodev/` but no ledger yet. */
  get hasLedger(): boolean {
    return this.ledgerThere;
  }

  override get waiting(): WaitingOn | null {
    const w = this.runView?.waitingOn ?? null;
    return w ? { ...w, actions: waitActions(this.folder) } : null;
  }

  override get timeline(): FolderTimeline {
    return {
      label: () => this.folder.name,
      rows: this.entryCount,
      integrity: integrityOf(this.lastReport),
      travelRowId: this.travel?.seq ?? null,
      travel: (seq) => this.travelTo(seq),
      revealTask: (taskId, focus) => this.services.revealTask(this, taskId, focus),
      taskNote: (taskId) => this.services.taskNote?.(this, taskId) ?? Promise.resolve(null),
    };
  }

  override redetected(detected: DetectedSource, settings: SourceSettings): void {
    super.redetected(detected, settings);
    void linkRefusal(this.services.worker, this.cwd).then((refusal) => {
      if (refusal === this.refusal) return;
      this.setReadRefusal(refusal);
      if (!refusal) void this.loadTail().then(() => this.refreshLedger());
    });
  }

  /**
   * Any file under `.autodev/` changed: one refresh (or, per `autodev.verifyOnChange`, the tail
   * snapshot). The refresh's answer holds everything read again — the ledger's new bytes, the run
   * state, the contract, plan.json drift, the problems — so any change (a delegation, an edited
   * plan.json) shows in the same tick.
   */
  override filesChanged(uris: readonly vscode.Uri[]): void {
    if (this.settingsReader.verifyOnChange(this.folder)) void this.refreshLedger();
    else void this.loadTail();
    this.filesEmitter.fire(uris);
  }

  override async refresh(): Promise<void> {
    await this.refreshLedger();
  }

  /** A lock probe found the run started or stopped: read everything again. */
  runningChanged(): void {
    void this.refreshLedger();
  }

  /** Refuses (or allows again) reading this folder's state; clears what was shown. */
  setReadRefusal(reason: string | null): void {
    if (reason === this.refusal) return;
    this.refusal = reason;
    if (reason) {
      this.services.log.warn(`${this.folder.name}: ${reason}`);
      this.livePlan = null;
      this.liveTree = null;
      this.lastReport = null;
      this.shown = null;
      this.travel = null;
      this.lastError = reason;
    } else this.lastError = null;
    this.fireLedger();
  }

  /** Fast first paint for big ledgers: the tail snapshot, before the full verification. */
  async loadTail(): Promise<void> {
    if (this.refusal) return;
    try {
      const t0 = Date.now();
      const { plan, seq, tree } = await autodevRequest(this.services.worker, this.cwd, { type: "tailPlan" });
      if (this.lastReport === null) {
        this.livePlan = revivePlanClone(plan);
        this.liveTree = plan ? tree : this.liveTree;
        this.services.log.info(
          `${this.folder.name}: plan from the tail snapshot (seq ${seq ?? "—"}) in ${Date.now() - t0} ms`,
        );
        this.fireLedger();
      }
    } catch (e) {
      this.services.log.error(`${this.folder.name}: reading the tail snapshot failed`, e);
    }
  }

  /** Verifies what changed (only new bytes when the prefix is intact); coalesces concurrent calls. */
  async refreshLedger(): Promise<RefreshResult | null> {
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
        void this.refreshLedger();
      }
    }
  }

  private async doRefresh(): Promise<RefreshResult | null> {
    try {
      // The first refresh of a window may resume from what the last one verified (only new bytes are read).
      const record = this.resumeTried ? undefined : this.services.memento.get<unknown>(this.recordKey());
      this.resumeTried = true;
      const r = await autodevRequest(this.services.worker, this.cwd, {
        type: "refresh",
        record,
        historyWarnings: this.settingsReader.historyWarnings(this.folder),
      });
      if (r.unreadable !== undefined) {
        this.takeUnreadable(r);
        return r;
      }
      // A last line without its newline, written just now, may be an append in progress (tailHold.ts).
      const hold = r.holdMs;
      if (hold !== null) {
        this.tailHeld = true;
        clearTimeout(this.tailRecheck);
        this.tailRecheck = setTimeout(() => void this.refreshLedger(), hold + 20);
        return r;
      }
      if (r.update.mode === "none" && this.lastReport && !this.tailHeld) {
        // The ledger did not change, but what the refresh read besides it (run state, contract, drift) may have.
        this.takeRest(r);
        this.changed.fire();
        return r;
      }
      this.tailHeld = false;
      await this.apply(r);
      if (r.update.mode === "resumed") this.scheduleBackgroundVerify();
      return r;
    } catch (e) {
      this.lastError = e instanceof Error ? e.message : String(e);
      this.services.log.error(`${this.folder.name}: refresh failed`, e);
      this.fireLedger();
      return null;
    }
  }

  /** After a resumed start, re-verifies the whole ledger once the window has been idle a while. */
  private scheduleBackgroundVerify(): void {
    if (this.backgroundVerify) return;
    this.backgroundVerify = setTimeout(() => {
      void (async () => {
        try {
          await this.apply(
            await autodevRequest(this.services.worker, this.cwd, {
              type: "verify",
              historyWarnings: this.settingsReader.historyWarnings(this.folder),
            }),
          );
          this.services.log.info(`${this.folder.name}: background re-verification of the whole ledger done`);
        } catch (e) {
          this.services.log.error(`${this.folder.name}: background re-verification failed`, e);
        }
      })();
    }, BACKGROUND_VERIFY_DELAY_MS);
  }

  private recordKey(): string {
    return `autodev.verified:${this.cwd}`;
  }

  /**
   * Takes a refresh or verification result from the worker as the current state. The tree and
   * Problems hear of it at once (with the phase contract the refresh brought along); the stored
   * record and head, and the checks against remembered and pinned heads, follow (each is a round
   * trip to the workspace storage or the worker), and fire again only when they found something
   * new.
   */
  async apply(r: RefreshResult): Promise<void> {
    reportRefresh(this.folder.name, r, this.services.log);
    this.lastError = null;
    this.livePlan = revivePlanClone(r.plan);
    this.lastReport = r.report;
    this.entryCount = r.entries;
    this.head = r.head;
    this.takeRest(r);
    this.fireLedger();
    if (r.record !== undefined) await this.services.memento.update(this.recordKey(), r.record ?? undefined);
    const pinLost = await this.pins.against(this.entryCount);
    const finding = await this.heads.check(r.head, this.entryCount);
    const news = finding !== null && finding.message !== this.rewrite?.message;
    const changed = finding?.message !== this.rewrite?.message || pinLost?.message !== this.pinLost?.message;
    this.pinLost = pinLost;
    this.rewrite = finding;
    if (finding && news) {
      showRewrite(this.folder.name, finding, this.services.log, {
        accept: () => vscode.commands.executeCommand("autodev.acceptHistory", this.folder.uri.toString()),
        ledger: vscode.Uri.file(this.ledgerFile),
      });
    }
    if (changed) this.fireLedger();
  }

  /** Takes what a refresh read besides the ledger: problems, contract, run view, last changes. */
  private takeRest(r: RefreshResult): void {
    this.lastError = null;
    this.shown = r.problems;
    this.liveTree = r.tree;
    this.contractNow = r.contract[0] ?? null;
    this.runView = r.run;
    this.ledgerThere = r.hasLedger;
    this.changesByTask = new Map(r.lastChanges);
  }

  /** The ledger cannot be read: nothing of it is shown, Problems says why. */
  private takeUnreadable(r: RefreshResult): void {
    const had = this.lastReport !== null || this.livePlan !== null;
    this.livePlan = null;
    this.lastReport = null;
    this.entryCount = 0;
    this.travel = null;
    this.takeRest(r);
    this.lastError = r.unreadable ?? null;
    if (had) this.services.log.warn(`${this.folder.name}: ${this.lastError}`);
    this.fireLedger();
  }

  /** The last status change of `taskId` in the live ledger (the task hover), if any. */
  lastChange(taskId: string): TaskChange | undefined {
    return this.changesByTask.get(taskId);
  }

  /**
   * Accept Rewritten Ledger History: asks first (what was verified, what the ledger holds now), then
   * forgets the remembered head and remembers the current one. False when nothing was accepted.
   */
  async acceptHistory(ask: ConfirmAsk = modalAsk): Promise<boolean> {
    const rw = this.rewrite;
    if (!rw) {
      void vscode.window.showInformationMessage(
        vscode.l10n.t("AutoDev: the ledger history of {0} was not rewritten; nothing to accept.", this.folder.name),
      );
      return false;
    }
    const q = acceptQuestion(this.folder.name, rw, this.head);
    if (!(await ask(q.message, q.detail, q.button))) return false;
    if (this.rewrite?.message !== rw.message) return false; // the ledger changed while the dialog was open
    this.rewrite = null;
    await this.heads.forget();
    // One refresh: its result carries the head to remember (apply() may skip an unchanged ledger).
    const r = await this.refreshLedger();
    if (r?.head) await this.heads.remember(r.head);
    this.services.log.info(`${this.folder.name}: accepted the rewritten ledger history (was seq ${rw.remembered.seq})`);
    this.fireLedger();
    return true;
  }

  /** Shows the plan as of entry `seq` (null = back to live). */
  async travelTo(seq: number | null): Promise<void> {
    if (seq === null) this.travel = null;
    else {
      const { plan, tree } = await autodevRequest(this.services.worker, this.cwd, { type: "planAt", seq });
      this.travel = { seq, plan: revivePlanClone(plan), tree };
    }
    this.fireLedger();
  }
}
