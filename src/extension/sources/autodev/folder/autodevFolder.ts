/**
 * One workspace folder's `.autodev/` as the AutoDev adapter keeps it: the live plan, the integrity
 * report, the entry count, an optional time-travel view, the history warnings and the run view —
 * and, from these, what the generic hosts show (problems, timeline, whom the run waits on). The
 * heads it holds the ledger against are ledgerHeads.ts, how it reads again ledgerRefresh.ts; all
 * reading happens in the state worker through AutoDev's own requests.
 */
import { waitActions } from "../wait/waitActions";
import * as vscode from "vscode";
import { ledgerPath } from "../../../../core/sources/autodev/autodevPaths";
import type { RememberedHead } from "../../../../core/sources/autodev/ledger/ledgerSession";
import type { VerifyReport } from "../../../../core/sources/autodev/ledger/verifyTypes";
import { revivePlanClone } from "../../../../core/sources/autodev/plan/planTransfer";
import type { Plan } from "../../../../core/sources/autodev/plan/schemas";
import type { AutodevRunView } from "../../../../core/sources/autodev/run/runView";
import type { RefreshResult } from "../../../../core/sources/autodev/worker/autodevRequests";
import type { AutodevContractResult } from "../../../../core/sources/autodev/contract/autodevContract";
import type { FolderReviewMarks } from "../../../../core/sources/reviewMarkSchema";
import type { SourceSettings, SourceTreeNode } from "../../../../core/sources/stateSource";
import type { DetectedSource } from "../../../../core/worker/workerProtocol";
import type { IntegritySummary } from "../../../../protocolTimeline";
import type { SettingsReader } from "../../../settings/settings";
import type { FolderProblem, FolderTimeline, WaitingOn } from "../../sourceAdapter";
import { SourceFolderBase } from "../../sourceFolderBase";
import { folderProblems } from "../autodevProblems";
import type { AutodevProblem } from "../../../../core/sources/autodev/autodevSnapshot";
import { autodevRequest } from "../autodevRequest";
import type { FolderServices } from "./folderServices";
import { LedgerHeads } from "./ledgerHeads";
import { LedgerRefresh } from "./ledgerRefresh";
import { linkRefusal } from "./linkRefusal";
import type { TaskChange } from "../../../../core/sources/autodev/worker/autodevRequests";
import { ConfirmAsk, modalAsk } from "../../../confirm";
import { HistoryRewrite, reportRefresh } from "./rememberedHead";

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

/** One folder's AutoDev state. */
export class AutodevFolder extends SourceFolderBase {
  /** Python AutoDev writes by atomic replace; a ledger line without its newline is held back (tailHold.ts). */
  readonly readsAtOnce = true;
  private readonly ledgerEmitter = this.register(new vscode.EventEmitter<void>());
  /** Fires after the plan, the report, the entries or the time travel changed. */
  readonly onDidChangeLedger = this.ledgerEmitter.event;
  private readonly filesEmitter = this.register(new vscode.EventEmitter<readonly vscode.Uri[]>());
  /** Fires with the files of `.autodev/` that changed (debounced by the folder registry). */
  readonly onDidChangeFiles = this.filesEmitter.event;
  private progressText: string | null = null;
  private livePlan: Plan | null = null;
  private liveTree: readonly SourceTreeNode[] | null = null;
  private lastReport: VerifyReport | null = null;
  private entryCount = 0;
  private travel: TimeTravel | null = null;
  /** The problems of the last refresh (the worker's composition, as `check`'s), null before the first. */
  private shown: readonly AutodevProblem[] | null = null;
  private contractNow: AutodevContractResult | null = null;
  private changesByTask = new Map<string, TaskChange>();
  private ledgerThere = true;
  private runView: AutodevRunView | null = null;
  private lastError: string | null = null;
  /** Set when the folder must not be read (a link out of the workspace in an untrusted workspace). */
  private refusal: string | null = null;
  private readonly heads: LedgerHeads;
  private readonly refresher: LedgerRefresh;

  constructor(
    folder: vscode.WorkspaceFolder,
    detected: DetectedSource,
    settings: SourceSettings,
    private readonly services: FolderServices,
    private readonly settingsReader: SettingsReader,
  ) {
    super(folder, detected, settings);
    this.heads = new LedgerHeads(folder, this.cwd, services, ledgerPath(this.cwd));
    this.refresher = this.register(
      new LedgerRefresh(folder, this.cwd, services, settingsReader, {
        refused: () => !!this.refusal,
        verified: () => this.lastReport !== null,
        unreadable: (r) => this.takeUnreadable(r),
        unchanged: (r) => {
          // A read that found nothing new (a second event for one write) repaints nothing.
          if (this.takeRest(r)) this.changed.fire();
        },
        apply: (r) => this.apply(r),
        failed: (message) => {
          this.lastError = message;
          this.fireLedger();
        },
      }),
    );
  }

  /** The reviewed marks of this folder's diffs. */
  get reviewMarks(): FolderReviewMarks {
    return this.services.reviewMarks?.(this.folder.uri.toString()) ?? {};
  }
  /** Scan progress shown in the status bar ("verifying 42%"), or null. */
  get progress(): string | null {
    return this.progressText;
  }

  /** Shows scan progress in the status bar (null clears it). */
  setProgress(text: string | null): void {
    this.progressText = text;
    this.changed.fire();
  }

  /** Tells both the ledger's and the hosts' listeners. */
  private fireLedger(): void {
    if (this.isDisposed) return;
    this.ledgerEmitter.fire();
    this.changed.fire();
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
    return this.heads.pinned;
  }

  /** The ledger no longer extends the pinned head (truncated or rewritten), or null. */
  get pinnedHeadLost(): HistoryRewrite | null {
    return this.heads.pinnedLost;
  }

  /** Pins the head verified last (null when there is none); the ledger must extend it from now on. */
  async pinHead(): Promise<RememberedHead | null> {
    const pinned = await this.heads.pin(this.lastReport);
    if (pinned) this.fireLedger();
    return pinned;
  }

  /** Forgets the pinned head. */
  async unpinHead(): Promise<void> {
    await this.heads.unpin();
    this.fireLedger();
  }

  /** A history rewrite detected against the remembered head (null again once the ledger holds it). */
  get rewriteFinding(): HistoryRewrite | null {
    return this.heads.rewriteFinding;
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
    const problems = folderProblems(this.shown, this.heads.pinnedLost?.message ?? null);
    const rewrite = this.heads.rewriteProblem();
    if (rewrite) problems.unshift(rewrite);
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
  refreshLedger(): Promise<RefreshResult | null> {
    return this.refresher.refresh();
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
    this.heads.seen(r.head);
    this.takeRest(r);
    this.fireLedger();
    // The bookkeeping runs one at a time, the latest refresh's only (refreshes do not wait for it).
    if (r.record !== undefined) this.toKeep.record = { value: r.record ?? undefined };
    this.toKeep.head = { head: r.head, entries: this.entryCount };
    const step = this.kept.then(() => this.keep());
    this.kept = step.catch(() => undefined);
    await step;
  }

  /** What the refreshes applied since the last bookkeeping left to store and check. */
  private toKeep: {
    record?: { value: unknown };
    head?: { head: RefreshResult["head"]; entries: number };
  } = {};
  private kept: Promise<void> = Promise.resolve();

  /** Stores the last verification record and checks the remembered and pinned heads (once for many refreshes). */
  private async keep(): Promise<void> {
    const { record, head } = this.toKeep;
    this.toKeep = {};
    if (record) await this.services.memento.update(this.refresher.recordKey, record.value);
    if (head && (await this.heads.check(head.head, head.entries))) this.fireLedger();
  }

  /** What {@link takeRest} last took, as JSON: a read that brings the same is no change. */
  private restSeen = "";

  /** Takes what a refresh read besides the ledger (problems, contract, run view, last changes); true when it differs. */
  private takeRest(r: RefreshResult): boolean {
    const rest = JSON.stringify([r.problems, r.tree, r.contract, r.run, r.hasLedger, r.lastChanges]);
    const differs = rest !== this.restSeen || this.lastError !== null;
    this.restSeen = rest;
    this.lastError = null;
    this.shown = r.problems;
    this.liveTree = r.tree;
    this.contractNow = r.contract[0] ?? null;
    this.runView = r.run;
    this.ledgerThere = r.hasLedger;
    this.changesByTask = new Map(r.lastChanges);
    return differs;
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
    if (!(await this.heads.accept(() => this.refreshLedger(), ask))) return false;
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
