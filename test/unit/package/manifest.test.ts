/**
 * The manifest is ready for the marketplace and for translators: every
 * user-facing string of package.json is a `%key%` that package.nls.json
 * defines (and every key there is used), the icon is a 128×128 PNG, the
 * repository/bugs/homepage/keywords/banner are set, and the walkthrough's
 * steps point at media that exists and complete on real events; runtime
 * strings are in l10n/bundle.l10n.json.
 */
import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT } from "../fixtures";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const manifest = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { [key: string]: Json };
const nls = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.nls.json"), "utf8")) as Record<string, string>;

/** The manifest's user-facing strings: [where, value]. */
function userFacingStrings(): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  const take = (where: string, v: Json | undefined) => {
    if (typeof v === "string") out.push([where, v]);
  };
  const c = manifest.contributes as { [key: string]: Json };
  take("displayName", manifest.displayName);
  take("description", manifest.description);
  take(
    "capabilities",
    ((manifest.capabilities as { [k: string]: Json }).untrustedWorkspaces as { [k: string]: Json }).description,
  );
  for (const vc of (c.viewsContainers as { [k: string]: Json[] }).activitybar as Array<{ [k: string]: Json }>) {
    take(`viewsContainers ${vc.id}`, vc.title);
  }
  for (const v of Object.values(c.views as { [k: string]: Array<{ [k: string]: Json }> }).flat()) {
    take(`view ${v.id}`, v.name);
    take(`view ${v.id} contextualTitle`, v.contextualTitle);
  }
  for (const w of c.viewsWelcome as Array<{ [k: string]: Json }>) take(`viewsWelcome ${w.view}`, w.contents);
  for (const cmd of c.commands as Array<{ [k: string]: Json }>) {
    take(`command ${cmd.command}`, cmd.title);
    take(`command ${cmd.command} category`, cmd.category);
  }
  for (const t of (c.languageModelTools ?? []) as Array<{ [k: string]: Json }>) {
    take(`tool ${t.name}`, t.displayName);
    take(`tool ${t.name} description`, t.userDescription);
  }
  const conf = c.configuration as { title: Json; properties: { [k: string]: { [k: string]: Json } } };
  take("configuration", conf.title);
  for (const [name, prop] of Object.entries(conf.properties)) take(name, prop.description ?? prop.markdownDescription);
  for (const color of (c.colors ?? []) as Array<{ [k: string]: Json }>) take(`color ${color.id}`, color.description);
  for (const w of c.walkthroughs as Array<{ [k: string]: Json }>) {
    take(`walkthrough ${w.id}`, w.title);
    take(`walkthrough ${w.id} description`, w.description);
    for (const s of w.steps as Array<{ [k: string]: Json }>) {
      take(`step ${s.id}`, s.title);
      take(`step ${s.id} description`, s.description);
    }
  }
  return out;
}

describe("manifest: marketplace and localization", () => {
  it("every user-facing string is a %key% defined in package.nls.json, and every key is used", () => {
    const strings = userFacingStrings();
    assert.ok(strings.length > 40, `only ${strings.length} strings found`);
    const literal = strings.filter(([, v]) => !/^%[^%]+%$/.test(v));
    assert.deepEqual(literal, [], "strings not in package.nls.json");
    const used = new Set(strings.map(([, v]) => v.slice(1, -1)));
    assert.deepEqual(
      [...used].filter((k) => !(k in nls)),
      [],
      "keys missing from package.nls.json",
    );
    assert.deepEqual(
      Object.keys(nls).filter((k) => !used.has(k)),
      [],
      "keys in package.nls.json nothing uses",
    );
    for (const [k, v] of Object.entries(nls)) assert.ok(v.trim().length > 0, `empty string for ${k}`);
  });

  it("has the marketplace fields, a 128×128 PNG icon and a changelog", () => {
    for (const field of ["repository", "bugs", "homepage", "keywords", "galleryBanner", "icon", "license"]) {
      assert.ok(manifest[field], `package.json lacks ${field}`);
    }
    const png = fs.readFileSync(path.join(REPO_ROOT, manifest.icon as string));
    assert.equal(png.subarray(1, 4).toString("latin1"), "PNG");
    assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [128, 128], "icon width × height");
    assert.ok(fs.statSync(path.join(REPO_ROOT, "CHANGELOG.md")).size > 0);
    assert.doesNotMatch(String((manifest.scripts as { [k: string]: Json }).package), /allow-missing-repository/);
  });

  it("the walkthrough goes from no state to evidence diffs, each step with media and a completion event", () => {
    const [w] = (
      manifest.contributes as {
        walkthroughs: Array<{
          id: string;
          steps: Array<{ id: string; media: { markdown?: string }; completionEvents: string[]; description: string }>;
        }>;
      }
    ).walkthroughs;
    assert.deepEqual(
      w.steps.map((s) => s.id),
      ["noState", "planView", "verify", "timeline", "evidence"],
    );
    const commands = new Set(
      (manifest.contributes as { commands: Array<{ command: string }> }).commands.map((c) => c.command),
    );
    for (const s of w.steps) {
      assert.ok(
        s.media.markdown && fs.existsSync(path.join(REPO_ROOT, s.media.markdown)),
        `${s.id}: media ${s.media.markdown}`,
      );
      assert.ok(s.completionEvents.length > 0, `${s.id}: no completion event`);
      for (const e of s.completionEvents.filter((e) => e.startsWith("onCommand:"))) {
        assert.ok(commands.has(e.slice("onCommand:".length)), `${s.id}: ${e} is not a contributed command`);
      }
      const links = [...nls[s.description.slice(1, -1)].matchAll(/\(command:([\w.]+)/g)].map((m) => m[1]);
      for (const id of links.filter((id) => id.startsWith("autodev.") && !id.endsWith(".focus"))) {
        assert.ok(commands.has(id), `${s.id} links to ${id}, which is not contributed`);
      }
    }
  });

  it("the empty-state view and the walkthrough's steps show no literal backticks (they render no code spans)", () => {
    // viewsWelcome and walkthrough step descriptions render links only: a `code span` shows its backticks.
    const plain = userFacingStrings()
      .filter(([where]) => /^(viewsWelcome|step \S+ description|walkthrough)/.test(where))
      .map(([where, v]) => [where, nls[v.slice(1, -1)] ?? ""] as const)
      .filter(([, text]) => text.includes("`"));
    assert.deepEqual(plain, []);
  });

  it("runtime strings go through vscode.l10n.t and l10n/bundle.l10n.json holds every one of them", () => {
    assert.equal(manifest.l10n, "./l10n");
    const r = spawnSync(process.execPath, [path.join(REPO_ROOT, "scripts/l10n-bundle.mjs"), "--check"], {
      encoding: "utf8",
    });
    assert.equal(r.status, 0, r.stderr);
    const bundle = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "l10n/bundle.l10n.json"), "utf8")) as Record<
      string,
      string
    >;
    assert.ok(Object.keys(bundle).length > 0);
  });
});
