/**
 * The "AutoDev State" output channel: what the extension does, with times.
 * No telemetry: nothing leaves the machine.
 */
import * as vscode from "vscode";
import { displayMessage } from "../core/text/displayText";

/** A thin logger over a LogOutputChannel. */
export class OutputLog implements vscode.Disposable {
  readonly channel: vscode.LogOutputChannel;

  constructor() {
    this.channel = vscode.window.createOutputChannel("AutoDev State", { log: true });
  }

  info(message: string): void {
    this.channel.info(displayMessage(message));
  }

  warn(message: string): void {
    this.channel.warn(displayMessage(message));
  }

  error(message: string, e?: unknown): void {
    this.channel.error(
      displayMessage(e === undefined ? message : `${message}: ${e instanceof Error ? e.message : String(e)}`),
    );
  }

  /** Reveals the channel. */
  show(): void {
    this.channel.show(true);
  }

  dispose(): void {
    this.channel.dispose();
  }
}
