/**
 * Registers the extension's commands in one place and turns thrown errors
 * into readable messages (never an unhandled rejection).
 */
import * as vscode from "vscode";
import { Disposable } from "./disposable";
import { OutputLog } from "./outputLog";
import { errorText } from "../core/text/errorText";

/** A command handler. */
export type CommandHandler = (...args: unknown[]) => unknown;

/** Owns command registrations. */
export class CommandManager extends Disposable {
  private readonly ids: string[] = [];

  constructor(private readonly log: OutputLog) {
    super();
  }

  /** Registers `handlers` (id → handler); errors are logged and shown. */
  registerAll(handlers: Record<string, CommandHandler>): void {
    for (const [id, handler] of Object.entries(handlers)) {
      this.ids.push(id);
      this.register(
        vscode.commands.registerCommand(id, async (...args: unknown[]) => {
          try {
            return await handler(...args);
          } catch (e) {
            const message = errorText(e);
            this.log.error(`${id} failed`, e);
            void vscode.window.showErrorMessage(vscode.l10n.t("AutoDev: {0}", message));
            return undefined;
          }
        }),
      );
    }
  }

  /**
   * Registers `ids` now, each with a handler that makes the real ones (`make`, once) on its first
   * call: the command exists from activation on, what answers it is built on first use.
   */
  registerLazy<K extends string>(ids: readonly K[], make: () => Record<K, CommandHandler>): void {
    let made: Record<K, CommandHandler> | undefined;
    const thin =
      (id: K): CommandHandler =>
      (...args) =>
        (made ??= make())[id](...args);
    this.registerAll(Object.fromEntries(ids.map((id) => [id, thin(id)])));
  }

  /** Every registered id (for the contributed-vs-registered guard). */
  get registered(): readonly string[] {
    return this.ids;
  }
}
