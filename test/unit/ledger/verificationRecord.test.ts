/**
 * Resuming verification from a stored record: when the record holds, only the
 * latest plan-carrying line and the bytes after it are read (counted at the
 * file-handle level); a changed byte in a sampled block, a truncation, or a
 * replaced file with other history means a full verify flagged as a rewrite.
 * A replaced file that keeps the verified prefix (how Python AutoDev appends:
 * copy + rename) resumes.
 */
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import { LedgerSession } from "../../../src/core/sources/autodev/ledger/ledgerSession";
import { verifyLedger } from "../../../src/core/sources/autodev/ledger/ledgerReader";
import { PlanManager } from "../../../src/core/sources/autodev/ledger/planManager";
import { ledgerPath } from "../../../src/core/sources/autodev/autodevPaths";
import {
  VerificationRecord,
  parseVerificationRecord,
  recordBytesRead,
} from "../../../src/core/sources/autodev/ledger/verificationRecord";
import { planToPy } from "../../../src/core/sources/autodev/plan/schemas";
import { dumpsSorted } from "../../../src/core/pyjson/pyJsonDump";
import { copyFixture } from "../fixtures";

/** Counts the bytes read through every FileHandle while `f` runs. */
async function countingReads<T>(f: () => Promise<T>): Promise<{ value: T; bytes: number }> {
  const probe = await fs.promises.open(__filename, "r");
  const proto = Object.getPrototypeOf(probe) as { read: (...a: unknown[]) => Promise<{ bytesRead: number }> };
  await probe.close();
  const original = proto.read;
  let bytes = 0;
  proto.read = async function (this: unknown, ...a: unknown[]) {
    const r = await original.apply(this, a);
    bytes += r.bytesRead;
    return r;
  };
  try {
    return { value: await f(), bytes };
  } finally {
    proto.read = original;
  }
}

async function grownLedger(moves: number): Promise<string> {
  const dir = copyFixture("python-small");
  const pm = new PlanManager(dir, { sessionId: "t" });
  const ids = ["1.3", "1.4", "2.1", "2.2"];
  const path = ["in_progress", "coded"];
  for (let k = 0; k < moves; k++) {
    await pm.updateTaskStatus(ids[Math.floor(k / 2) % ids.length], path[k % 2]).catch(() => undefined);
  }
  return dir;
}

async function recordOf(dir: string): Promise<VerificationRecord> {
  const s = new LedgerSession(dir);
  await s.refresh();
  assert.equal(s.report.ok, true);
  const r = await s.verificationRecord();
  assert.ok(r);
  // It goes through storage as JSON and comes back through the schema.
  return parseVerificationRecord(JSON.parse(JSON.stringify(r)))!;
}

const planText = (s: LedgerSession) => (s.plan ? dumpsSorted(planToPy(s.plan)) : null);

describe("verification record", function () {
  this.timeout(120_000);

  it("when it holds, reads only the latest plan line and the appended bytes, and ends where a full verify ends", async () => {
    const dir = await grownLedger(6);
    const record = await recordOf(dir);
    await new PlanManager(dir, { sessionId: "t2" }).updateTaskStatus("2.3", "in_progress"); // copy + rename: a new inode
    const size = fs.statSync(ledgerPath(dir)).size;
    const s = new LedgerSession(dir);
    const fp0 = recordBytesRead();
    const { value: u, bytes } = await countingReads(() => s.resume(record));
    const fingerprints = recordBytesRead() - fp0;
    assert.equal(u.mode, "resumed");
    assert.equal(u.rewritten, false);
    assert.equal(u.bytesRead, size - record.resume.offset, "the scan starts at the latest plan line");
    assert.ok(record.resume.offset > size / 2, "the resume point is near the end");
    const lastLine = s.entries[s.entries.length - 1];
    assert.ok(
      bytes <= fingerprints + (size - record.resume.offset) + (lastLine.end - lastLine.start),
      `read ${bytes} bytes`,
    );
    assert.ok(s.partial);
    const full = new LedgerSession(dir);
    await full.refresh();
    assert.equal(s.report.ok, true);
    assert.equal(s.report.entries, full.report.entries);
    assert.deepEqual(s.report.head, full.report.head);
    assert.equal(planText(s), planText(full));
    assert.equal(planText(s), dumpsSorted(planToPy((await verifyLedger(dir)).plan!)));
    assert.deepEqual(s.entries, full.entries.slice(full.entries.length - s.entries.length));
  });

  it("an append's refresh fingerprints its sample blocks only: the new last line is not read again", async () => {
    const dir = await grownLedger(4);
    const s = new LedgerSession(dir);
    await s.refresh();
    await s.verificationRecord();
    // PlanManager's commit path: the status change, then a snapshot of the whole plan (the new last line).
    await new PlanManager(dir, { sessionId: "t2" }).updateTaskStatus("2.3", "in_progress");
    const fp0 = recordBytesRead();
    const u = await s.refresh();
    const record = await s.verificationRecord();
    const fingerprinted = recordBytesRead() - fp0;
    assert.equal(u.mode, "append");
    assert.ok(record);
    const sampled = record.samples.reduce((n, b) => n + (b.end - b.start), 0);
    const last = s.entries[s.entries.length - 1];
    assert.equal(last.op, "snapshot");
    assert.equal(fingerprinted, sampled, `read ${fingerprinted} bytes, ${last.end - last.start} of them the last line`);
    // The record made in passing is the one a fresh session makes of the same file.
    const fresh = await recordOf(dir);
    assert.deepEqual(record.lastLine, fresh.lastLine);
    assert.deepEqual(record.samples, fresh.samples);
    assert.deepEqual(record.head, fresh.head);
  });

  it("a changed byte in a sampled block means a full verify and a rewrite warning", async () => {
    const dir = await grownLedger(4);
    const record = await recordOf(dir);
    const bytes = fs.readFileSync(ledgerPath(dir));
    const at = record.samples[1].start + 10;
    bytes[at] = bytes[at] === 0x61 ? 0x62 : 0x61;
    fs.writeFileSync(ledgerPath(dir), bytes);
    // Same size and inode; with the mtime the record saw (a rewrite that kept it), only the fingerprint can tell.
    const u = await new LedgerSession(dir).resume({ ...record, mtimeMs: fs.statSync(ledgerPath(dir)).mtimeMs });
    assert.equal(u.mode, "full");
    assert.equal(u.rewritten, true);
    assert.match(u.reason ?? "", /changed/);
  });

  it("a truncated ledger means a full verify and a rollback warning", async () => {
    const dir = await grownLedger(4);
    const record = await recordOf(dir);
    fs.truncateSync(ledgerPath(dir), record.resume.offset);
    const s = new LedgerSession(dir);
    const u = await s.resume(record);
    assert.equal(u.mode, "full");
    assert.equal(u.rewritten, true);
    assert.match(u.reason ?? "", /shorter|truncated/);
    assert.equal(s.partial, false);
  });

  it("a replaced file (new inode) with other history means a full verify; an unchanged one resumes with nothing new", async () => {
    const dir = await grownLedger(4);
    const record = await recordOf(dir);
    const same = await new LedgerSession(dir).resume(record);
    assert.equal(same.mode, "resumed");
    const lines = fs.readFileSync(ledgerPath(dir), "utf8").split("\n");
    [lines[1], lines[2]] = [lines[2], lines[1]];
    fs.rmSync(ledgerPath(dir));
    fs.writeFileSync(ledgerPath(dir), lines.join("\n"));
    const u = await new LedgerSession(dir).resume(record);
    assert.equal(u.mode, "full");
    assert.equal(u.rewritten, true);
  });

  it("rejects a stored record that is not one", async () => {
    const dir = await grownLedger(2);
    const record = await recordOf(dir);
    assert.equal(parseVerificationRecord({ ...record, extra: 1 }), null);
    assert.equal(
      parseVerificationRecord({ ...record, lastLine: { ...record.lastLine, end: record.length + 1 } }),
      null,
    );
    assert.equal(parseVerificationRecord({ ...record, version: 2 }), null);
    assert.equal(parseVerificationRecord("{}"), null);
  });
});
