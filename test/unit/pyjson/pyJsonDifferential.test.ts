/**
 * Differential test of the Python-compatible JSON layer against python3 itself.
 *
 * A seeded generator writes hostile JSON documents as text (all Unicode planes raw
 * and escaped, lone surrogates, huge ints, odd floats, duplicate and oddly-sorting
 * keys, deep nesting, ~10% broken documents); `test/python/oracles/json_oracle.py` runs
 * `json.loads` / `json.dumps` on all of them in one process, and every answer must
 * match ours byte for byte: accept/reject, error class and message, both dumps, sha256.
 */
import * as assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { dumpsIndent2, dumpsSorted } from "../../../src/core/pyjson/pyJsonDump";
import { parsePyJson, PyJsonError } from "../../../src/core/pyjson/pyJsonParse";
import { SeededRandom as SharedRandom } from "../../../src/core/seededRandom";

const SEED = 0x5eed2024;
const DOCUMENT_COUNT = 12_000;

/** The shared PRNG plus digit strings for number literals. */
class SeededRandom extends SharedRandom {
  digits(count: number, nonZeroFirst: boolean): string {
    let out = nonZeroFirst ? String(1 + this.below(9)) : "";
    while (out.length < count) out += String(this.below(10));
    return out;
  }
}

const LITERALS = ["null", "true", "false", "NaN", "Infinity", "-Infinity"];
const FIXED_INTS = [
  "0",
  "-0",
  "1",
  "-1",
  "999999999999999",
  "1000000000000000",
  "-1000000000000000",
  "9007199254740991",
  "9007199254740992",
  "9007199254740993",
  "-9007199254740993",
  "18446744073709551615",
  "18446744073709551616",
  "-18446744073709551617",
  "123456789012345678901234567890",
];
const FIXED_FLOATS = [
  "1e-7",
  "2.0",
  "-0.0",
  "1E400",
  "-1e400",
  "5e-324",
  "1.7976931348623157e308",
  "1.7976931348623159e308",
  "0.1",
  "1e16",
  "123456789012345678.0",
  "1e-5",
  "0.0001",
  "1e22",
  "1e21",
  "1e23",
  "1.5",
  "100.0",
  "4.35",
  "2.5E-3",
  "1e+2",
  "1E-0",
  "0.0",
  "-0.0e0",
  "9007199254740993.0",
  "2.4703282292062328e-324",
  "2.2250738585072014e-308",
  "0.30000000000000004",
  "1234567890123456.0",
  "12345678901234567.0",
  "1e0001",
  "-1.0E+16",
  "0.00009999999999999999",
];
/** Keys chosen for duplicate handling and for code point vs UTF-16 sort order. */
const TRICKY_KEYS = [
  '"10"',
  '"9"',
  '"0"',
  '"-1"',
  '"1"',
  '"a"',
  '"A"',
  '""',
  '"aa"',
  '"\\uffff"',
  '"\uffff"',
  '"\\ud83d\\ude00"',
  '"\u{1f600}"',
  '"\\ue000"',
  '"\ue000"',
  '"\\ud800"',
  '"\\udc00"',
  '"\\uDBFF\\uDFFF"',
  '"\u00e9"',
  '"\\u00e9"',
  '"a\\u0000"',
  '"\\ud800\\u0041"',
  '"\\udc00\\ud800"',
  '"\ufb01"',
  '"\u{10ffff}"',
  '"\\ud83d"',
  '"\\ud83d\\ude00x"',
  '"\\ud83d\\ue000"',
  '"\\ud83d\\uFFFF"',
  '"\\ud83dx"',
  '"\\ud83d\\udfff"',
];
const RAW_SPECIALS = [
  "\u2028",
  "\u2029",
  "\u0085",
  "\u007f",
  "\u00a0",
  "\ufeff",
  "\ufffd",
  "\ufffe",
  "\uffff",
  "\u{1f600}",
];
const BAD_NUMBERS = [
  "01",
  "+1",
  ".5",
  "1.",
  "-",
  "1e",
  "1.e5",
  "0x10",
  "-01",
  "1e+",
  "--1",
  "1_000",
  "\u0661",
  "00",
  "-.5",
  "1.5.2",
  "Infinity1",
  "nan",
  "-nan",
  "inf",
  "NAN",
  "infinity",
  "True",
  "None",
  "nul",
  "tru",
  "-Inf",
  "1 2",
];
const BAD_ESCAPES = ["\\x41", "\\u12", "\\U0041", "\\'", "\\a", "\\0", "\\u00G0", "\\ud83d\\uZZZZ", "\\", "\\u"];
const BAD_WHITESPACE = ["\f", "\v", "\u00a0", "\u2028", "\u0085", "\ufeff", "\u3000"];
const EXTRA_DATA = [" 1", "]", "}", ",", "x", "{}", " []", '"a"', "\t0", "\u00a0", " null"];

/** Writes hostile JSON documents as text. */
class HostileJsonGenerator {
  private budget = 0;

  constructor(private readonly rng: SeededRandom) {}

  document(): string {
    const r = this.rng;
    this.budget = 8 + r.below(40);
    let doc: string;
    const kind = r.below(100);
    if (kind < 40) doc = this.value(0, 1 + r.below(6));
    else if (kind < 55) doc = this.chain(1 + r.below(60));
    else if (kind < 65) doc = this.scalar();
    else if (kind < 75) doc = this.object(0, 1, 5 + r.below(20));
    else if (kind < 85) doc = this.list(Array.from({ length: 1 + r.below(30) }, () => this.number()));
    else doc = this.list(Array.from({ length: 1 + r.below(10) }, () => this.string()));
    if (r.chance(0.1)) doc = this.ws() + doc + this.ws();
    return r.chance(0.12) ? this.breakDocument(doc) : doc;
  }

  private ws(): string {
    return this.rng.chance(0.7) ? "" : this.rng.pick([" ", "\t", "  ", " \t ", "\t\t", "    "]);
  }

  private value(depth: number, maxDepth: number): string {
    this.budget--;
    if (depth < maxDepth && this.budget > 0 && this.rng.chance(0.45)) {
      const size = this.rng.below(6);
      if (this.rng.chance(0.5)) return this.object(depth + 1, maxDepth, size);
      return this.list(Array.from({ length: size }, () => this.value(depth + 1, maxDepth)));
    }
    return this.scalar();
  }

  /** `levels` nested containers, each maybe with a few scalar siblings. */
  private chain(levels: number): string {
    let inner = this.scalar();
    for (let level = 0; level < levels; level++) {
      const siblings = this.rng.chance(0.3) ? [this.scalar()] : [];
      if (this.rng.chance(0.5)) {
        const items = this.rng.chance(0.5) ? [...siblings, inner] : [inner, ...siblings];
        inner = this.list(items);
      } else {
        inner = `{${this.ws()}${this.key()}${this.ws()}:${this.ws()}${inner}${this.ws()}}`;
      }
    }
    return inner;
  }

  private list(items: string[]): string {
    return `[${this.ws()}${items.join(`${this.ws()},${this.ws()}`)}${this.ws()}]`;
  }

  private object(depth: number, maxDepth: number, size: number): string {
    const keys: string[] = [];
    const members: string[] = [];
    for (let i = 0; i < size; i++) {
      const key = keys.length > 0 && this.rng.chance(0.15) ? this.rng.pick(keys) : this.key();
      keys.push(key);
      members.push(`${key}${this.ws()}:${this.ws()}${this.value(depth, maxDepth)}`);
    }
    return `{${this.ws()}${members.join(`${this.ws()},${this.ws()}`)}${this.ws()}}`;
  }

  private key(): string {
    return this.rng.chance(0.5) ? this.rng.pick(TRICKY_KEYS) : this.string();
  }

  private scalar(): string {
    const k = this.rng.below(10);
    if (k < 2) return this.rng.pick(LITERALS);
    if (k < 6) return this.number();
    return this.string();
  }

  private string(): string {
    const length = this.rng.chance(0.05) ? this.rng.below(200) : this.rng.below(12);
    let body = "";
    for (let i = 0; i < length; i++) body += this.stringPiece();
    return `"${body}"`;
  }

  /** `\uXXXX` with each hex digit in random case. */
  private escape(code: number): string {
    let hex = code.toString(16).padStart(4, "0");
    hex = Array.from(hex, (d) => (this.rng.chance(0.5) ? d.toUpperCase() : d)).join("");
    return "\\u" + hex;
  }

  private stringPiece(): string {
    const r = this.rng;
    switch (r.below(12)) {
      case 0:
      case 1:
      case 2: {
        const c = String.fromCharCode(0x20 + r.below(95));
        return c === '"' || c === "\\" ? "q" : c;
      }
      case 3:
        return r.pick(['\\"', "\\\\", "\\/", "\\b", "\\f", "\\n", "\\r", "\\t"]);
      case 4:
        return this.escape(r.below(0x10000));
      case 5: {
        const astral = 0x10000 + r.below(0x100000);
        return this.escape(0xd800 + ((astral - 0x10000) >> 10)) + this.escape(0xdc00 + (astral & 0x3ff));
      }
      case 6:
        return this.escape(0xd800 + r.below(0x800));
      case 7: {
        const c = r.chance(0.5) ? 0x80 + r.below(0xd800 - 0x80) : 0xe000 + r.below(0x2000);
        return String.fromCharCode(c);
      }
      case 8:
        return String.fromCodePoint(0x10000 + r.below(0x100000));
      case 9:
        return r.pick(RAW_SPECIALS);
      case 10:
        return this.escape(0xd800 + r.below(0x400)) + r.pick(["\u{1f600}", "\\u0041", "\\n", "x", this.escape(0xd800)]);
      default:
        return this.escape(r.chance(0.8) ? r.below(0x20) : 0x7f);
    }
  }

  private number(): string {
    const r = this.rng;
    const sign = r.chance(0.3) ? "-" : "";
    switch (r.below(10)) {
      case 0:
        return r.pick(FIXED_INTS);
      case 1:
        return r.pick(FIXED_FLOATS);
      case 2:
        return String(r.below(2000) - 1000);
      case 3:
        return sign + r.digits(1 + r.below(40), true);
      case 4:
        return sign + r.digits(r.chance(0.03) ? 1000 + r.below(3300) : 20 + r.below(300), true);
      case 5:
      case 6:
        return this.bitPatternFloat();
      case 7: {
        const whole = r.chance(0.3) ? "0" : r.digits(1 + r.below(20), true);
        const fraction = r.chance(0.7) ? "." + r.digits(1 + r.below(25), false) : "";
        const exponent =
          fraction === "" || r.chance(0.5)
            ? r.pick(["e", "E"]) + r.pick(["", "+", "-"]) + r.digits(1 + r.below(3), false)
            : "";
        return sign + whole + (fraction || exponent ? fraction + exponent : ".0");
      }
      case 8:
        return `${sign}${r.digits(1 + r.below(17), true)}e${r.chance(0.5) ? -300 - r.below(40) : 280 + r.below(40)}`;
      default:
        return `${sign}1${r.pick(["", ".0", ".5"])}e${r.below(40) - 15}`;
    }
  }

  /** A double from random bits (sometimes subnormal or integral) in one of many notations. */
  private bitPatternFloat(): string {
    const r = this.rng;
    const view = new DataView(new ArrayBuffer(8));
    view.setUint32(0, r.chance(0.1) ? r.below(0x100000) | (r.chance(0.5) ? 0x80000000 : 0) : r.next());
    view.setUint32(4, r.next());
    let x = view.getFloat64(0);
    if (r.chance(0.2)) x = (r.next() * 2097152 + r.below(2097152)) * 2 ** (r.below(120) - 60);
    if (!Number.isFinite(x)) return String(x);
    const notations = [
      () => String(x),
      () => x.toExponential(),
      () => x.toExponential(r.below(21)),
      () => x.toPrecision(1 + r.below(21)),
      () => (Math.abs(x) < 1e21 ? x.toFixed(r.below(21)) : String(x)),
      () => String(x).toUpperCase(),
      () => x.toExponential().replace("e+", "e"),
      () => x.toPrecision(17),
    ];
    return r.pick(notations)();
  }

  /** Applies one of many corruptions; most make the document invalid. */
  private breakDocument(doc: string): string {
    const r = this.rng;
    const at = (i: number) => (isLowSurrogate(doc.charCodeAt(i)) ? i + 1 : i);
    const insertAt = (i: number, text: string) => doc.slice(0, at(i)) + text + doc.slice(at(i));
    const indexOfAny = (chars: string) => {
      const found: number[] = [];
      for (let i = 0; i < doc.length; i++) if (chars.includes(doc[i])) found.push(i);
      return found.length > 0 ? r.pick(found) : -1;
    };
    const pos = r.below(doc.length + 1);
    switch (r.below(12)) {
      case 0:
        return doc.slice(0, at(pos));
      case 1: {
        const i = indexOfAny("]}");
        return i < 0 ? doc + "," : insertAt(i, r.pick([",", " ,", ",\t"]));
      }
      case 2: {
        const i = indexOfAny('"');
        return i < 0 ? `'${doc}'` : doc.slice(0, i) + "'" + doc.slice(i + 1);
      }
      case 3: {
        const i = indexOfAny('"');
        return insertAt(i < 0 ? pos : i + 1, r.pick(BAD_ESCAPES));
      }
      case 4: {
        const control = String.fromCharCode(r.pick([0, 1, 8, 9, 11, 12, 27, 31]));
        const i = indexOfAny('"');
        return insertAt(i < 0 ? pos : i + 1, control);
      }
      case 5: {
        const numbers = [...doc.matchAll(/-?\d+(\.\d+)?([eE][-+]?\d+)?/g)];
        if (numbers.length === 0) return `[${r.pick(BAD_NUMBERS)}]`;
        const m = r.pick(numbers);
        return doc.slice(0, m.index) + r.pick(BAD_NUMBERS) + doc.slice((m.index as number) + m[0].length);
      }
      case 6:
        return doc + r.pick(EXTRA_DATA);
      case 7: {
        const i = indexOfAny(",:[");
        return insertAt(i < 0 ? pos : i + 1, r.pick(BAD_WHITESPACE));
      }
      case 8:
        return doc.slice(0, at(pos)) + doc.slice(at(at(pos) + 1));
      case 9:
        return insertAt(pos, r.pick(["{", "}", "[", "]", ",", ":", '"', "\\", " ", "0", "e", ".", "-", "+"]));
      case 10: {
        const i = indexOfAny(":,");
        return i < 0 ? "\ufeff" + doc : doc.slice(0, i) + " " + doc.slice(i + 1);
      }
      default:
        return r.chance(0.5) ? "\ufeff" + doc : doc.slice(0, Math.max(0, doc.lastIndexOf(r.pick(["]", "}"]))));
    }
  }
}

function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

/** Documents placed at fixed boundaries: int digit limit, nesting limit, empty input. */
function boundaryDocuments(rng: SeededRandom): string[] {
  return [
    rng.digits(4300, true),
    "-" + rng.digits(4300, true),
    rng.digits(4301, true),
    `[1, -${rng.digits(4301, true)}]`,
    rng.digits(5000, true) + ".0",
    "[".repeat(1200) + "]".repeat(1200),
    '{"a":'.repeat(1200) + "1" + "}".repeat(1200),
    "[".repeat(900) + "]".repeat(900),
    '{"a":'.repeat(900) + "[]" + "}".repeat(900),
    "",
    " \t ",
    "\ufeff[]",
  ];
}

/** What our implementation says about `doc`, in the oracle's line format (success as a triple). */
function ourAnswer(doc: string): string | [string, string, string] {
  try {
    const value = parsePyJson(doc);
    const sorted = dumpsSorted(value);
    const sha = createHash("sha256").update(Buffer.from(sorted, "utf8")).digest("hex");
    return [sorted, dumpsIndent2(value), sha];
  } catch (error) {
    if (!(error instanceof PyJsonError)) throw error;
    return `ERR\t${error.kind}\t${error.message}`;
  }
}

describe("Python JSON layer vs python3 (differential)", function () {
  this.timeout(180_000); // python3 oracle start-up and a corpus of 12,000 documents; slow on a loaded machine
  let documents: string[] = [];
  let oracle: (string | [string, string, string])[] = [];
  let ours: (string | [string, string, string])[] = [];

  before(function () {
    const rng = new SeededRandom(SEED);
    const generator = new HostileJsonGenerator(rng);
    documents = [...boundaryDocuments(rng), ...Array.from({ length: DOCUMENT_COUNT }, () => generator.document())];
    for (const doc of documents) assert.ok(!/[\n\r]/.test(doc), "documents are single lines");
    const dir = mkdtempSync(join(tmpdir(), "pyjson-diff-"));
    try {
      const file = join(dir, "documents.jsonl");
      writeFileSync(file, documents.join("\n") + "\n", "utf8");
      const script = [
        resolve(__dirname, "../../../../test/python/oracles/json_oracle.py"),
        resolve("test/python/oracles/json_oracle.py"),
      ].find((p) => existsSync(p)) as string;
      const run = spawnSync("python3", [script, file], { encoding: "utf8", maxBuffer: 1 << 30 });
      assert.equal(run.status, 0, `oracle failed: ${run.error ?? ""} ${run.stderr}`);
      const lines = run.stdout.split("\n");
      lines.pop();
      oracle = lines.map((line) => (line.startsWith("ERR\t") ? line : (JSON.parse(line) as [string, string, string])));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    ours = documents.map(ourAnswer);
  });

  it("runs on >= 10,000 documents, about 10% of them invalid", () => {
    assert.equal(oracle.length, documents.length);
    assert.ok(documents.length >= 10_000);
    const rejected = oracle.filter((answer) => typeof answer === "string").length / oracle.length;
    assert.ok(rejected > 0.08 && rejected < 0.25, `python rejected ${(rejected * 100).toFixed(1)}%`);
  });

  /** Fails listing up to 10 documents where `differs` is true. */
  function expectAgreement(
    what: string,
    differs: (expected: (typeof oracle)[number], actual: (typeof ours)[number]) => boolean,
  ) {
    const report: string[] = [];
    let count = 0;
    documents.forEach((doc, i) => {
      if (!differs(oracle[i], ours[i])) return;
      if (++count <= 10) {
        report.push(
          `#${i} ${JSON.stringify(doc).slice(0, 400)}\n  python: ${JSON.stringify(oracle[i]).slice(0, 600)}` +
            `\n  ours:   ${JSON.stringify(ours[i]).slice(0, 600)}`,
        );
      }
    });
    assert.equal(count, 0, `${count} documents differ in ${what}:\n${report.join("\n")}`);
  }

  it("accepts and rejects the same documents", () => {
    expectAgreement("accept/reject", (e, a) => typeof e !== typeof a);
  });

  it("rejects with Python's exception class and exact message", () => {
    expectAgreement("error", (e, a) => typeof e === "string" && typeof a === "string" && e !== a);
  });

  it("writes json.dumps(sort_keys=True) byte for byte, with the same sha256", () => {
    expectAgreement(
      "sorted dump",
      (e, a) => typeof e !== "string" && typeof a !== "string" && (e[0] !== a[0] || e[2] !== a[2]),
    );
  });

  it("writes json.dumps(indent=2) byte for byte", () => {
    expectAgreement("indent=2 dump", (e, a) => typeof e !== "string" && typeof a !== "string" && e[1] !== a[1]);
  });
});
