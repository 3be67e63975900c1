/**
 * The demo's knowledge store: swarm lessons in `.autodev/knowledge.jsonl` and one rejected lesson
 * in `.autodev/rejected_lessons.jsonl`, each line a `KnowledgeEntry` / `RejectedLesson` in the key
 * order and compact layout AutoDev's `_write_jsonl` gives them (`json.dumps(separators=(",", ":"),
 * ensure_ascii=False)`, one per line; the recorded run's knowledge.jsonl is the reference the unit
 * test holds this to). Before the pending reviewer delegation is written the lessons are selected
 * as `inject_block` selects them (ranked, at most `max_inject_count`, none for a denylisted role)
 * and their `applied_count` raised by one, as AutoDev does; the hive is not read (it is the user's
 * own file), so lessons of a real hive would be missing from the demo's delegation.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { isoNow } from "../core/sources/autodev/ledger/ledgerWriter";
import { rankLesson } from "../core/sources/autodev/knowledge/knowledgeReader";
import { AUTODEV_DIR, KNOWLEDGE_FILE, REJECTED_LESSONS_FILE } from "../core/sources/autodev/autodevPaths";
import type { InjectedLesson } from "./demoInline";

/** A `KnowledgeEntry` as `model_dump(mode="json")` orders its keys. */
export interface DemoLesson {
  id: string;
  timestamp: string;
  role_source: string;
  tier: "swarm";
  text: string;
  confidence: number;
  applied_count: number;
  succeeded_after_count: number;
  confirmations: number;
  metadata: Record<string, never>;
}

const DAY_MS = 86_400_000;

/** The demo's lessons as of `nowMs`: what the run learnt on the way (ids as `_fresh_id` makes them). */
export function demoLessons(nowMs: number): DemoLesson[] {
  const lesson = (
    id: string,
    daysAgo: number,
    role: string,
    text: string,
    confidence: number,
    applied: number,
    confirmations: number,
  ): DemoLesson => ({
    id,
    timestamp: isoNow(nowMs - daysAgo * DAY_MS),
    role_source: role,
    tier: "swarm",
    text,
    confidence,
    applied_count: applied,
    succeeded_after_count: 0,
    confirmations,
    metadata: {},
  });
  return [
    lesson(
      "develope-3c9e1f07a2-7b1d",
      2.5,
      "developer",
      "Keep conversion factors in one table; no if-chain per unit.",
      0.85,
      6,
      2,
    ),
    lesson(
      "reviewer-a81d44c2e9-02fe",
      2.1,
      "reviewer",
      "Exact factors only: 1 mi = 1609.344 m, never a rounded constant.",
      0.8,
      4,
      2,
    ),
    lesson(
      "test_eng-5f02b7d6c1-9a43",
      1.2,
      "test_engineer",
      "Run pytest from the project root; tests import units from src/.",
      0.7,
      3,
      1,
    ),
    lesson(
      "develope-e4a6093b5d-c6f8",
      0.3,
      "developer",
      "A config error names the unknown key and exits with status 2.",
      0.65,
      0,
      1,
    ),
  ];
}

/** `_write_jsonl`'s line of one entry; refuses what JSON.stringify would write otherwise than Python (an integral float). */
function jsonlLine(entry: object): string {
  for (const [k, v] of Object.entries(entry)) {
    if (k === "confidence" && Number.isInteger(v)) throw new Error(`confidence ${String(v)}: Python writes a float`);
  }
  return JSON.stringify(entry);
}

/** The file `_write_jsonl` writes for `entries`. */
export function jsonlText(entries: readonly object[]): string {
  return entries.length ? entries.map(jsonlLine).join("\n") + "\n" : "";
}

/**
 * `inject_block(role)`: the swarm lessons ranked highest first, at most `cap`, none for a role on
 * the denylist; raises the chosen ones' `applied_count` in `lessons` as AutoDev does.
 */
export function injectLessons(
  lessons: DemoLesson[],
  role: string,
  knowledge: { max_inject_count: number; denylist_roles: readonly string[] },
  nowMs: number,
): InjectedLesson[] {
  if (knowledge.denylist_roles.includes(role) || knowledge.max_inject_count <= 0) return [];
  const nowS = nowMs / 1000;
  const chosen = [...lessons]
    .sort((a, b) => rankLesson(b, nowS) - rankLesson(a, nowS))
    .slice(0, knowledge.max_inject_count);
  const texts = chosen.map((e) => ({ confidence: e.confidence, text: e.text }));
  for (const e of chosen) e.applied_count += 1;
  return texts;
}

/** Writes the swarm file and the rejected lessons into `dir/.autodev/`. */
export function writeDemoKnowledge(dir: string, lessons: readonly DemoLesson[], nowMs: number): void {
  fs.writeFileSync(path.join(dir, AUTODEV_DIR, KNOWLEDGE_FILE), jsonlText(lessons));
  const rejected = {
    id: "develope-71b0c5e3d8-4e2a",
    text: "Round every result to two decimals.",
    reason: "precision is the user's option (task 2.4), not a rule",
    rejected_at: isoNow(nowMs - 1.5 * DAY_MS),
  };
  fs.writeFileSync(path.join(dir, AUTODEV_DIR, REJECTED_LESSONS_FILE), jsonlText([rejected]));
}
