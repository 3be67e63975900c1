/**
 * History-rewrite warnings across sessions: the head of a clean ledger (seq and self_hash) is
 * remembered in the workspace state; when a later read finds fewer entries (a rollback) or another
 * hash at that seq (a fork), the user is told, and may accept the current history.
 */
import * as vscode from "vscode";
import type { RememberedHead, RewriteFinding } from "../../../core/sources/autodev/ledger/ledgerSession";
import type { RefreshResult } from "../../../core/sources/autodev/worker/autodevRequests";
import type { OutputLog } from "../../outputLog";
import type { StateWorkerClient } from "../../stateWorkerClient";
import { autodevRequest } from "./autodevRequest";

/** The remembered head of one folder's ledger. */
export class RememberedHeads {
  constructor(
    private readonly cwd: string,
    private readonly worker: StateWorkerClient,
    private readonly memento: vscode.Memento,
  ) {}

  private get key(): string {
    return `autodev.head:${this.cwd}`;
  }

  /** The finding against the remembered head, or null; remembers `head` when there is none. */
  async check(
    head: RememberedHead | null,
    entries: number,
    known: RewriteFinding | null,
  ): Promise<RewriteFinding | null> {
    const remembered = this.memento.get<RememberedHead>(this.key);
    if (remembered) {
      const finding = await this.compare(remembered, entries);
      if (finding) return finding;
    }
    if (head && !known) await this.memento.update(this.key, head);
    return null;
  }

  /** Forgets the remembered head (the user accepted the current history). */
  async forget(): Promise<void> {
    await this.memento.update(this.key, undefined);
  }

  /** Remembers `head` as the verified one. */
  async remember(head: RememberedHead): Promise<void> {
    await this.memento.update(this.key, head);
  }

  private async compare(h: RememberedHead, entries: number): Promise<RewriteFinding | null> {
    if (entries < h.seq) {
      return {
        kind: "rollback",
        message: vscode.l10n.t(
          "the ledger was rolled back: seq {0} ({1}) was verified earlier, but now it has only {2} entries. History was rewritten.",
          h.seq,
          h.selfHash,
          entries,
        ),
      };
    }
    const page = await autodevRequest(this.worker, this.cwd, { type: "entries", offset: h.seq - 1, limit: 1 });
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
}

/** Logs what a refresh read; warns when a stored record no longer held (verified bytes changed). */
export function reportRefresh(name: string, r: RefreshResult, log: OutputLog): void {
  if (r.rewritten) {
    log.warn(`${name}: ${r.update.reason}`);
    // The reason comes from src/core (English, as the CLI prints it).
    const message = r.update.reason
      ? vscode.l10n.t("AutoDev: {0}. It was verified again in full.", r.update.reason)
      : vscode.l10n.t("AutoDev: the ledger's verified history changed. It was verified again in full.");
    void vscode.window.showWarningMessage(message);
  }
  log.info(
    `${name}: ${r.update.mode} scan, +${r.update.added} entries, ${r.update.bytesRead} bytes in ${Math.round(r.ms)} ms; ` +
      (r.report.ok ? `ledger ok (${r.entries} entries)` : `ledger broken: ${r.report.errors[0]?.message}`) +
      (r.update.reason ? ` (full rescan: ${r.update.reason})` : ""),
  );
}

/** Tells the user about a rewritten history, offering to show the ledger or accept the history. */
export function showRewrite(
  name: string,
  finding: RewriteFinding,
  log: OutputLog,
  then: { readonly accept: () => Promise<void>; readonly ledger: vscode.Uri },
): void {
  log.warn(`${name}: ${finding.message}`);
  const show = vscode.l10n.t("Show Ledger");
  const accept = vscode.l10n.t("Accept Current History");
  void vscode.window
    .showWarningMessage(vscode.l10n.t("AutoDev: {0}", finding.message), show, accept)
    .then(async (pick) => {
      if (pick === accept) await then.accept();
      if (pick === show) await vscode.window.showTextDocument(then.ledger);
    });
}
