/**
 * The "AutoDev State" output channel: what the extension does, with times.
 * No telemetry: nothing leaves the machine.
 *
 * Made on first need, not at activation: VS Code's log channel costs the host thread a few
 * milliseconds (a logger, a log file, a round trip to the window) that the tree's first answer
 * does not need. The lines of the first moments are kept, each with the time it was said, and
 * written once the channel is made: {@link FLUSH_MS} after the first line, or at once on
 * {@link OutputLog.show}, a warning or an error.
 */
import * as vscode from "vscode";
import { displayMessage } from "../core/text/displayText";
import { errorText } from "../core/text/errorText";

/** How long the first lines wait for the channel (ms): past the tree's first answer. */
const FLUSH_MS = 1500;

/** Most lines kept before the channel is made (the oldest go first). */
const MAX_KEPT = 200;

type Level = "info" | "warn" | "error";

/** A thin logger over a LogOutputChannel, made on first need. */
export class OutputLog implements vscode.Disposable {
  private made: vscode.LogOutputChannel | null = null;
  private kept: Array<{ level: Level; text: string; at: Date }> = [];
  private timer: NodeJS.Timeout | null = null;
  private disposed = false;

  /** The channel (made now if it was not yet, with the lines kept until then written first). */
  get channel(): vscode.LogOutputChannel {
    if (this.made === null) {
      this.made = vscode.window.createOutputChannel("AutoDev State", { log: true });
      if (this.timer) clearTimeout(this.timer);
      this.timer = null;
      const kept = this.kept;
      this.kept = [];
      for (const k of kept) this.made[k.level](`${k.text} (at ${k.at.toISOString().slice(11, 23)})`);
    }
    return this.made;
  }

  info(message: string): void {
    this.say("info", displayMessage(message));
  }

  warn(message: string): void {
    this.say("warn", displayMessage(message));
  }

  error(message: string, e?: unknown): void {
    this.say("error", displayMessage(e === undefined ? message : `${message}: ${errorText(e)}`));
  }

  /** Reveals the channel. */
  show(): void {
    this.channel.show(true);
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.kept = [];
    this.made?.dispose();
  }

  private say(level: Level, text: string): void {
    if (this.disposed) return;
    if (this.made !== null || level !== "info") {
      this.channel[level](text);
      return;
    }
    this.kept.push({ level, text, at: new Date() });
    if (this.kept.length > MAX_KEPT) this.kept.shift();
    if (this.timer === null) {
      this.timer = setTimeout(() => void this.channel, FLUSH_MS);
      this.timer.unref?.();
    }
  }
}
