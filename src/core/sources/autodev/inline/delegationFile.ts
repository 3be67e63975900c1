/**
 * One delegation file, `.autodev/delegations/{task}-{role}.md`, as Python's
 * `adapters/inline.py` renders it: a YAML frontmatter (`autodev_version`,
 * `task_id`, `role`, `response_path`, `created_at`, `timeout_s`, optional
 * `allowed_tools`), a heading, the `## System Prompt` section (the role's
 * prompt, the task envelope `TASK: … CONTEXT: …`, and the knowledge block
 * `Lessons learned from prior work:` with `- [conf:0.70] text` lines when
 * lessons were injected) and the `## Response Format` section. AutoDev writes
 * the frontmatter's values without escaping, so the frontmatter is read
 * leniently; nothing in the file is followed (paths are rebuilt from task and
 * role by the callers). Never throws.
 */
import * as z from "zod";
import { parse as parseYaml } from "yaml";
import { readWorkspaceStateFile } from "../stateFile";

/** Largest delegation file read (AutoDev's are 5–15 KB; the prompt embeds a diff of at most 8000 characters). */
const MAX_DELEGATION_BYTES = 1024 * 1024;

/** A lesson AutoDev injected into the prompt. */
interface InjectedLesson {
  readonly confidence: number;
  readonly text: string;
}

/** What a delegation file says. */
export interface DelegationFile {
  readonly file: string;
  /** The frontmatter's values as written (strings; `allowed_tools` joined), in file order. */
  readonly frontmatter: ReadonlyArray<readonly [string, string]>;
  readonly taskId: string | null;
  readonly role: string | null;
  readonly responsePath: string | null;
  readonly createdAt: string | null;
  readonly timeoutS: number | null;
  readonly allowedTools: readonly string[];
  /** The `## System Prompt` section (role prompt, task envelope, lessons), trimmed. */
  readonly prompt: string;
  /** The `TASK:` / `AGENT:` / `ACTION:` … block of the prompt, when found. */
  readonly envelope: string | null;
  readonly lessons: readonly InjectedLesson[];
}

const Scalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);
const Frontmatter = z.record(z.string(), z.union([Scalar, z.array(Scalar)]));

function frontmatterOf(text: string): { body: string; values: Record<string, unknown> } {
  const m = /^---\r?\n([\s\S]*?)\r?\n---\r?\n/.exec(text);
  if (!m) return { body: text, values: {} };
  let values: Record<string, unknown> = {};
  try {
    const parsed = Frontmatter.safeParse(parseYaml(m[1], { maxAliasCount: 0 }));
    if (parsed.success) values = parsed.data;
  } catch {
    // Unescaped quotes in a value (AutoDev does not escape them): fall back to `key: value` lines.
  }
  if (Object.keys(values).length === 0) {
    for (const line of m[1].split(/\r?\n/)) {
      const kv = /^([A-Za-z_][\w]*):\s*(.*)$/.exec(line);
      if (kv) values[kv[1]] = kv[2].replace(/^"(.*)"$/, "$1");
    }
  }
  return { body: text.slice(m[0].length), values };
}

/** The prompt: from `## System Prompt` to the last `---` before `## Response Format` (the prompt may hold `---` itself). */
function promptSection(body: string): string | null {
  const start = body.indexOf("\n## System Prompt\n");
  if (start < 0) return null;
  const from = start + "\n## System Prompt\n".length;
  const end = body.lastIndexOf("\n---\n\n## Response Format\n");
  return body.slice(from, end < from ? undefined : end).trim();
}

const LESSON = /^- \[conf:(\d+(?:\.\d+)?)\] (.*)$/;

function lessonsOf(prompt: string): InjectedLesson[] {
  const at = prompt.lastIndexOf("Lessons learned from prior work:\n");
  if (at < 0) return [];
  const out: InjectedLesson[] = [];
  for (const line of prompt.slice(at).split("\n").slice(1)) {
    const m = LESSON.exec(line);
    if (!m) break;
    out.push({ confidence: Number(m[1]), text: m[2] });
  }
  return out;
}

/** The last `TASK: … / AGENT: … / ACTION: …` block (a role's prompt may show the format itself). */
function envelopeOf(prompt: string): string | null {
  let at = -1;
  for (const m of prompt.matchAll(/^TASK: .*\nAGENT: .*\nACTION: /gm)) at = m.index;
  if (at < 0) return null;
  const rest = prompt.slice(at);
  const end = rest.indexOf("\n\nLessons learned from prior work:\n");
  return (end < 0 ? rest : rest.slice(0, end)).trim();
}

function str(v: unknown): string | null {
  return typeof v === "string" ? v : typeof v === "number" || typeof v === "boolean" ? String(v) : null;
}

/** Parses a delegation file's text (`file` is its workspace-relative path). */
function parseDelegation(file: string, text: string): DelegationFile {
  const { body, values } = frontmatterOf(text);
  const tools = values.allowed_tools;
  const allowedTools = Array.isArray(tools) ? tools.map((t) => String(t)) : [];
  const frontmatter = Object.entries(values).map(
    ([k, v]) => [k, Array.isArray(v) ? v.map((x) => String(x)).join(", ") : (str(v) ?? "")] as const,
  );
  const timeout = Number(str(values.timeout_s));
  const prompt = promptSection(body) ?? "";
  return {
    file,
    frontmatter,
    taskId: str(values.task_id),
    role: str(values.role),
    responsePath: str(values.response_path),
    createdAt: str(values.created_at),
    timeoutS: Number.isFinite(timeout) && str(values.timeout_s) !== null ? timeout : null,
    allowedTools,
    prompt,
    envelope: envelopeOf(prompt),
    lessons: lessonsOf(prompt),
  };
}

/** Reads and parses a delegation file of the workspace; `{ error }` when it cannot be read. */
export async function readDelegation(
  cwd: string,
  rel: string,
): Promise<{ ok: true; delegation: DelegationFile } | { ok: false; error: string } | { ok: false; missing: true }> {
  const read = await readWorkspaceStateFile(cwd, rel, MAX_DELEGATION_BYTES);
  if (read.kind === "missing") return { ok: false, missing: true };
  if (read.kind === "error") return { ok: false, error: read.error };
  return { ok: true, delegation: parseDelegation(rel, read.text) };
}
