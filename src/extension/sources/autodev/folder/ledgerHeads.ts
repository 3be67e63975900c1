/**
 * The two heads an AutoDev folder holds its ledger against, and what they find: the head remembered
 * from earlier sessions (a history rewrite when the ledger no longer extends it: a warning in
 * Problems, a notification, and Accept Rewritten Ledger History) and the head the user pinned (Pin
 * Verified Head: "no longer extends the pinned head" when it is cut or rewritten).
 */
import * as vscode from "vscode";
import { LEDGER_REL } from "../../../../core/sources/autodev/autodevPaths";
import type { RememberedHead } from "../../../../core/sources/autodev/ledger/ledgerSession";
import type { VerifyReport } from "../../../../core/sources/autodev/ledger/verifyTypes";
import type { RefreshResult } from "../../../../core/sources/autodev/worker/autodevRequests";
import { ConfirmAsk, modalAsk } from "../../../confirm";
import type { FolderProblem } from "../../sourceAdapter";
import type { FolderServices } from "./folderServices";
import { HISTORY_REWRITTEN, HistoryRewrite, RememberedHeads, acceptQuestion, showRewrite } from "./rememberedHead";

/** One folder's remembered and pinned heads and their findings. */
export class LedgerHeads {
  private rewrite: HistoryRewrite | null = null;
  private head: RememberedHead | null = null;
  private pinLost: HistoryRewrite | null = null;
  private readonly heads: RememberedHeads;
  private readonly pins: RememberedHeads;

  constructor(
    private readonly folder: vscode.WorkspaceFolder,
    cwd: string,
    private readonly services: FolderServices,
    private readonly ledgerFile: string,
  ) {
    this.heads = new RememberedHeads(cwd, services.worker, services.memento);
    this.pins = new RememberedHeads(cwd, services.worker, services.memento, "autodev.pinnedHead");
  }

  /** The head the user pinned (Pin Verified Head), if any. */
  get pinned(): RememberedHead | undefined {
    return this.pins.remembered;
  }

  /** The ledger no longer extends the pinned head (truncated or rewritten), or null. */
  get pinnedLost(): HistoryRewrite | null {
    return this.pinLost;
  }

  /** A history rewrite detected against the remembered head (null again once the ledger holds it). */
  get rewriteFinding(): HistoryRewrite | null {
    return this.rewrite;
  }

  /** The head of the last refresh (the one Accept Rewritten Ledger History names). */
  seen(head: RememberedHead | null): void {
    this.head = head;
  }

  /** Pins the head `report` verified (null when there is none); the ledger must extend it from now on. */
  async pin(report: VerifyReport | null): Promise<RememberedHead | null> {
    const head = report?.ok ? report.head : null;
    if (!head) return null;
    const pinned: RememberedHead = { seq: Number(head.seq), selfHash: head.selfHash, length: head.endOffset };
    await this.pins.remember(pinned);
    this.pinLost = null;
    return pinned;
  }

  /** Forgets the pinned head. */
  async unpin(): Promise<void> {
    await this.pins.forget();
    this.pinLost = null;
  }

  /**
   * Checks the ledger of `entries` entries against the pinned and the remembered head (the latter
   * remembers `head` when nothing was rewritten); a new rewrite is shown. True when a finding changed.
   */
  async check(head: RememberedHead | null, entries: number): Promise<boolean> {
    const pinLost = await this.pins.against(entries);
    const finding = await this.heads.check(head, entries);
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
    return changed;
  }

  /** The Problems warning of a history rewrite, at the ledger line where it differs, or null. */
  rewriteProblem(): FolderProblem | null {
    const rw = this.rewrite;
    if (!rw) return null;
    return {
      file: LEDGER_REL,
      line: rw.line,
      severity: "warning",
      code: HISTORY_REWRITTEN,
      message: rw.message,
      origin: "AutoDev ledger",
    };
  }

  /**
   * Accept Rewritten Ledger History: asks first (what was verified, what the ledger holds now), then
   * forgets the remembered head and remembers the one `refresh` reads. False when nothing was accepted.
   */
  async accept(refresh: () => Promise<RefreshResult | null>, ask: ConfirmAsk = modalAsk): Promise<boolean> {
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
    const r = await refresh();
    if (r?.head) await this.heads.remember(r.head);
    this.services.log.info(`${this.folder.name}: accepted the rewritten ledger history (was seq ${rw.remembered.seq})`);
    return true;
  }
}
