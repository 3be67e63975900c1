/**
 * Builds `git diff`-style patches (with `diff --git`, index, new/deleted/rename
 * headers) from before/after text, using the `diff` package for the hunks.
 * Used to generate the demo workspace and benchmark ledgers.
 */
import { createHash } from "node:crypto";
import { structuredPatch } from "diff";

/** One file change: `before` null = added, `after` null = deleted, `oldPath !== newPath` = renamed. */
export interface FileChange {
  readonly oldPath: string;
  readonly newPath: string;
  readonly before: string | null;
  readonly after: string | null;
}

function blobId(text: string | null): string {
  if (text === null) return "0000000";
  const body = Buffer.from(text, "utf8");
  return createHash("sha1").update(`blob ${body.length}\0`).update(body).digest("hex").slice(0, 7);
}

/** A git-style unified diff of several files. */
export function gitStyleDiff(changes: readonly FileChange[]): string {
  let out = "";
  for (const c of changes) {
    out += `diff --git a/${c.oldPath} b/${c.newPath}\n`;
    if (c.before === null) out += "new file mode 100644\n";
    if (c.after === null) out += "deleted file mode 100644\n";
    if (c.oldPath !== c.newPath) out += `similarity index 90%\nrename from ${c.oldPath}\nrename to ${c.newPath}\n`;
    out += `index ${blobId(c.before)}..${blobId(c.after)}${c.before !== null && c.after !== null ? " 100644" : ""}\n`;
    const p = structuredPatch(c.oldPath, c.newPath, c.before ?? "", c.after ?? "", "", "", { context: 3 });
    if (p.hunks.length === 0) continue;
    out += `--- ${c.before === null ? "/dev/null" : `a/${c.oldPath}`}\n+++ ${c.after === null ? "/dev/null" : `b/${c.newPath}`}\n`;
    for (const h of p.hunks) {
      const oldRange =
        h.oldLines === 1
          ? `${h.oldStart}`
          : `${h.oldLines === 0 ? h.oldStart - 1 + (c.before === null ? 1 : 0) : h.oldStart},${h.oldLines}`;
      const newRange =
        h.newLines === 1
          ? `${h.newStart}`
          : `${h.newLines === 0 ? h.newStart - 1 + (c.after === null ? 1 : 0) : h.newStart},${h.newLines}`;
      out += `@@ -${oldRange.replace(/^-?1,0$/, "0,0")} +${newRange.replace(/^-?1,0$/, "0,0")} @@\n`;
      for (const l of h.lines) out += l + "\n";
    }
  }
  return out;
}
