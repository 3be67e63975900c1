/**
 * `autodev-state evidence` and `autodev-state diff`: list and validate a
 * task's evidence bundles; summarise its patch per file.
 */
import { ParsedArgs, withOptionalDir } from "./cliArgs";
import { eprintln, printJson, println } from "./cliOutput";
import { requireDir } from "./readCommands";
import { listEvidence, readPatch } from "../core/evidenceStore";
import { summarizeEvidence } from "../core/evidenceSummary";
import { summarizePatch } from "../core/patchModel";

/** `evidence [DIR] TASK [--json]`: exit 1 when any bundle is invalid. */
export async function cmdEvidence(args: ParsedArgs): Promise<number> {
  const { dir, values } = withOptionalDir(args.positionals, ["TASK"]);
  requireDir(dir);
  const task = values[0];
  const items = await listEvidence(dir, task);
  const patch = await readPatch(dir, task);
  const bad = items.filter((i) => !i.ok).length + (patch && !patch.ok ? 1 : 0);
  if (args.switches.has("json")) {
    printJson({
      task_id: task,
      ok: bad === 0,
      bundles: items.map((i) =>
        i.ok ? { file: i.file, kind: i.kind, ok: true, summary: summarizeEvidence(i.evidence) } : { file: i.file, kind: i.kind, ok: false, error: i.error },
      ),
      patch: patch === null ? null : patch.ok ? { file: patch.file, ok: true, files: summarizePatch(patch.text).length } : { file: patch.file, ok: false, error: patch.error },
    });
  } else {
    if (items.length === 0 && !patch) println(`no evidence for task ${task}`);
    for (const i of items) {
      if (i.ok) println(`${i.file}: ${summarizeEvidence(i.evidence)}`);
      else eprintln(`${i.file}: INVALID — ${i.error}`);
    }
    if (patch) {
      if (patch.ok) println(`${patch.file}: patch touching ${summarizePatch(patch.text).length} file(s)`);
      else eprintln(`${patch.file}: INVALID — ${patch.error}`);
    }
  }
  return bad === 0 ? 0 : 1;
}

/** `diff [DIR] TASK [--json]`: one line per file of the task's patch. */
export async function cmdDiff(args: ParsedArgs): Promise<number> {
  const { dir, values } = withOptionalDir(args.positionals, ["TASK"]);
  requireDir(dir);
  const patch = await readPatch(dir, values[0]);
  if (patch === null) {
    eprintln(`task ${values[0]} has no patch (.autodev/evidence/${values[0]}.patch)`);
    return 2;
  }
  if (!patch.ok) {
    eprintln(`${patch.file}: ${patch.error}`);
    return 1;
  }
  const files = summarizePatch(patch.text);
  if (args.switches.has("json")) printJson({ task_id: values[0], files });
  else for (const f of files) println(`${f.change.padEnd(8)} +${f.added} -${f.removed}  ${f.oldPath === f.newPath || !f.oldPath ? f.newPath ?? f.oldPath : `${f.oldPath} → ${f.newPath}`}${f.noNewlineAtEnd ? "  (no newline at end)" : ""}`);
  return 0;
}
