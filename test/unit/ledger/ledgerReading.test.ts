/**
 * Reading the ledger: universal newlines across chunk boundaries, Python's
 * strip, damage classification after the first error, incremental sessions
 * that read only new bytes, time travel, and rewrite detection.
 */
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import { LineSplitter, RawLine } from "../../../src/core/sources/autodev/ledger/read/ledgerLineReader";
import { pyStrip } from "../../../src/core/pyjson/pyBuiltins";
import { verifyLedger } from "../../../src/core/sources/autodev/ledger/ledgerReader";
import { LedgerSession } from "../../../src/core/sources/autodev/ledger/ledgerSession";
import { PlanManager } from "../../../src/core/sources/autodev/ledger/planManager";
import { ledgerPath } from "../../../src/core/sources/autodev/autodevPaths";
import { copyFixture } from "../fixtures";

function split(chunks: string[]): string[] {
  const out: string[] = [];
  const s = new LineSplitter();
  const on = (l: RawLine) => void out.push(`${l.lineNo}:${l.bytes.toString()}${l.terminated ? "" : "|"}`);
  for (const c of chunks) s.push(Buffer.from(c), on);
  s.finish(on);
  return out;
}

describe("ledger reading", function () {
  this.timeout(60_000);

  it("splits on \\n, \\r\\n and a lone \\r, also when \\r\\n straddles two chunks", () => {
    assert.deepEqual(split(["a\nb\r\nc\rd"]), ["1:a", "2:b", "3:c", "4:d|"]);
    assert.deepEqual(split(["a\r", "\nb\r", "c\n", "\n"]), ["1:a", "2:b", "3:c", "4:"]);
    assert.deepEqual(split(["a", "b", "\r", "\r", "\n"]), ["1:ab", "2:"]);
  });

  it("strips like Python's str.strip(), not JavaScript's trim()", () => {
    assert.equal(pyStrip("\x1c\x1d\x1e\x1f\x85 x \u3000"), "x");
    assert.equal(pyStrip("\ufeffx"), "\ufeffx");
  });

  it("keeps going after the first error and classifies the damage", async () => {
    const dir = copyFixture("python-small");
    const lines = fs.readFileSync(ledgerPath(dir), "utf8").split("\n");
    lines[3] = lines[3].replace('"status": "in_progress"', '"status": "in_progrezz"'); // edited in place
    lines.splice(9, 1); // a dropped entry
    lines[lines.length - 2] = lines[lines.length - 2].slice(0, 40); // torn tail, no newline
    fs.writeFileSync(ledgerPath(dir), lines.slice(0, -1).join("\n"));
    const { report } = await verifyLedger(dir);
    assert.equal(report.ok, false);
    assert.equal(report.errors[0].kind, "self_hash_mismatch");
    assert.equal(report.errors[0].line, 4);
    assert.match(
      report.errors[0].message,
      /^ledger line 4: self_hash mismatch \(computed [0-9a-f]{16}, stored [0-9a-f]{16}\)$/,
    );
    const kinds = report.errors.map((e) => e.kind);
    for (const k of ["edited_entry", "dropped_entries", "truncated_tail"]) {
      assert.ok(kinds.includes(k as never), `${k} in ${kinds.join(",")}`);
    }
    assert.equal(report.head?.seq, 3, "the head is the last entry before the first error");
  });

  it("tells a repeated line from a reordered one by the entries seen before it", async () => {
    const dir = copyFixture("python-small");
    const lines = fs.readFileSync(ledgerPath(dir), "utf8").split("\n").filter(Boolean);
    const seqOf = (l: string) => (JSON.parse(l) as { seq: number }).seq;
    const moved = lines[2].replace(/"self_hash": "[0-9a-f]*"/, '"self_hash": "0123456789abcdef"'); // same seq, another entry
    fs.writeFileSync(ledgerPath(dir), [...lines.slice(0, 7), lines[4], ...lines.slice(7), moved, ""].join("\n"));
    const { report } = await verifyLedger(dir);
    const dup = report.errors.find((e) => e.kind === "duplicate_entry");
    assert.ok(dup, report.errors.map((e) => e.kind).join(","));
    assert.equal(dup.line, 8);
    assert.match(dup.message, new RegExp(`repeats the entry of line 5 \\(seq ${seqOf(lines[4])}\\)`));
    const reordered = report.errors.find((e) => e.kind === "reordered_entries");
    assert.ok(reordered, report.errors.map((e) => e.kind).join(","));
    assert.match(reordered.message, new RegExp(`seq ${seqOf(lines[2])} already appeared at line 3`));
  });

  it("a session reads only the appended bytes, and rescans when history changes", async () => {
    const dir = copyFixture("python-small");
    const s = new LedgerSession(dir);
    const first = await s.refresh();
    assert.equal(first.mode, "full");
    assert.equal(s.entries.length, 21);
    const size = fs.statSync(ledgerPath(dir)).size;
    await new PlanManager(dir, { sessionId: "t" }).updateTaskStatus("1.3", "in_progress");
    const second = await s.refresh();
    assert.equal(second.mode, "append");
    assert.equal(second.added, 2);
    assert.equal(second.bytesRead, fs.statSync(ledgerPath(dir)).size - size);
    assert.equal(s.report.ok, true);
    assert.equal(s.entries[21].toStatus, "in_progress");
    assert.equal(s.entries[21].fromStatus, "pending");
    assert.equal((await s.refresh()).mode, "none");
    const remembered = s.rememberable()!;
    // Rewrite history: edit an early line (same length) and re-read.
    const text = fs.readFileSync(ledgerPath(dir), "utf8").split("\n");
    text.splice(20, 3);
    fs.writeFileSync(ledgerPath(dir), text.join("\n"));
    const third = await s.refresh();
    assert.equal(third.mode, "full");
    assert.match(third.reason ?? "", /shrank|changed/);
    assert.equal(s.checkRemembered(remembered)?.kind, "rollback");
  });

  it("time-travels to any seq with replay's rules", async () => {
    const dir = copyFixture("python-small");
    const s = new LedgerSession(dir);
    await s.refresh();
    const at4 = await s.planAt(4);
    assert.equal(at4!.phases[0].tasks[0].status, "in_progress");
    const at5 = await s.planAt(5);
    assert.equal(at5!.phases[0].tasks[0].status, "coded");
    assert.equal(await s.planAt(1).then((p) => p!.phases[0].tasks[0].status), "pending");
    assert.match((await s.entryText(3))!, /"op": "update_task_status"/);
  });
});
