/**
 * Evidence file names as Python's `write_evidence(cwd, task_id, ev)` makes
 * them: `{task_id}-{ev.kind}.json`, where `task_id` is whatever string the
 * caller passed. The plan phase passes "plan-explore" and
 * "plan-domain_expert" for bundles whose content says task "plan", so the
 * files are `plan-explore-explore.json` and
 * `plan-domain_expert-domain_expert.json`. The content's `kind` is trusted;
 * the name must end in `-{kind}.json`, and what precedes it is the writer's
 * task id. The kinds are here, not with the schemas (evidenceSchemas.ts), so the extension host
 * names them without loading the schemas.
 */

/** Every evidence kind, in the order Python's union lists the variants. */
export const EVIDENCE_KINDS = [
  "developer",
  "review",
  "test",
  "explore",
  "domain_expert",
  "critic",
  "tournament",
] as const;
/** An evidence kind (the `kind` discriminator). */
export type EvidenceKind = (typeof EVIDENCE_KINDS)[number];

/** The task id the writer passed, or null when `name` does not end in `-{kind}.json`. */
function writerTaskId(name: string, kind: string): string | null {
  const suffix = `-${kind}.json`;
  return name.endsWith(suffix) && name.length > suffix.length ? name.slice(0, -suffix.length) : null;
}

/** How a bundle found by the `{taskId}-` prefix relates to the listed task. */
export type BundleFit =
  { readonly fit: "own" } | { readonly fit: "other_task" } | { readonly fit: "mismatch"; readonly error: string };

/**
 * Whether bundle `name`, whose content says task `contentTask` kind `kind`,
 * belongs to task `taskId`: its own (the content names the task, or the
 * writer's id is the task and extends the content's id, as the plan phase
 * does), another task's that shares the prefix ("1-2-developer.json" when
 * listing task "1"), or a mismatch.
 */
export function bundleFit(name: string, taskId: string, contentTask: string, kind: string): BundleFit {
  const writer = writerTaskId(name, kind);
  if (writer === null) {
    return {
      fit: "mismatch",
      error: `file name ${name} does not end in -${kind}.json, but the content says kind ${kind}`,
    };
  }
  if (contentTask === taskId) return { fit: "own" };
  if (writer === taskId && taskId.startsWith(`${contentTask}-`)) return { fit: "own" };
  if (writer !== taskId) return { fit: "other_task" };
  return {
    fit: "mismatch",
    error: `file name says task ${writer} kind ${kind}, content says task ${contentTask} kind ${kind}`,
  };
}

/** The kind a file name suggests (for a file whose content could not be read), "?" when none. */
export function kindFromName(name: string, taskId: string): string {
  const known = EVIDENCE_KINDS.find((k) => name.endsWith(`-${k}.json`));
  return (
    known ??
    (name.startsWith(`${taskId}-`) && name.endsWith(".json") ? name.slice(taskId.length + 1, -".json".length) : "?")
  );
}

/**
 * The task a bundle file is grouped under by its name alone: the writer's id
 * without a repeated kind (`plan-explore-explore.json` → "plan"), so the
 * plan phase's bundles sit under "plan".
 */
export function groupTaskId(name: string): string | null {
  const kind = EVIDENCE_KINDS.find((k) => name.endsWith(`-${k}.json`));
  if (!kind) {
    const cut = name.lastIndexOf("-");
    return name.endsWith(".json") && cut > 0 ? name.slice(0, cut) : null;
  }
  const writer = writerTaskId(name, kind);
  if (writer === null) return null;
  return writer.endsWith(`-${kind}`) && writer.length > kind.length + 1 ? writer.slice(0, -(kind.length + 1)) : writer;
}

/** The three places a task's diff can come from. */
export type PatchSource = "patch" | "developer" | "tournament";
/** Every patch source, in the order the tree shows them. */
export const PATCH_SOURCES: readonly PatchSource[] = ["patch", "developer", "tournament"];

/**
 * What a task's `evidence_bundle` points to. Python's execute loop records
 * `.autodev/evidence/{task}-coder.json` on completion but writes the developer's bundle as
 * `{task}-developer.json`: such a dangling name resolves to the bundle AutoDev did write.
 */
export type BundleRef =
  | {
      readonly ok: true;
      readonly file: string;
      readonly exists: boolean;
      /** The evidence file to show: `file` when it exists, else the one AutoDev wrote, else null. */
      readonly resolved: string | null;
      /** Why `resolved` differs from `file`, or null. */
      readonly note: string | null;
    }
  | { readonly ok: false; readonly error: string };

/**
 * The warning about a task's `evidence_bundle` that names no file (`check`'s
 * `evidence_bundle_dangling`, the editor's evidence node), or null when it names one that exists.
 */
export function danglingBundleMessage(taskId: string, ref: BundleRef): string | null {
  if (!ref.ok || ref.exists) return null;
  return `task ${taskId}: ${ref.note ?? `evidence_bundle names .autodev/evidence/${ref.file}, which does not exist`}`;
}

/** Label of a diff source: "1.1.patch", "developer diff (1.1-developer.json)", "tournament final diff (…)". */
export function diffSourceLabel(d: { source: PatchSource; file: string }): string {
  return d.source === "patch"
    ? d.file
    : d.source === "developer"
      ? `developer diff (${d.file})`
      : `tournament final diff (${d.file})`;
}
