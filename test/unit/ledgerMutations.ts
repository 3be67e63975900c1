/**
 * Seeded mutations of ledger files for differential tests: raw damage and
 * semantic edits re-chained with valid hashes.
 */
import { computeHash } from "../../src/core/sources/autodev/ledger/ledgerHash";
import { parsePyJson } from "../../src/core/pyjson/pyJsonParse";
import { dumpsSorted } from "../../src/core/pyjson/pyJsonDump";
import { ledgerEntryHashInput, validateLedgerEntry } from "../../src/core/sources/autodev/plan/schemas";
import { PyFloat, PyObject, PyValue, isPyObject } from "../../src/core/pyjson/pyValue";
import { SeededRandom } from "../../src/core/seededRandom";

function lines(buf: Buffer): string[] {
  return buf
    .toString("utf8")
    .split("\n")
    .filter((l, i, a) => i < a.length - 1 || l.length > 0);
}

function join(ls: string[], nl = "\n"): Buffer {
  return Buffer.from(ls.map((l) => l + nl).join(""), "utf8");
}

/** Re-chains lines from index `from` on: fresh prev_hash/self_hash so only the semantic edit remains. */
function rechain(ls: string[], from: number): string[] {
  const out = ls.slice();
  let prev = "";
  for (let i = 0; i < out.length; i++) {
    const obj = parsePyJson(out[i]) as PyObject;
    if (i >= from) {
      obj.set("prev_hash", prev);
      const v = validateLedgerEntry(obj);
      const hashInput = v.ok ? ledgerEntryHashInput(v.value) : new Map([...obj].filter(([k]) => k !== "self_hash"));
      obj.set("self_hash", computeHash(hashInput));
      out[i] = dumpsSorted(obj);
    }
    const sh = obj.get("self_hash");
    prev = typeof sh === "string" ? sh : "";
  }
  return out;
}

const STATUS_EDITS: [string, PyValue][] = [
  ["status", "done"],
  ["status", "complete"],
  ["status", 5],
  ["task_id", "9.9"],
  ["task_id", 11],
  ["retry_count", "3"],
  ["retry_count", new PyFloat(2.7)],
  ["retry_count", "x"],
  ["retry_count", true],
  ["retry_count", null],
  ["retry_count", " 4 "],
  ["retry_count", new PyFloat(Number.NaN)],
  ["escalated", "false"],
  ["escalated", 0],
  ["escalated", []],
  ["escalated", new PyFloat(Number.NaN)],
  ["blocked_reason", 5],
  ["evidence_bundle", new Map([["x", 1]])],
  ["blocked_reason", "réason ☃ \u{1F600}"],
];

/** Applies one random mutation; returns the new bytes and a description. */
export function mutateLedger(base: Buffer, rng: SeededRandom): { bytes: Buffer; mutation: string } {
  const ls = lines(base);
  const k = rng.below(ls.length);
  const r = rng.below(26);
  switch (r) {
    case 0:
      return { bytes: join(ls.filter((_, i) => i !== k)), mutation: `drop line ${k + 1}` };
    case 1:
      return { bytes: join([...ls.slice(0, k + 1), ls[k], ...ls.slice(k + 1)]), mutation: `duplicate line ${k + 1}` };
    case 2: {
      const j = Math.min(k + 1, ls.length - 1);
      const s = ls.slice();
      [s[k], s[j]] = [s[j], s[k]];
      return { bytes: join(s), mutation: `swap lines ${k + 1},${j + 1}` };
    }
    case 3: {
      const b = Buffer.from(base);
      const at = rng.below(b.length);
      b[at] = b[at] === 0x61 ? 0x62 : 0x61;
      return { bytes: b, mutation: `byte ${at} changed` };
    }
    case 4:
      return { bytes: base.subarray(0, rng.below(base.length)), mutation: "truncated" };
    case 5:
      return { bytes: join(ls, "\r\n"), mutation: "CRLF newlines" };
    case 6:
      return { bytes: join(ls, "\r"), mutation: "CR newlines" };
    case 7:
      return { bytes: Buffer.concat([Buffer.from("\ufeff"), base]), mutation: "BOM" };
    case 8:
      return {
        bytes: join(ls.map((l, i) => (i === k ? `\x1c\x85 \t${l}\u3000` : l))),
        mutation: `python-whitespace around line ${k + 1}`,
      };
    case 9:
      return { bytes: join(ls.map((l, i) => (i === k ? `\ufeff${l}` : l))), mutation: `U+FEFF before line ${k + 1}` };
    case 10:
      return { bytes: join([...ls.slice(0, k), "", "   ", ...ls.slice(k)]), mutation: `blank lines before ${k + 1}` };
    case 11:
      return {
        bytes: join([...ls.slice(0, k), "{not json", ...ls.slice(k)]),
        mutation: `garbage line before ${k + 1}`,
      };
    case 12:
      return {
        bytes: Buffer.concat([base.subarray(0, base.length - 1), Buffer.from([0xff, 0x0a])]),
        mutation: "invalid UTF-8 at end",
      };
    case 13: {
      const s = ls.slice();
      s[k] = s[k].replace(/"prev_hash": "[0-9a-f]*"/, '"prev_hash": "00000000deadbeef"');
      return { bytes: join(s), mutation: `prev_hash of line ${k + 1} replaced` };
    }
    case 14: {
      // Drop the first two entries, renumber, re-chain: the ledger now starts with a non-plan op.
      const rest = ls.slice(2).map((l, i) => {
        const o = parsePyJson(l) as PyObject;
        o.set("seq", i + 1);
        return dumpsSorted(o);
      });
      return { bytes: join(rechain(rest, 0)), mutation: "genesis dropped, renumbered and re-chained" };
    }
    default:
      return semantic(ls, k, rng);
  }
}

function semantic(ls: string[], k: number, rng: SeededRandom): { bytes: Buffer; mutation: string } {
  const s = ls.slice();
  const obj = parsePyJson(s[k]) as PyObject;
  const payload = obj.get("payload") as PyObject;
  const plan = isPyObject(payload) ? payload.get("plan") : undefined;
  const r = rng.below(12);
  let what: string;
  if (r <= 4 && obj.get("op") === "update_task_status") {
    const [key, value] = rng.pick(STATUS_EDITS);
    payload.set(key, value);
    what = `payload.${key} = ${dumpsSorted(value)}`;
  } else if (r <= 4 && isPyObject(plan)) {
    const phases = plan.get("phases") as PyValue[];
    const task = ((phases[0] as PyObject).get("tasks") as PyValue[])[0] as PyObject;
    const edit = rng.below(6);
    if (edit === 0) task.delete("title");
    else if (edit === 1) task.set("surprise", 1);
    else if (edit === 2) task.set("status", "weird");
    else if (edit === 3) task.set("retry_count", "7");
    else if (edit === 4) task.set("escalated", "yes");
    else task.set("met_or_not", null);
    what = `plan task edit ${edit}`;
  } else if (r === 5 && isPyObject(plan)) {
    payload.delete("plan");
    what = "payload.plan removed";
  } else if (r === 6) {
    obj.set("op", rng.pick(["mark_complete", "mark_blocked", "append_evidence", "bogus_op", "snapshot"]));
    what = `op → ${obj.get("op")}`;
  } else if (r === 7) {
    obj.set("seq", rng.pick<PyValue>([String(obj.get("seq")), new PyFloat(Number(obj.get("seq"))), " 3", true]));
    what = `seq → ${dumpsSorted(obj.get("seq")!)}`;
  } else if (r === 8) {
    obj.delete("payload");
    what = "payload removed";
  } else if (r === 9) {
    obj.set("extra", 1);
    what = "extra top-level field";
  } else if (r === 10) {
    obj.set("session_id", 42);
    what = "session_id not a string";
  } else {
    payload.set("note", new PyFloat(rng.pick([1e-7, 2.0, 1e16, Number.POSITIVE_INFINITY, -0])));
    what = "payload float";
  }
  s[k] = dumpsSorted(obj);
  return { bytes: join(rechain(s, k)), mutation: `line ${k + 1}: ${what} (re-chained)` };
}
