/**
 * The docs stay what CONTRIBUTING.md says they are: the README is a user's page of at most 10 KB
 * (it is the Marketplace page) whose settings table is the one package.json generates and whose
 * pictures are PNGs under media/; every dependency has its reason in docs/dependencies.md; every
 * relative link of README.md, CONTRIBUTING.md and docs/ reaches a file (and a heading, for `#…`);
 * and no page states a test count, which nothing would keep true.
 */
import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT } from "../fixtures";

const README_MAX_BYTES = 10 * 1024;

/** The Markdown pages the project keeps: README.md, CONTRIBUTING.md and docs/**. */
function docPages(): string[] {
  const pages = ["README.md", "CONTRIBUTING.md"];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(path.join(REPO_ROOT, dir), { withFileTypes: true })) {
      const rel = path.posix.join(dir, entry.name);
      if (entry.isDirectory()) walk(rel);
      else if (entry.name.endsWith(".md")) pages.push(rel);
    }
  };
  walk("docs");
  return pages;
}

const read = (rel: string) => fs.readFileSync(path.join(REPO_ROOT, rel), "utf8");

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, "")
    .replace(/ /g, "-");
}

/** The anchors a page's headings give (outside fenced code). */
function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of text.split("\n")) {
    if (line.startsWith("```")) fenced = !fenced;
    const m = !fenced && /^#{1,6} (.+)$/.exec(line);
    if (m) anchors.add(anchorOf(m[1]));
  }
  return anchors;
}

/** Every link and image target of a page: `[x](target)` and `<img src="target">`. */
function linkTargets(text: string): string[] {
  const noCode = text.replace(/```[\s\S]*?```/g, "").replace(/`[^`\n]*`/g, "");
  const targets = [...noCode.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]);
  targets.push(...[...noCode.matchAll(/<img[^>]*\ssrc="([^"]+)"/g)].map((m) => m[1]));
  return targets;
}

describe("docs: a user's README, contributor docs in docs/", () => {
  it(`README.md is at most ${README_MAX_BYTES} bytes`, () => {
    const size = fs.statSync(path.join(REPO_ROOT, "README.md")).size;
    assert.ok(size <= README_MAX_BYTES, `README.md is ${size} bytes; move contributor material to docs/`);
  });

  it("README's settings table is the one package.json generates, and names every setting", () => {
    const check = spawnSync(process.execPath, [path.join(REPO_ROOT, "scripts/readme-settings.mjs"), "--check"], {
      encoding: "utf8",
    });
    assert.equal(check.status, 0, check.stderr);
    const manifest = JSON.parse(read("package.json")) as {
      contributes: { configuration: { properties: Record<string, unknown> } };
    };
    const readme = read("README.md");
    const missing = Object.keys(manifest.contributes.configuration.properties).filter(
      (key) => !readme.includes(`\`${key}\``),
    );
    assert.deepEqual(missing, [], "settings the README does not document");
  });

  it("README's pictures are PNG or JPEG files under media/ (vsce refuses SVG in a README)", () => {
    const images = linkTargets(read("README.md")).filter((t) => /\.(png|jpe?g|gif|svg)$/i.test(t));
    assert.ok(images.length > 0, "the README shows no picture");
    for (const image of images) {
      assert.match(image, /^media\/.+\.(png|jpe?g)$/, `${image}: a relative PNG/JPEG under media/`);
      assert.ok(fs.existsSync(path.join(REPO_ROOT, image)), `${image} does not exist`);
    }
  });

  it("every relative link of README.md, CONTRIBUTING.md and docs/ reaches a file and a heading", () => {
    const broken: string[] = [];
    for (const page of docPages()) {
      for (const target of linkTargets(read(page))) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:, command:
        const [file, anchor] = target.split("#", 2);
        const resolved = file ? path.posix.normalize(path.posix.join(path.posix.dirname(page), file)) : page;
        if (!fs.existsSync(path.join(REPO_ROOT, resolved))) {
          broken.push(`${page}: ${target} (no ${resolved})`);
        } else if (anchor && resolved.endsWith(".md") && !anchorsOf(read(resolved)).has(anchor)) {
          broken.push(`${page}: ${target} (no heading #${anchor} in ${resolved})`);
        }
      }
    }
    assert.deepEqual(broken, []);
  });

  it("docs/dependencies.md gives a reason for every dependency of package.json", () => {
    const manifest = JSON.parse(read("package.json")) as Record<string, Record<string, string> | undefined>;
    const doc = read("docs/dependencies.md");
    const names = Object.keys({ ...manifest.dependencies, ...manifest.devDependencies });
    assert.deepEqual(
      names.filter((name) => !doc.includes(`\`${name}\``)),
      [],
      "dependencies docs/dependencies.md does not explain",
    );
  });

  it("no page states a test count (nothing would keep it true)", () => {
    const counts: string[] = [];
    for (const page of docPages()) {
      for (const m of read(page).matchAll(/\b\d[\d,]* (?:unit |integration |UI )?tests\b/gi)) {
        counts.push(`${page}: "${m[0]}"`);
      }
    }
    assert.deepEqual(counts, []);
  });
});
