/**
 * The one reader of the `autodev.*` settings. Every value is read with the scope of the workspace
 * folder it applies to (`getConfiguration("autodev", folderUri)`), so a folder-level value wins in
 * a multi-root window. Defaults live only in package.json: a missing or mistyped value falls back
 * to the default VS Code reports for the key (`inspect().defaultValue`), never to a number here.
 */
import * as vscode from "vscode";
import type { SourceSettings } from "../core/sources/stateSource";

/** A workspace folder, its URI, or nothing (window-wide settings). */
export type SettingsScope = vscode.WorkspaceFolder | vscode.Uri | undefined;

/** A check of one setting's value: the value to use, or undefined when it is not valid. */
type Check<T> = (value: unknown) => T | undefined;

const bool: Check<boolean> = (v) => (typeof v === "boolean" ? v : undefined);
/** A finite number within [min, max]. */
const range =
  (min: number, max: number): Check<number> =>
  (v) =>
    typeof v === "number" && Number.isFinite(v) && v >= min && v <= max ? v : undefined;
const oneOf =
  <T extends string>(...values: readonly T[]): Check<T> =>
  (v) =>
    values.includes(v as T) ? (v as T) : undefined;
/** A string with something left once trimmed; the trimmed string. */
const text: Check<string> = (v) => (typeof v === "string" && v.trim() !== "" ? v.trim() : undefined);

// Plain checks, no schema library: settings are read while the extension starts (docs/benchmarks.md).
const CHECKS = {
  verifyOnChange: bool,
  // The maxima are package.json's: a larger value (hand-edited settings.json) falls back to the default.
  lockTimeoutSeconds: range(0, 3600),
  confirmVerifyAboveMB: range(0, 1_048_576),
  maxLineMB: range(1, 500),
  debounceMs: range(0, 2000),
  historyWarnings: bool,
  "statusBar.compact": bool,
  notifyWhenWaiting: oneOf("off", "windowNotFocused", "always"),
  autodevCommand: text,
} as const;

type Known = keyof typeof CHECKS;
type ValueOf<K extends Known> = NonNullable<ReturnType<(typeof CHECKS)[K]>>;

function uriOf(scope: SettingsScope): vscode.Uri | undefined {
  return scope === undefined ? undefined : "uri" in scope ? scope.uri : scope;
}

/** Reads settings; one instance serves the whole extension. */
export class SettingsReader {
  private config(scope: SettingsScope): vscode.WorkspaceConfiguration {
    return vscode.workspace.getConfiguration("autodev", uriOf(scope));
  }

  private read<K extends Known>(key: K, scope: SettingsScope): ValueOf<K> {
    const config = this.config(scope);
    const check = CHECKS[key] as Check<ValueOf<K>>;
    const value = check(config.get(key));
    if (value !== undefined) return value;
    const fallback = check(config.inspect(key)?.defaultValue);
    if (fallback !== undefined) return fallback;
    throw new Error(vscode.l10n.t("the setting autodev.{0} has no valid value and no default", key));
  }

  /** When to notify that a run waits on you: never, only while the window is not focused, or always. */
  notifyWhenWaiting(): "off" | "windowNotFocused" | "always" {
    return this.read("notifyWhenWaiting", undefined);
  }

  /** The command that runs AutoDev in a folder's terminal (`autodev`). */
  autodevCommand(scope: SettingsScope): string {
    return this.read("autodevCommand", scope);
  }

  /** Verify new ledger entries as they arrive (else only reload the plan from the tail). */
  verifyOnChange(scope: SettingsScope): boolean {
    return this.read("verifyOnChange", scope);
  }

  /** Seconds to wait for `.autodev/.lock` before giving up on a write. */
  lockTimeoutSeconds(scope: SettingsScope): number {
    return this.read("lockTimeoutSeconds", scope);
  }

  /** Ledgers larger than this (MB) ask before a manual full verification. */
  confirmVerifyAboveMB(scope: SettingsScope): number {
    return this.read("confirmVerifyAboveMB", scope);
  }

  /** The longest line a reader keeps in memory, in bytes (read when the worker starts). */
  maxLineBytes(): number {
    return this.read("maxLineMB", undefined) * 1024 * 1024;
  }

  /** Delay (ms) that coalesces bursts of file events. */
  debounceMs(scope: SettingsScope): number {
    return this.read("debounceMs", scope);
  }

  /** Show lower-severity history warnings (FSM violations, missing evidence) in Problems. */
  historyWarnings(scope: SettingsScope): boolean {
    return this.read("historyWarnings", scope);
  }

  /** The status bar shows only what is not ok (window-wide). */
  compactStatusBar(): boolean {
    return this.read("statusBar.compact", undefined);
  }

  /**
   * The settings a source declares (`StateSource.settings`) for one folder, as they are: the
   * source validates them (strings are trimmed; unset values are left out).
   */
  sourceSettings(names: readonly string[], scope: SettingsScope): SourceSettings {
    const config = this.config(scope);
    const out: Record<string, unknown> = {};
    for (const name of names) {
      const value = config.get<unknown>(name);
      if (value === undefined || value === null) continue;
      out[name] = typeof value === "string" ? value.trim() : value;
    }
    return out;
  }
}
