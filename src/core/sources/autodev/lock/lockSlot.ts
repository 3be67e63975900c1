/**
 * The in-process side of the file lock: per lock file (and helper list), a
 * FIFO mutex that queues this process's writers in front of the one helper
 * process serving that file, and the helper's idle shutdown.
 */
import { PlanLockTimeoutError } from "../../../errors";
import { DEFAULT_HELPER_IDLE_MS, type LockHelper } from "./fileLockSettings";
import { startLockHelperDriver, type LockHelperDriver } from "./lockHelperDriver";

/** Lock slots by key (canonical lock file path plus helper list). */
const slots = new Map<string, LockSlot>();

/** The slot for `key`, created (for `lockFile` and `helpers`) on first use. */
export function lockSlotFor(key: string, lockFile: string, helpers: readonly LockHelper[]): LockSlot {
  let slot = slots.get(key);
  if (!slot) {
    slot = new LockSlot(key, lockFile, helpers);
    slots.set(key, slot);
  }
  return slot;
}

/** Ends the helper of every slot nobody holds or waits for. */
export async function shutdownIdleLockSlots(): Promise<void> {
  await Promise.all([...slots.values()].map((slot) => slot.shutdownIfIdle()));
}

interface Waiter {
  resolve(): void;
  reject(error: unknown): void;
}

/** One lock file (and helper list) in this process: a FIFO mutex plus the helper that serves it. */
export class LockSlot {
  private busy = false;
  private readonly queue: Waiter[] = [];
  private driver: LockHelperDriver | undefined;
  private idleTimer: NodeJS.Timeout | undefined;
  idleMs = DEFAULT_HELPER_IDLE_MS;

  constructor(
    readonly key: string,
    readonly lockFile: string,
    readonly helpers: readonly LockHelper[],
  ) {}

  /** Waits for this process's other writers on the same lock, in FIFO order. */
  enter(deadline: number, timeoutMs: number, signal: AbortSignal | undefined): Promise<void> {
    this.clearIdle();
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (!this.busy) {
      this.busy = true;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const cleanup = () => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        const i = this.queue.indexOf(waiter);
        if (i >= 0) this.queue.splice(i, 1);
      };
      const waiter: Waiter = {
        resolve: () => {
          cleanup();
          resolve();
        },
        reject: (error) => {
          cleanup();
          reject(error);
        },
      };
      const onAbort = () => waiter.reject(signal?.reason);
      const timer = setTimeout(
        () =>
          waiter.reject(
            new PlanLockTimeoutError(timeoutMs / 1000, `another writer in this process holds ${this.lockFile}`),
          ),
        Math.max(0, deadline - performance.now()),
      );
      signal?.addEventListener("abort", onAbort, { once: true });
      this.queue.push(waiter);
    });
  }

  /** Hands the slot to the next waiter, or starts the idle countdown. */
  leave(): void {
    const next = this.queue.shift();
    if (next) {
      next.resolve(); // stays busy: ownership passes directly
      return;
    }
    this.busy = false;
    this.clearIdle();
    if (this.driver) {
      this.idleTimer = setTimeout(() => {
        this.idleTimer = undefined;
        if (!this.busy) this.dropDriver();
      }, this.idleMs);
      this.idleTimer.unref();
    }
  }

  /** The running helper, started if needed. Only called by the slot's owner. */
  async driverFor(signal: AbortSignal | undefined): Promise<LockHelperDriver> {
    if (this.driver?.alive) return this.driver;
    this.driver = undefined;
    const driver = await startLockHelperDriver(this.helpers, this.lockFile, signal);
    driver.onExit = () => {
      if (this.driver === driver) this.driver = undefined;
    };
    this.driver = driver;
    return driver;
  }

  /** Ends the helper now unless the slot is in use, and forgets the slot. */
  async shutdownIfIdle(): Promise<void> {
    if (this.busy) return;
    this.clearIdle();
    const driver = this.driver;
    this.driver = undefined;
    if (driver) await driver.close();
    if (slots.get(this.key) === this && !this.busy) slots.delete(this.key);
  }

  private dropDriver(): void {
    const driver = this.driver;
    this.driver = undefined;
    void driver?.close();
    if (slots.get(this.key) === this && !this.busy) slots.delete(this.key);
  }

  private clearIdle(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
  }
}
