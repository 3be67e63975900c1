/**
 * The settings reader's checks (settings.ts): a value of the wrong type, out of package.json's
 * range, not finite or not one of an enum's words falls back to the default VS Code reports for
 * the key; a valid value is used as it is, a command trimmed. The checks are zod/mini schemas
 * (settingsSchemas.ts), loaded on the first value a person set: a default is used unchecked, so
 * each of package.json's defaults must pass its own schema.
 */
import { fakeSettings } from "../helpers/fakeVscode";
import { strict as assert } from "node:assert";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { SettingsReader } from "../../../src/extension/settings/settings";
import { SETTING_SCHEMAS } from "../../../src/extension/settings/settingsSchemas";
import { REPO_ROOT } from "../fixtures";

describe("settings: each value checked, the default where it is not valid", () => {
  const settings = new SettingsReader();
  afterEach(() => fakeSettings.clear());

  it("uses package.json's defaults when nothing is set", () => {
    assert.equal(settings.verifyOnChange(undefined), true);
    assert.equal(settings.debounceMs(undefined), 150);
    assert.equal(settings.maxLineBytes(), 256 * 1024 * 1024);
    assert.equal(settings.notifyWhenWaiting(), "windowNotFocused");
    assert.equal(settings.autodevCommand(undefined), "autodev");
  });

  it("keeps valid values, the bounds included, and trims the command", () => {
    fakeSettings.set("verifyOnChange", false);
    fakeSettings.set("debounceMs", 0);
    fakeSettings.set("lockTimeoutSeconds", 3600);
    fakeSettings.set("maxLineMB", 1);
    fakeSettings.set("confirmVerifyAboveMB", 0.5);
    fakeSettings.set("notifyWhenWaiting", "always");
    fakeSettings.set("autodevCommand", "  uv run autodev  ");
    assert.equal(settings.verifyOnChange(undefined), false);
    assert.equal(settings.debounceMs(undefined), 0);
    assert.equal(settings.lockTimeoutSeconds(undefined), 3600);
    assert.equal(settings.maxLineBytes(), 1024 * 1024);
    assert.equal(settings.confirmVerifyAboveMB(undefined), 0.5);
    assert.equal(settings.notifyWhenWaiting(), "always");
    assert.equal(settings.autodevCommand(undefined), "uv run autodev");
  });

  it("falls back on a wrong type, a value out of range, NaN, Infinity, an unknown word, a blank command", () => {
    const bad: Array<[string, unknown, () => unknown]> = [
      ["verifyOnChange", "false", () => settings.verifyOnChange(undefined)],
      ["historyWarnings", 1, () => settings.historyWarnings(undefined)],
      ["statusBar.compact", null, () => settings.compactStatusBar()],
      ["debounceMs", "100", () => settings.debounceMs(undefined)],
      ["debounceMs", 2001, () => settings.debounceMs(undefined)],
      ["debounceMs", -1, () => settings.debounceMs(undefined)],
      ["debounceMs", Number.NaN, () => settings.debounceMs(undefined)],
      ["lockTimeoutSeconds", Number.POSITIVE_INFINITY, () => settings.lockTimeoutSeconds(undefined)],
      ["maxLineMB", 0.5, () => settings.maxLineBytes()],
      ["maxLineMB", 501, () => settings.maxLineBytes()],
      ["confirmVerifyAboveMB", 1_048_577, () => settings.confirmVerifyAboveMB(undefined)],
      ["notifyWhenWaiting", "never", () => settings.notifyWhenWaiting()],
      ["notifyWhenWaiting", true, () => settings.notifyWhenWaiting()],
      ["autodevCommand", "   ", () => settings.autodevCommand(undefined)],
      ["autodevCommand", 7, () => settings.autodevCommand(undefined)],
    ];
    for (const [key, value, read] of bad) {
      const fallback = read();
      fakeSettings.set(key, value);
      assert.deepEqual(read(), fallback, `autodev.${key} = ${String(value)} falls back to the default`);
      fakeSettings.clear();
    }
  });

  it("each default package.json gives passes its schema as it is (defaults are used unchecked)", () => {
    const manifest = JSON.parse(readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as {
      contributes: { configuration: { properties: Record<string, { default?: unknown }> } };
    };
    for (const [key, schema] of Object.entries(SETTING_SCHEMAS)) {
      const d = manifest.contributes.configuration.properties[`autodev.${key}`]?.default;
      const parsed = schema.safeParse(d);
      assert.ok(parsed.success, `autodev.${key}'s default ${JSON.stringify(d)} fails its schema`);
      assert.deepEqual(parsed.data, d, `autodev.${key}'s default changes when checked`);
    }
  });
});
