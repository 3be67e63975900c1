/**
 * The one reader of the `autodev.*` settings. Every value is read with the scope of the workspace
 * folder it applies to (`getConfiguration("autodev", folderUri)`), so a folder-level value wins in
 * a multi-root window. Defaults live only in package.json: a missing or mistyped value falls back
 * to the default VS Code reports for the key (`inspect().defaultValue`), never to a number here.
 */
import * as vscode from "vscode";
import type * as z from "zod/mini";
import type { SourceSettings } from "../../core/sources/stateSource";
import type * as SettingSchemas from "./settingsSchemas";

/** A workspace folder, its URI, or nothing (window-wide settings). */
export type SettingsScope = vscode.WorkspaceFolder | vscode.Uri | undefined;

let schemas: typeof SettingSchemas.SETTING_SCHEMAS | undefined;
/** The settings' zod/mini schemas, loaded on the first value a person set (none while the host starts with defaults). */
function settingSchemas(): typeof SettingSchemas.SETTING_SCHEMAS {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (schemas ??= (require("./settingsSchemas") as typeof SettingSchemas).SETTING_SCHEMAS);
}

type Known = keyof typeof SettingSchemas.SETTING_SCHEMAS;
type Value<K extends Known> = z.output<(typeof SettingSchemas.SETTING_SCHEMAS)[K]>;

function uriOf(scope: SettingsScope): vscode.Uri | undefined {
  return scope === undefined ? undefined : "uri" in scope ? scope.uri : scope;
}

/** Reads settings; one instance serves the whole extension. */
export class SettingsReader {
  private config(scope: SettingsScope): vscode.WorkspaceConfiguration {
    return vscode.workspace.getConfiguration("autodev", uriOf(scope));
  }

  private read<K extends Known>(key: K, scope: SettingsScope): Value<K> {
    const config = this.config(scope);
    const value = config.get(key);
    const fallback = config.inspect(key)?.defaultValue;
    // package.json's default (nothing set, or the same value set): valid by construction (settingsReader.test checks each).
    if (value !== undefined && value === fallback) return value as Value<K>;
    const schema = settingSchemas()[key];
    const checked = schema.safeParse(value);
    if (checked.success) return checked.data as Value<K>;
    const byDefault = schema.safeParse(fallback);
    if (byDefault.success) return byDefault.data as Value<K>;
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
