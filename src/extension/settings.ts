/**
 * Typed access to the `autodev.*` settings contributed in package.json.
 */
import * as vscode from "vscode";

/** Reads the extension's settings (always current). */
export class Settings {
  private get config(): vscode.WorkspaceConfiguration {
    return vscode.workspace.getConfiguration("autodev");
  }

  /** Verify new ledger entries as they arrive (else only reload the plan). */
  get verifyOnChange(): boolean {
    return this.config.get<boolean>("verifyOnChange", true);
  }

  /** Seconds to wait for `.autodev/.lock` before giving up on a write. */
  get lockTimeoutSeconds(): number {
    return Math.max(0, this.config.get<number>("lockTimeoutSeconds", 30));
  }

  /** Ledgers larger than this (MB) ask before a manual full verification. */
  get confirmVerifyAboveMB(): number {
    return Math.max(0, this.config.get<number>("confirmVerifyAboveMB", 512));
  }

  /** Delay (ms) that coalesces bursts of file events. */
  get debounceMs(): number {
    return Math.min(2000, Math.max(0, this.config.get<number>("debounceMs", 150)));
  }

  /**
   * What source detection needs from the settings: `autodev.engineStateDir` (where engine_state
   * lives, relative to the folder; the engine_state source documents and contributes it).
   */
  get detectOptions(): { readonly engineStateDir?: string } {
    const dir = this.config.get<string>("engineStateDir");
    return typeof dir === "string" && dir.trim() ? { engineStateDir: dir.trim() } : {};
  }

  /** Show lower-severity history warnings (FSM violations, missing evidence) in Problems. */
  get historyWarnings(): boolean {
    return this.config.get<boolean>("historyWarnings", true);
  }
}
