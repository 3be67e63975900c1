/**
 * The status bar's words (issue 22 items 6, 11 and 16): a rewritten history reads "history
 * rewritten", never "ledger broken at history rewritten", and is a warning, not "ledger ok"; the
 * compact form (`autodev.statusBar.compact`) keeps the progress and only what is not ok, with the
 * whole text in the tooltip; Verify's message says milliseconds under a second and counts every
 * severity Problems shows.
 */
import { fakeSettings } from "../helpers/fakeVscode";
import { strict as assert } from "node:assert";
import { durationText, problemsListText } from "../../../src/extension/text/countText";
import type { AutodevFolder } from "../../../src/extension/sources/autodev/folder/autodevFolder";
import { autodevStatusPart } from "../../../src/extension/sources/autodev/autodevStatus";
import { verifyOutcomeText } from "../../../src/extension/sources/autodev/ledger/verifyOutcome";
import type { SourceAdapter, SourceFolder, StatusPart } from "../../../src/extension/sources/sourceAdapter";
import type { StateFolders } from "../../../src/extension/sources/stateFolders";
import { SettingsReader } from "../../../src/extension/settings/settings";
import { StatusBarController, compactText } from "../../../src/extension/statusBarController";
import type { VerifyReport } from "../../../src/core/sources/autodev/ledger/verifyTypes";

/** An AutoDev folder as the status part reads it. */
function folder(over: Partial<Record<string, unknown>> = {}): AutodevFolder {
  const tasks = [{ status: "complete" }, { status: "complete" }, { status: "complete" }, { status: "pending" }];
  return {
    folder: { name: "ws" },
    live: { phases: [{ tasks }] },
    report: { ok: true, errors: [] },
    rewriteFinding: null,
    timeTravel: null,
    progress: null,
    ...over,
  } as unknown as AutodevFolder;
}

const rewrite = { kind: "rollback", message: "History rewritten: …", line: 3, remembered: { seq: 9 } };
const agloopOk: StatusPart = { text: "agloop ok", compact: null, errors: 0, warnings: 0 };
const agloopBad: StatusPart = { text: "agloop 2 errors", compact: "agloop 2 errors", errors: 2, warnings: 0 };

describe("status bar words", () => {
  afterEach(() => fakeSettings.clear());

  it("a rewritten history reads 'history rewritten' as a warning, never 'ledger broken at history rewritten'", () => {
    const part = autodevStatusPart([folder({ rewriteFinding: rewrite })])!;
    assert.equal(part.text, "AutoDev 3/4 · history rewritten");
    assert.equal(part.errors, 0);
    assert.equal(part.warnings, 1);
    assert.equal(part.primary?.icon, "$(warning)");
    assert.equal(part.primary?.warning, true);
    assert.match(part.primary!.tooltip, /history differs from the one verified earlier/);
  });

  it("a broken ledger names its line; broken and rewritten together say both", () => {
    const broken = { ok: false, errors: [{ atLine: 34 }] };
    assert.equal(autodevStatusPart([folder({ report: broken })])!.text, "AutoDev 3/4 · ledger broken at line 34");
    assert.equal(
      autodevStatusPart([folder({ report: broken, rewriteFinding: rewrite })])!.text,
      "AutoDev 3/4 · ledger broken at line 34 · history rewritten",
    );
  });

  it("the compact form keeps the progress and what is not ok", () => {
    const ok = autodevStatusPart([folder()])!;
    assert.equal(ok.text, "AutoDev 3/4 · ledger ok");
    assert.equal(compactText([ok, agloopOk]), "3/4");
    assert.equal(compactText([ok, agloopBad]), "3/4 · agloop 2 errors");
    const rw = autodevStatusPart([folder({ rewriteFinding: rewrite })])!;
    assert.equal(compactText([rw, agloopOk]), "3/4 · history rewritten");
    assert.equal(compactText([agloopOk]), "");
    // A part that says nothing of its compact form shows only when it counts something.
    assert.equal(compactText([{ text: "seam 1 warning", errors: 0, warnings: 1 }]), "seam 1 warning");
    assert.equal(compactText([{ text: "seam ok", errors: 0 }]), "");
  });

  it("the controller shows the compact form when the setting is on, the whole text in the tooltip", () => {
    const parts = new Map<string, StatusPart>([["autodev", autodevStatusPart([folder()])!]]);
    const folders = {
      onDidChange: () => ({ dispose: () => undefined }),
      ofKind: (kind: string) => (kind === "autodev" || kind === "agloop" ? [{} as SourceFolder] : []),
    } as unknown as StateFolders;
    parts.set("agloop", agloopBad);
    const adapterOf = (kind: string) => ({ status: () => parts.get(kind) ?? null }) as unknown as SourceAdapter;
    const full = new StatusBarController(folders, adapterOf, new SettingsReader());
    assert.equal(full.text, "$(checklist) AutoDev 3/4 · ledger ok · agloop 2 errors");
    fakeSettings.set("statusBar.compact", true);
    const compact = new StatusBarController(folders, adapterOf, new SettingsReader());
    assert.equal(compact.text, "$(checklist) 3/4 · agloop 2 errors");
    const tooltip = (compact as unknown as { item: { tooltip: string } }).item.tooltip;
    assert.match(tooltip, /^AutoDev 3\/4 · ledger ok · agloop 2 errors\n\n/);
    full.dispose();
    compact.dispose();
  });
});

describe("Verify's message", () => {
  const report = (ok: boolean, errors = 0): VerifyReport =>
    ({
      ok,
      entries: 42,
      errors: Array.from({ length: errors }, (_, i) => ({
        atLine: 3 + i,
        seq: 3 + i,
        kind: "self_hash_mismatch",
        message: "self_hash mismatch: computed aaaa, stored bbbb",
      })),
      warnings: [],
    }) as unknown as VerifyReport;

  it("says milliseconds under a second, seconds with one decimal, minutes above", () => {
    assert.equal(durationText(0.3), "1 ms");
    assert.equal(durationText(12.4), "12 ms");
    assert.equal(durationText(3400), "3.4 s");
    assert.equal(durationText(125_000), "2 min 5 s");
    const text = verifyOutcomeText(report(true), 12, { error: 0, warning: 0, info: 0 }).text;
    assert.equal(text, "AutoDev: ledger ok — 42 entries verified in 12 ms.");
  });

  it("counts what Problems shows for the folder, every severity", () => {
    const broken = verifyOutcomeText(report(false, 2), 80, { error: 2, warning: 1, info: 0 });
    assert.equal(broken.error, true);
    assert.match(broken.text, /^AutoDev: ledger broken at line 3: .* \(2 errors, 1 warning in Problems\)$/);
    const ok = verifyOutcomeText(report(true), 1500, { error: 0, warning: 3, info: 1 });
    assert.equal(ok.text, "AutoDev: ledger ok — 42 entries verified in 1.5 s (3 warnings, 1 info in Problems).");
    assert.equal(problemsListText({ error: 1, warning: 0, info: 0 }), "1 error");
  });
});
