/**
 * Seeded mutations of ledger files for differential tests: raw damage and
 * semantic edits re-chained with valid hashes.
 */
import { computeHash } from "../../../src/core/sources/autodev/ledger/ledgerHash";
import { parsePyJson } from "../../../src/core/pyjson/pyJsonParse";
import { dumpsSorted } from "../../../src/core/pyjson/pyJsonDump";
import { ledgerEntryHashInput, validateLedgerEntry } from "../../../src/core/sources/autodev/plan/schemas";
import { PyFloat, PyObject, PyValue, isPyObject } from "../../../src/core/pyjson/pyValue";
import { SeededRandom } from "../../../src/core/seededRandom";

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

/** The edits of {@link snapshotNeighbourEdits}: a regexp on a task's text and its replacement. */
const NEIGHBOUR_EDITS: readonly [string, RegExp, string][] = [
  ["a letter of the description", /("description": "[A-Z])([a-z])/, "$1q"],
  ["retry_count 0 → 1", /"retry_count": 0/, '"retry_count": 1'],
  ["the id", /("id": "\d+\.)(\d+)(")/, "$19$2$3"],
  ["a second status", /"status": "[a-z_]+"/, '"status": "skipped"'],
  ["met false → 0 (valid JSON, not canonical)", /"met": false/, '"met": 0'],
  ["a double space after a comma (valid JSON, not canonical)", /, "files"/, ',  "files"'],
  ["escalated false → true", /"escalated": false/, '"escalated": true'],
  ["a \\u escape of a plain letter (valid JSON, not canonical)", /("title": "[A-Z])([a-z])/, "$1\\u0071"],
  // Edits of the task's length: a shortcut that compares a task by its size and ends must catch them.
  ["status pending → pendinx (not a status)", /"status": "pending"/, '"status": "pendinx"'],
  ["escalated false → 12345 (not a bool)", /"escalated": false/, '"escalated": 12345'],
  [
    "escalated and evidence_bundle swapped (valid JSON, keys not sorted)",
    /"escalated": false, "evidence_bundle": null/,
    '"evidence_bundle": null, "escalated": false',
  ],
  ["retry_count 0 → 9", /"retry_count": 0/, '"retry_count": 9'],
];

/**
 * Snapshots whose only change from the snapshot before them is the status
 * the entry between set (PlanManager's shape), each changed in one more
 * place — in a task the entry did not touch — once re-chained (valid hashes:
 * the edit is the plan's) and once not (the stored self_hash is stale), in
 * the last such snapshot (it is the replayed plan) and in an earlier one.
 * A verifier that checks such a snapshot only by its difference from the one
 * before must still catch every edit.
 */
export function snapshotNeighbourEdits(base: Buffer): { bytes: Buffer; mutation: string }[] {
  const ls = lines(base);
  const op = (i: number) => /^\{"op": "([a-z_]+)"/.exec(ls[i])?.[1];
  const taskOf = (i: number) => /"task_id": "([^"]+)"/.exec(ls[i])?.[1];
  const targets: number[] = [];
  for (let i = 2; i < ls.length; i++) {
    if (op(i) === "snapshot" && op(i - 1) === "update_task_status" && op(i - 2) === "snapshot") targets.push(i);
  }
  const picks = [...new Set([targets[Math.floor(targets.length / 2)], targets[targets.length - 1]])];
  const out: { bytes: Buffer; mutation: string }[] = [];
  // Each pick twice: as written, and with its phases the previous snapshot's (the entry between
  // undone), so the edit is the only difference from the snapshot before (sizes included).
  const phasesOf = (l: string) => [l.indexOf('"phases": '), l.indexOf(', "plan_id": ')] as const;
  const variants = picks.flatMap((k) => {
    const [a, b] = phasesOf(ls[k]);
    const [c, d] = phasesOf(ls[k - 2]);
    return [
      { k, line: ls[k], how: "" },
      {
        k,
        line: ls[k].slice(0, a) + ls[k - 2].slice(c, d) + ls[k].slice(b),
        how: ", phases otherwise the previous snapshot's",
      },
    ];
  });
  for (const { k, line, how } of variants) {
    const changed = how ? "" : taskOf(k - 1);
    // Each task's text, from its `{"acceptance"` to the end of its title; those the entry before did not touch.
    const tasks = [...line.matchAll(/\{"acceptance": /g)]
      .map((m) => [m.index, line.indexOf('"}', line.indexOf('"title": ', m.index)) + 1] as const)
      .filter(([s, e]) => !line.slice(s, e).includes(`"id": "${changed}"`));
    for (const [what, re, by] of NEIGHBOUR_EDITS) {
      const hit = tasks.find(([s, e]) => re.test(line.slice(s, e)));
      if (hit === undefined) continue;
      const [s0, e0] = hit;
      const edited = [...ls];
      edited[k] = line.slice(0, s0) + line.slice(s0, e0).replace(re, by) + line.slice(e0);
      const where = `line ${k + 1}: ${what} in a task the entry before did not touch${how}`;
      out.push({ bytes: join(edited), mutation: `${where} (stale hash)` });
      out.push({ bytes: join(rechainRaw(edited, k)), mutation: `${where} (re-chained)` });
    }
  }
  return out;
}

/**
 * Re-chains from `from` on as Python's writer would hash each entry (over its
 * dump), but keeps line `from`'s own bytes (a non-canonical edit stays as it is).
 */
function rechainRaw(ls: string[], from: number): string[] {
  const out = rechain(ls, from);
  const dumped = parsePyJson(out[from]) as PyObject;
  const prev = dumped.get("prev_hash") as string;
  const self = dumped.get("self_hash") as string;
  out[from] = ls[from]
    .replace(/"prev_hash": "[0-9a-f]*"/, `"prev_hash": "${prev}"`)
    .replace(/"self_hash": "[0-9a-f]*"/, `"self_hash": "${self}"`);
  return out;
}
