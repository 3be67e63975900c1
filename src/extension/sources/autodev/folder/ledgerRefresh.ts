/**
 * How an AutoDev folder's ledger is read again: one refresh at a time (a call during one makes one
 * more run after it), the first of a window resuming from the verification record the last one
 * stored (only new bytes are read), a ledger whose last line may still be being written held back
 * until it settles (tailHold.ts), and after a resumed start one background verification of the whole
 * ledger. What a refresh answers goes to the folder ({@link RefreshTarget}).
 */
import type * as vscode from "vscode";
import type { RefreshResult } from "../../../../core/sources/autodev/worker/autodevRequests";
import type { SettingsReader } from "../../../settings/settings";
import { autodevRequest } from "../autodevRequest";
import type { FolderServices } from "./folderServices";
import { errorText } from "../../../../core/text/errorText";

/** How long after a resumed start the whole ledger is re-verified in the background. */
const BACKGROUND_VERIFY_DELAY_MS = 20_000;

/** Where a refresh's answer goes: the folder's state. */
export interface RefreshTarget {
  /** True while the folder must not be read (a refresh then reads nothing). */
  refused(): boolean;
  /** True once a verification report was taken (an unchanged ledger then needs only the rest). */
  verified(): boolean;
  /** The ledger cannot be read. */
  unreadable(r: RefreshResult): void;
  /** The ledger did not change: what the refresh read besides it. */
  unchanged(r: RefreshResult): void;
  /**
   * A new verification result: shown before it returns; the promise is the bookkeeping that
   * follows (stored record, remembered heads), which the next refresh does not wait for.
   */
  apply(r: RefreshResult): Promise<void>;
  /** The refresh failed (I/O, the worker): why. */
  failed(message: string): void;
}

/** A read's end: the answer is shown; `kept` resolves with it once its bookkeeping is done. */
interface Read {
  readonly kept: Promise<RefreshResult | null>;
}

/** The refresh loop of one folder's ledger. */
export class LedgerRefresh implements vscode.Disposable {
  /** The read in progress: it ends when the answer is shown (the bookkeeping after it is `kept`). */
  private refreshing: Promise<Read> | null = null;
  private again = false;
  private resumeTried = false;
  private backgroundVerify: ReturnType<typeof setTimeout> | undefined;
  /** A live refresh held back because the ledger's last line may still be being written (tailHold.ts). */
  private tailHeld = false;
  private tailRecheck: ReturnType<typeof setTimeout> | undefined;
  /** When the last read went to the worker (ms since the epoch). */
  private lastStart = 0;
  /** The next read, waiting for the gap after the last one to pass. */
  private gapWait:
    { timer: ReturnType<typeof setTimeout>; done: Promise<RefreshResult | null>; cancel: () => void } | undefined;

  constructor(
    private readonly folder: vscode.WorkspaceFolder,
    private readonly cwd: string,
    private readonly services: FolderServices,
    private readonly settingsReader: SettingsReader,
    private readonly target: RefreshTarget,
  ) {}

  /** The workspace-state key of the verification record a window's first refresh resumes from. */
  get recordKey(): string {
    return `autodev.verified:${this.cwd}`;
  }

  /**
   * Verifies what changed (only new bytes when the prefix is intact); coalesces calls. A read starts
   * at most once per `autodev.debounceMs` of the folder: calls in that gap (the live file's event and
   * the editor watcher's, both for one write) share the one read at its end.
   */
  async refresh(): Promise<RefreshResult | null> {
    if (this.target.refused()) return null;
    if (this.refreshing) {
      this.again = true;
      return (await this.refreshing).kept;
    }
    if (this.gapWait) return this.gapWait.done;
    const wait = this.lastStart + this.settingsReader.debounceMs(this.folder) - Date.now();
    if (wait > 0) {
      let timer!: ReturnType<typeof setTimeout>;
      let cancel!: () => void;
      const done = new Promise<RefreshResult | null>((resolve) => {
        cancel = () => resolve(null);
        timer = setTimeout(() => {
          this.gapWait = undefined;
          resolve(this.refresh());
        }, wait);
      });
      this.gapWait = { timer, done, cancel };
      return done;
    }
    this.lastStart = Date.now();
    this.refreshing = this.once();
    let read: Read;
    try {
      read = await this.refreshing;
    } finally {
      this.refreshing = null;
      // The next read does not wait for this one's bookkeeping: on a loaded editor each memento
      // write is a round trip to the window, hundreds of ms (issue 30, the soak).
      if (this.again) {
        this.again = false;
        void this.refresh();
      }
    }
    return read.kept;
  }

  private async once(): Promise<Read> {
    const r = await this.read();
    if (r === null || !("apply" in r)) return { kept: Promise.resolve(r) };
    const applied = r.apply;
    const kept = this.target.apply(applied).then(
      () => {
        if (applied.update.mode === "resumed") this.scheduleBackgroundVerify();
        return applied;
      },
      (e: unknown) => {
        this.services.log.error(`${this.folder.name}: storing what a refresh read failed`, e);
        return applied;
      },
    );
    return { kept };
  }

  /** One refresh request and what it means; `{ apply }` when the folder takes its answer as the new state. */
  private async read(): Promise<RefreshResult | { apply: RefreshResult } | null> {
    try {
      // The first refresh of a window may resume from what the last one verified (only new bytes are read).
      const record = this.resumeTried ? undefined : this.services.memento.get<unknown>(this.recordKey);
      this.resumeTried = true;
      const r = await autodevRequest(this.services.worker, this.cwd, {
        type: "refresh",
        record,
        historyWarnings: this.settingsReader.historyWarnings(this.folder),
      });
      if (r.unreadable !== undefined) {
        this.target.unreadable(r);
        return r;
      }
      // A last line without its newline, written just now, may be an append in progress (tailHold.ts).
      const hold = r.holdMs;
      if (hold !== null) {
        this.tailHeld = true;
        clearTimeout(this.tailRecheck);
        this.tailRecheck = setTimeout(() => void this.refresh(), hold + 20);
        return r;
      }
      if (r.update.mode === "none" && this.target.verified() && !this.tailHeld) {
        // The ledger did not change, but what the refresh read besides it (run state, contract, drift) may have.
        this.target.unchanged(r);
        return r;
      }
      this.tailHeld = false;
      return { apply: r };
    } catch (e) {
      this.services.log.error(`${this.folder.name}: refresh failed`, e);
      this.target.failed(errorText(e));
      return null;
    }
  }

  /** After a resumed start, re-verifies the whole ledger once the window has been idle a while. */
  private scheduleBackgroundVerify(): void {
    if (this.backgroundVerify) return;
    this.backgroundVerify = setTimeout(() => {
      void (async () => {
        try {
          await this.target.apply(
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

  /** Stops the pending background verification and tail recheck. */
  dispose(): void {
    clearTimeout(this.backgroundVerify);
    clearTimeout(this.tailRecheck);
    clearTimeout(this.gapWait?.timer);
    this.gapWait?.cancel();
    this.gapWait = undefined;
  }
}
