/**
 * History-rewrite warnings across sessions: the head of a clean ledger (seq and self_hash) is
 * remembered in the workspace state; when a later read finds fewer entries (a rollback) or another
 * hash at that seq (a fork), the user is told, and may accept the current history.
 */
import * as vscode from "vscode";
import type { RememberedHead, RewriteFinding } from "../../../../core/sources/autodev/ledger/ledgerSession";
import type { RefreshResult } from "../../../../core/sources/autodev/worker/autodevRequests";
import type { OutputLog } from "../../../outputLog";
import type { StateWorkerClient } from "../../../stateWorkerClient";
import { autodevRequest } from "../autodevRequest";

/**
 * A history rewrite as the editor shows it: one state for the status bar, the tree's root and
 * Problems (a warning at the ledger line where the history now differs or ends).
 */
export interface HistoryRewrite extends RewriteFinding {
  /** The head verified earlier that the ledger no longer has. */
  readonly remembered: RememberedHead;
  /** 1-based ledger line of the entry that differs (fork) or of the last entry (rollback); null when empty. */
  readonly line: number | null;
}

/** The Problems code of a history rewrite. */
export const HISTORY_REWRITTEN = "history_rewritten";

/** The remembered head of one folder's ledger. */
export class RememberedHeads {
  constructor(
    private readonly cwd: string,
    private readonly worker: StateWorkerClient,
    private readonly memento: vscode.Memento,
    /** The workspace-state key's prefix: the remembered head, or (`autodev.pinnedHead`) the one the user pinned. */
    private readonly prefix = "autodev.head",
  ) {}

  private get key(): string {
    return `${this.prefix}:${this.cwd}`;
  }

  /** The head remembered as verified, if any. */
  get remembered(): RememberedHead | undefined {
    return this.memento.get<RememberedHead>(this.key);
  }

  /** The finding against the stored head (null when none is stored or the ledger still extends it); stores nothing. */
  async against(entries: number): Promise<HistoryRewrite | null> {
    const stored = this.remembered;
    return stored ? this.compare(stored, entries) : null;
  }

  /**
   * The rewrite against the remembered head, or null when the ledger still holds it (restoring the
   * known history clears the finding); remembers `head` when nothing was rewritten.
   */
  async check(head: RememberedHead | null, entries: number): Promise<HistoryRewrite | null> {
    const remembered = this.remembered;
    if (remembered) {
      const finding = await this.compare(remembered, entries);
      if (finding) return finding;
    }
    if (head) await this.memento.update(this.key, head);
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

  private async compare(h: RememberedHead, entries: number): Promise<HistoryRewrite | null> {
    if (entries < h.seq) {
      const last = entries > 0 ? await this.entryAt(entries) : undefined;
      return {
        kind: "rollback",
        remembered: h,
        line: last?.line ?? null,
        message: vscode.l10n.t(
          "History rewritten: seq {0} ({1}) was verified earlier, but the ledger now ends at seq {2}. If it was rolled back on purpose, run “Accept Rewritten Ledger History”.",
          h.seq,
          h.selfHash,
          last?.seq ?? 0,
        ),
      };
    }
    const e = await this.entryAt(h.seq);
    if (e && e.seq === h.seq && e.selfHash !== h.selfHash) {
      return {
        kind: "fork",
        remembered: h,
        line: e.line,
        message: vscode.l10n.t(
          "History rewritten: seq {0} had hash {1} when verified earlier, and now has {2}. If it was rewritten on purpose, run “Accept Rewritten Ledger History”.",
          h.seq,
          h.selfHash,
          e.selfHash,
        ),
      };
    }
    return null;
  }

  /** The `n`th entry (1-based) of the ledger. */
  private async entryAt(n: number) {
    const page = await autodevRequest(this.worker, this.cwd, { type: "entries", offset: n - 1, limit: 1 });
    return page.items[0];
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
  then: { readonly accept: () => Thenable<unknown>; readonly ledger: vscode.Uri },
): void {
  log.warn(`${name}: ${finding.message}`);
  const show = vscode.l10n.t("Show Ledger");
  const accept = vscode.l10n.t("Accept Current History…");
  void vscode.window
    .showWarningMessage(vscode.l10n.t("AutoDev: {0}", finding.message), show, accept)
    .then(async (pick) => {
      if (pick === accept) await then.accept();
      if (pick === show) await vscode.window.showTextDocument(then.ledger);
    });
}

/** What accepting a rewritten history means, in the words of the confirmation dialog. */
export function acceptQuestion(
  folder: string,
  rewrite: HistoryRewrite,
  current: RememberedHead | null,
): { message: string; detail: string; button: string } {
  const was = rewrite.remembered;
  return {
    message: vscode.l10n.t("Accept the rewritten ledger history of {0}?", folder),
    detail:
      (current
        ? vscode.l10n.t(
            "AutoDev State verified seq {0} ({1}) earlier. The ledger now ends at seq {2} ({3}). Accepting forgets seq {0} and remembers seq {2} as the verified head; the warning goes away.",
            was.seq,
            was.selfHash,
            current.seq,
            current.selfHash,
          )
        : vscode.l10n.t(
            "AutoDev State verified seq {0} ({1}) earlier. The ledger now has no verified head. Accepting forgets seq {0}; the warning goes away.",
            was.seq,
            was.selfHash,
          )) +
      " " +
      vscode.l10n.t(
        "Nothing in .autodev/ is changed. Accept only if you know why the history changed (a rollback or restore you made).",
      ),
    button: vscode.l10n.t("Accept History"),
  };
}
