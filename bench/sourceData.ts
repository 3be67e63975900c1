/**
 * The other sources' state at scale, for the bench: each made from the
 * files the real writers produced (test/fixtures/), repeated with fresh ids
 * and times until it has the size asked for, so every record is one a real
 * writer writes. Also each one's "all bad" twin (every line damaged), for
 * the bad-lines-cost-no-more check.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { ROOT } from "./benchRunner";

const FIX = path.join(ROOT, "test", "fixtures");

/** Writes `count` lines made by `line(i)` into `file`, in blocks. */
function writeLines(file: string, count: number, line: (i: number) => string): number {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const fd = fs.openSync(file, "w");
  let bytes = 0;
  try {
    let block: string[] = [];
    for (let i = 0; i < count; i++) {
      block.push(line(i));
      if (block.length === 10_000 || i === count - 1) {
        const text = block.join("\n") + "\n";
        bytes += Buffer.byteLength(text);
        fs.writeSync(fd, text);
        block = [];
      }
    }
  } finally {
    fs.closeSync(fd);
  }
  return bytes;
}

const iso = (i: number) => new Date(Date.UTC(2026, 10, 30, 9, 47, 8) + i * 137).toISOString();

/** An agloop workspace whose `log.json` has `lines` entries (the fixture's entries, new times); `bad`: every line torn. */
export function agloopLog(dir: string, lines: number, bad: boolean): { bytes: number; entries: number } {
  fs.cpSync(path.join(FIX, "agloop-clean", ".agloop"), path.join(dir, ".agloop"), { recursive: true });
  const src = fs
    .readFileSync(path.join(FIX, "agloop-clean", ".agloop", "log.json"), "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  const bytes = writeLines(path.join(dir, ".agloop", "log.json"), lines, (i) => {
    const text = JSON.stringify({ ...src[i % src.length], timestamp: iso(i) });
    return bad ? text.slice(0, text.length >> 1) : text;
  });
  return { bytes, entries: lines };
}

/** An agloop workspace whose `state.json` is about `bytes` bytes: the fixture's tasks repeated with new ids. */
export function agloopState(dir: string, bytes: number): { bytes: number; entries: number } {
  fs.cpSync(path.join(FIX, "agloop-clean", ".agloop"), path.join(dir, ".agloop"), { recursive: true });
  const file = path.join(dir, ".agloop", "state.json");
  const state = JSON.parse(fs.readFileSync(file, "utf8")) as { tasks: Record<string, unknown>[] };
  const base = state.tasks;
  const make = (count: number): string => {
    const tasks: Record<string, unknown>[] = [];
    for (let i = 0; i < count; i++) {
      const t = base[i % base.length];
      const id = `task-${String(i + 1).padStart(6, "0")}`;
      tasks.push({ ...t, id, depends_on: i > 0 && i % 5 !== 0 ? [`task-${String(i).padStart(6, "0")}`] : [] });
    }
    return JSON.stringify({ ...state, tasks, current_task_id: tasks[0].id }, null, 2) + "\n";
  };
  // Sized from a first try of 1,000 tasks (the fixture's tasks differ in size), then made once.
  const probe = Buffer.byteLength(make(1000));
  const count = Math.max(1, Math.round((bytes * 1000) / probe));
  const text = make(count);
  fs.writeFileSync(file, text);
  return { bytes: Buffer.byteLength(text), entries: count };
}

/** An engine_state checkpoint whose `discovery_candidates.jsonl` has `lines` records; `bad`: every line not canonical. */
export function engineState(dir: string, lines: number, bad: boolean): { bytes: number; entries: number } {
  const from = path.join(FIX, "engine-state-small", "engine_state");
  const name = "discovery_candidates.jsonl";
  fs.cpSync(from, path.join(dir, "engine_state"), { recursive: true });
  const src = fs
    .readFileSync(path.join(from, name), "utf8")
    .split("\n")
    .filter((l) => l.trim());
  const bytes = writeLines(path.join(dir, "engine_state", name), lines, (i) => {
    // A new candidate_id per record (64 hex digits, as the writer's sha256), the rest as written.
    const line = src[i % src.length].replace(/"candidate_id":"[0-9a-f]{64}"/, () => {
      const hex = ((i * 2654435761) >>> 0).toString(16).padStart(8, "0");
      return `"candidate_id":"${hex.repeat(8)}"`;
    });
    return bad ? line.replace(/,/g, ", ") : line;
  });
  return { bytes, entries: lines };
}

/** An AutoDev workspace with `count` impl tournaments (the fixture's, under new ids). */
export function tournaments(dir: string, count: number): { bytes: number; entries: number } {
  const from = path.join(FIX, "python-full", "workspace", ".autodev");
  fs.cpSync(from, path.join(dir, ".autodev"), { recursive: true });
  const root = path.join(dir, ".autodev", "tournaments");
  const template = path.join(root, "impl-a4751b99");
  let bytes = 0;
  for (let i = 0; i < count; i++) {
    const to = path.join(root, `impl-${(0x10000000 + i).toString(16)}`);
    fs.cpSync(template, to, { recursive: true });
  }
  for (const f of fs.readdirSync(root, { recursive: true }) as string[]) {
    const st = fs.statSync(path.join(root, f));
    if (st.isFile()) bytes += st.size;
  }
  // Written last: the bench's cache takes the data as complete when it is there.
  fs.writeFileSync(path.join(dir, ".bench-complete"), `${count} tournaments\n`);
  return { bytes, entries: count };
}

/**
 * An AutoDev workspace whose `knowledge.jsonl` has `lines` lessons (the fixture's, new ids and times);
 * `bad`: every line damaged, in turn torn in half (corrupt JSON) and an object that is not a lesson
 * (its `tier` not "swarm" or "hive").
 */
export function knowledge(dir: string, lines: number, bad = false): { bytes: number; entries: number } {
  const from = path.join(FIX, "python-full", "workspace", ".autodev");
  fs.cpSync(from, path.join(dir, ".autodev"), { recursive: true });
  const file = path.join(dir, ".autodev", "knowledge.jsonl");
  const src = fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim());
  const bytes = writeLines(file, lines, (i) =>
    src[i % src.length]
      .replace(/"id":"([a-z]+)-[0-9a-f]{10}-([0-9a-f]{4})"/, (_m, role: string, tail: string) => {
        return `"id":"${role}-${(0x1000000000 + i).toString(16).slice(-10)}-${tail}"`;
      })
      .replace(/"timestamp":"[^"]+"/, `"timestamp":"${iso(i).replace("Z", "000+00:00")}"`)
      .replace(/^.*$/, (line) =>
        !bad ? line : i % 2 === 0 ? line.slice(0, line.length >> 1) : line.replace(/"tier":"[a-z]+"/, '"tier":"nest"'),
      ),
  );
  return { bytes, entries: lines };
}
