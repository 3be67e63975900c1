/**
 * Unit tests of the Python-compatible JSON layer. Every expected string below was
 * produced by CPython 3.11's `json` module / `repr(float)`, not written by hand.
 */
import * as assert from "node:assert/strict";
import { pyFloatRepr, pyJsonFloat } from "../../../src/core/pyjson/pyFloatRepr";
import {
  comparePyStrings,
  dumpsIndent2,
  dumpsSorted,
  pyJsonDumps,
  pyJsonDumpsBytes,
  pyJsonQuote,
} from "../../../src/core/pyjson/pyJsonDump";
import { parsePyJson, PY_JSON_MAX_DEPTH, PyJsonError } from "../../../src/core/pyjson/pyJsonParse";
import { PyFloat, pyObject, type PyValue } from "../../../src/core/pyjson/pyValue";

/**
 * `[document, json.dumps(sort_keys=True), json.dumps(indent=2)]` for documents Python
 * accepts, `[document, str(JSONDecodeError)]` for documents it rejects.
 */
const LOADS_CASES: Record<string, ([string, string, string] | [string, string])[]> = {
  numbers: [
    ["-0", "0", "0"],
    ["0", "0", "0"],
    ["9007199254740991", "9007199254740991", "9007199254740991"],
    ["9007199254740993", "9007199254740993", "9007199254740993"],
    ["-9007199254740993", "-9007199254740993", "-9007199254740993"],
    ["18446744073709551616", "18446744073709551616", "18446744073709551616"],
    ["1E400", "Infinity", "Infinity"],
    ["-1e400", "-Infinity", "-Infinity"],
    ["-0.0", "-0.0", "-0.0"],
    ["2.0", "2.0", "2.0"],
    ["1e-7", "1e-07", "1e-07"],
    ["5e-324", "5e-324", "5e-324"],
    ["2.4703282292062328e-324", "5e-324", "5e-324"],
    ["1.7976931348623157e308", "1.7976931348623157e+308", "1.7976931348623157e+308"],
    ["1e16", "1e+16", "1e+16"],
    ["123456789012345678.0", "1.2345678901234568e+17", "1.2345678901234568e+17"],
    ["0.1", "0.1", "0.1"],
    ["1.5E+07", "15000000.0", "15000000.0"],
    ["1e007", "10000000.0", "10000000.0"],
    ["01", "Extra data: line 1 column 2 (char 1)"],
    ["+1", "Expecting value: line 1 column 1 (char 0)"],
    [".5", "Expecting value: line 1 column 1 (char 0)"],
    ["1.", "Extra data: line 1 column 2 (char 1)"],
    ["1e", "Extra data: line 1 column 2 (char 1)"],
    ["1e+", "Extra data: line 1 column 2 (char 1)"],
    ["-", "Expecting value: line 1 column 1 (char 0)"],
    ["-01", "Extra data: line 1 column 3 (char 2)"],
    ["0x10", "Extra data: line 1 column 2 (char 1)"],
    ["1.5e", "Extra data: line 1 column 4 (char 3)"],
    ["[-]", "Expecting value: line 1 column 2 (char 1)"],
    ["-Inf", "Expecting value: line 1 column 1 (char 0)"],
  ],
  literals: [
    ["NaN", "NaN", "NaN"],
    ["Infinity", "Infinity", "Infinity"],
    ["-Infinity", "-Infinity", "-Infinity"],
    ["[NaN, Infinity, -Infinity]", "[NaN, Infinity, -Infinity]", "[\n  NaN,\n  Infinity,\n  -Infinity\n]"],
    ["nan", "Expecting value: line 1 column 1 (char 0)"],
    ["Infinity1", "Extra data: line 1 column 9 (char 8)"],
    ["NaNa", "Extra data: line 1 column 4 (char 3)"],
    ["tru", "Expecting value: line 1 column 1 (char 0)"],
    ["true1", "Extra data: line 1 column 5 (char 4)"],
    ["nul", "Expecting value: line 1 column 1 (char 0)"],
    ["null ", "null", "null"],
    ["True", "Expecting value: line 1 column 1 (char 0)"],
  ],
  strings: [
    ['"\\ud800"', '"\\ud800"', '"\\ud800"'],
    ['"\\udc00\\ud800"', '"\\udc00\\ud800"', '"\\udc00\\ud800"'],
    ['"\\ud83d\\ude00"', '"\\ud83d\\ude00"', '"\\ud83d\\ude00"'],
    ['"\\uD83D\\uDE00"', '"\\ud83d\\ude00"', '"\\ud83d\\ude00"'],
    ['"\\ud800\\u0041"', '"\\ud800A"', '"\\ud800A"'],
    ['"\\ud800\\n"', '"\\ud800\\n"', '"\\ud800\\n"'],
    ['"\\u00E9\\u00e9"', '"\\u00e9\\u00e9"', '"\\u00e9\\u00e9"'],
    ['"\\/\\b\\f\\n\\r\\t\\"\\\\"', '"/\\b\\f\\n\\r\\t\\"\\\\"', '"/\\b\\f\\n\\r\\t\\"\\\\"'],
    ['"\u007f\u2028\u0085\ufeff"', '"\\u007f\\u2028\\u0085\\ufeff"', '"\\u007f\\u2028\\u0085\\ufeff"'],
    ['"\ud83d\ude00"', '"\\ud83d\\ude00"', '"\\ud83d\\ude00"'],
    ['"a\u0001"', "Invalid control character at: line 1 column 3 (char 2)"],
    ['"\t"', "Invalid control character at: line 1 column 2 (char 1)"],
    ['"a\\x"', "Invalid \\escape: line 1 column 3 (char 2)"],
    ['"\\\'"', "Invalid \\escape: line 1 column 2 (char 1)"],
    ['"\\u12"', "Invalid \\uXXXX escape: line 1 column 3 (char 2)"],
    ['"\\u12x4"', "Invalid \\uXXXX escape: line 1 column 3 (char 2)"],
    ['"\\u0041', "Invalid \\uXXXX escape: line 1 column 3 (char 2)"],
    ['"\\ud800\\u12x4"', "Invalid \\uXXXX escape: line 1 column 9 (char 8)"],
    ['"\\ud800\\udc00', "Invalid \\uXXXX escape: line 1 column 9 (char 8)"],
    ['"abc', "Unterminated string starting at: line 1 column 1 (char 0)"],
    ['"\\', "Unterminated string starting at: line 1 column 1 (char 0)"],
    ['"\\"', "Unterminated string starting at: line 1 column 1 (char 0)"],
  ],
  objects: [
    ['{"a":1,"b":2,"a":3}', '{"a": 3, "b": 2}', '{\n  "a": 3,\n  "b": 2\n}'],
    [
      '{"10":1,"9":2,"0":3,"-1":4}',
      '{"-1": 4, "0": 3, "10": 1, "9": 2}',
      '{\n  "10": 1,\n  "9": 2,\n  "0": 3,\n  "-1": 4\n}',
    ],
    [
      '{"\\uffff":1,"\\ud83d\\ude00":2,"\\ue000":3,"\\ud800":4,"\\ud83d\\ue000":5,"z":6}',
      '{"z": 6, "\\ud800": 4, "\\ud83d\\ue000": 5, "\\ue000": 3, "\\uffff": 1, "\\ud83d\\ude00": 2}',
      '{\n  "\\uffff": 1,\n  "\\ud83d\\ude00": 2,\n  "\\ue000": 3,\n  "\\ud800": 4,\n  "\\ud83d\\ue000": 5,\n  "z": 6\n}',
    ],
    ['{"":{},"x":[]}', '{"": {}, "x": []}', '{\n  "": {},\n  "x": []\n}'],
    ['{"a":1,}', "Expecting property name enclosed in double quotes: line 1 column 8 (char 7)"],
    ['{"a" 1}', "Expecting ':' delimiter: line 1 column 6 (char 5)"],
    ['{"a":1 "b":2}', "Expecting ',' delimiter: line 1 column 8 (char 7)"],
    ["{'a':1}", "Expecting property name enclosed in double quotes: line 1 column 2 (char 1)"],
    ["{1:2}", "Expecting property name enclosed in double quotes: line 1 column 2 (char 1)"],
    ["{", "Expecting property name enclosed in double quotes: line 1 column 2 (char 1)"],
    ['{"a":', "Expecting value: line 1 column 6 (char 5)"],
    ['{"a"', "Expecting ':' delimiter: line 1 column 5 (char 4)"],
    ["{,}", "Expecting property name enclosed in double quotes: line 1 column 2 (char 1)"],
    ["[1,]", "Expecting value: line 1 column 4 (char 3)"],
    ["[,]", "Expecting value: line 1 column 2 (char 1)"],
    ["[1 2]", "Expecting ',' delimiter: line 1 column 4 (char 3)"],
    ['["a"', "Expecting ',' delimiter: line 1 column 5 (char 4)"],
    ["[", "Expecting value: line 1 column 2 (char 1)"],
    ["[]]", "Extra data: line 1 column 3 (char 2)"],
    ["{}", "{}", "{}"],
    ["[]", "[]", "[]"],
    ["[[]]", "[[]]", "[\n  []\n]"],
    ['{"a":{}}', '{"a": {}}', '{\n  "a": {}\n}'],
  ],
  whitespace: [
    [" \t\n\r[ 1 ,\n 2 ]\r\n", "[1, 2]", "[\n  1,\n  2\n]"],
    ["", "Expecting value: line 1 column 1 (char 0)"],
    [" ", "Expecting value: line 1 column 2 (char 1)"],
    ["\f1", "Expecting value: line 1 column 1 (char 0)"],
    ["\u00a01", "Expecting value: line 1 column 1 (char 0)"],
    ["1\u00a0", "Extra data: line 1 column 2 (char 1)"],
    ["\ufeff1", "Unexpected UTF-8 BOM (decode using utf-8-sig): line 1 column 1 (char 0)"],
    [" \ufeff1", "Expecting value: line 1 column 2 (char 1)"],
    ["[1,\n2,]", "Expecting value: line 2 column 3 (char 6)"],
    ['{\n  "a": 1,\n  "b" 2\n}', "Expecting ':' delimiter: line 3 column 7 (char 18)"],
    ['["\ud83d\ude00", x]', "Expecting value: line 1 column 7 (char 6)"],
    ['"\ud83d\ude00\ud83d\ude00" 1', "Extra data: line 1 column 6 (char 5)"],
    ['\n\n  ["\ud83d\ude00",\n   "\ud83d\ude00" x]', "Expecting ',' delimiter: line 4 column 8 (char 17)"],
  ],
};

/** `[float literal, repr(float(literal))]`. */
const FLOAT_REPR_CASES: [string, string][] = [
  ["0.0", "0.0"],
  ["-0.0", "-0.0"],
  ["1e-05", "1e-05"],
  ["0.0001", "0.0001"],
  ["9.999999999999999e-05", "9.999999999999999e-05"],
  ["1e16", "1e+16"],
  ["9999999999999998.0", "9999999999999998.0"],
  ["1234567890123456.0", "1234567890123456.0"],
  ["1.5e300", "1.5e+300"],
  ["5e-324", "5e-324"],
  ["2.0", "2.0"],
  ["1.7976931348623157e308", "1.7976931348623157e+308"],
  ["0.1", "0.1"],
  ["1e22", "1e+22"],
  ["1e21", "1e+21"],
  ["123456789012345678.0", "1.2345678901234568e+17"],
  ["1e15", "1000000000000000.0"],
  ["0.00011", "0.00011"],
  ["1.2345e-05", "1.2345e-05"],
  ["-1.5e-07", "-1.5e-07"],
  ["2.5e-310", "2.5e-310"],
  ["100.0", "100.0"],
  ["-123.456", "-123.456"],
  ["0.30000000000000004", "0.30000000000000004"],
  ["1e-320", "1e-320"],
  ["4.35", "4.35"],
  ["1e23", "1e+23"],
  ["nan", "nan"],
  ["inf", "inf"],
  ["-inf", "-inf"],
  ["9007199254740993.0", "9007199254740992.0"],
  ["1e-4", "0.0001"],
  ["12345678.9e-20", "1.23456789e-13"],
];

function loadsAnswer(doc: string): [string, string] | string {
  try {
    const value = parsePyJson(doc);
    return [dumpsSorted(value), dumpsIndent2(value)];
  } catch (error) {
    if (error instanceof PyJsonError) return error.message;
    throw error;
  }
}

function errorOf(run: () => unknown): PyJsonError {
  try {
    run();
  } catch (error) {
    if (error instanceof PyJsonError) return error;
    throw error;
  }
  assert.fail("expected a PyJsonError");
}

describe("parsePyJson + dumps: documents checked against python3", () => {
  for (const [group, cases] of Object.entries(LOADS_CASES)) {
    describe(group, () => {
      for (const [doc, ...expected] of cases) {
        it(`${JSON.stringify(doc)} -> ${JSON.stringify(expected[0])}`, () => {
          assert.deepEqual(loadsAnswer(doc), expected.length === 2 ? expected : expected[0]);
        });
      }
    });
  }
});

describe("parsePyJson: value model", () => {
  it("keeps ints exact: safe ints as numbers, others as bigints, -0 as 0", () => {
    assert.equal(parsePyJson("9007199254740991"), 9007199254740991);
    assert.equal(parsePyJson("9007199254740993"), 9007199254740993n);
    assert.equal(parsePyJson("-18446744073709551616"), -18446744073709551616n);
    assert.equal(parsePyJson("1234567890123456"), 1234567890123456);
    assert.ok(Object.is(parsePyJson("-0"), 0));
  });

  it("keeps floats as PyFloat, including -0.0, overflow and NaN", () => {
    assert.deepEqual(parsePyJson("2.0"), new PyFloat(2));
    assert.ok(Object.is((parsePyJson("-0.0") as PyFloat).value, -0));
    assert.equal((parsePyJson("1E400") as PyFloat).value, Infinity);
    assert.ok(Number.isNaN((parsePyJson("NaN") as PyFloat).value));
  });

  it("lets a repeated key keep its first position and take its last value", () => {
    const value = parsePyJson('{"a":1,"b":2,"a":3}') as Map<string, PyValue>;
    assert.deepEqual(
      [...value.entries()],
      [
        ["a", 3],
        ["b", 2],
      ],
    );
  });

  it("keeps lone surrogates from escapes and joins escaped pairs", () => {
    assert.equal(parsePyJson('"\\ud800x\\udc00"'), "\ud800x\udc00");
    assert.equal(parsePyJson('"\\uD83D\\uDE00"'), "\u{1f600}");
  });

  it("accepts a 4300-digit int and rejects 4301 digits with Python's ValueError", () => {
    const digits = "7".repeat(4300);
    assert.equal(parsePyJson(`-${digits}`), -BigInt(digits));
    const error = errorOf(() => parsePyJson(`[1, -${digits}7]`));
    assert.equal(error.kind, "ValueError");
    assert.equal(
      error.message,
      "Exceeds the limit (4300 digits) for integer string conversion: value has 4301 digits; " +
        "use sys.set_int_max_str_digits() to increase the limit",
    );
    assert.equal(error.pos, 4);
    assert.deepEqual(parsePyJson(`${digits}7.0`), new PyFloat(Infinity));
  });

  it("nests up to PY_JSON_MAX_DEPTH containers, then raises Python's RecursionError", () => {
    const ok = "[".repeat(PY_JSON_MAX_DEPTH) + "]".repeat(PY_JSON_MAX_DEPTH);
    assert.equal(dumpsIndent2(parsePyJson(ok)).length, 1980050); // len(json.dumps(v, indent=2)) in Python
    const deep = (n: number) => '{"a":'.repeat(n) + "1" + "}".repeat(n);
    assert.equal(dumpsSorted(parsePyJson(deep(PY_JSON_MAX_DEPTH))).length, 7 * PY_JSON_MAX_DEPTH + 1);
    const error = errorOf(() => parsePyJson(deep(PY_JSON_MAX_DEPTH + 1)));
    assert.equal(error.kind, "RecursionError");
    assert.equal(error.message, "maximum recursion depth exceeded while decoding a JSON object from a unicode string");
    assert.equal(errorOf(() => parsePyJson("[".repeat(100_000))).kind, "RecursionError");
  });

  it("reports positions in code points like Python, and the UTF-16 index too", () => {
    const doc = '\n\n  ["\u{1f600}",\n   "\u{1f600}" x]';
    const error = errorOf(() => parsePyJson(doc));
    assert.deepEqual(
      [error.msg, error.pos, error.index, error.lineno, error.colno],
      ["Expecting ',' delimiter", 17, 19, 4, 8],
    );
    assert.ok(error instanceof Error);
  });
});

describe("pyJsonDumps", () => {
  const value: PyValue = pyObject([
    ["b", [true, false, null, new PyFloat(-0), 10n ** 30n, -(2n ** 63n), "x\u0000y"]],
    ["a", pyObject([["z", new PyFloat(NaN)]])],
  ]);

  it("writes Python's compact form with ', ' and ': '", () => {
    assert.equal(
      pyJsonDumps(value),
      '{"b": [true, false, null, -0.0, 1000000000000000000000000000000, -9223372036854775808, "x\\u0000y"], "a": {"z": NaN}}',
    );
  });

  it("writes indent=4 with sort_keys, and indent=0 as bare newlines", () => {
    const nested = pyObject([
      ["b", [1, pyObject([["c", null]])]],
      ["a", new PyFloat(2.5)],
      ["d", []],
    ]);
    assert.equal(
      pyJsonDumps(nested, { indent: 4, sortKeys: true }),
      '{\n    "a": 2.5,\n    "b": [\n        1,\n        {\n            "c": null\n        }\n    ],\n    "d": []\n}',
    );
    assert.equal(pyJsonDumps([1, [2, pyObject()]], { indent: 0 }), "[\n1,\n[\n2,\n{}\n]\n]");
  });

  it("escapes like ensure_ascii: lowercase hex, pairs for astral, short escapes", () => {
    assert.equal(pyJsonQuote("\u{1f600}\ud800\udc00/\u007f\u2028"), '"\\ud83d\\ude00\\ud800\\udc00/\\u007f\\u2028"');
    assert.equal(pyJsonQuote('\b\f\n\r\t"\\\u001f'), '"\\b\\f\\n\\r\\t\\"\\\\\\u001f"');
    assert.equal(pyJsonQuote("plain text"), '"plain text"');
  });

  it("sorts keys by code point, not UTF-16 unit", () => {
    const keys = ["\uffff", "\u{1f600}", "\ue000", "\ud800", "\ud83d\ue000", "z", "\ud83d"];
    assert.deepEqual([...keys].sort(comparePyStrings), [
      "z",
      "\ud800",
      "\ud83d",
      "\ud83d\ue000",
      "\ue000",
      "\uffff",
      "\u{1f600}",
    ]);
    assert.equal(
      comparePyStrings("a", "ab") < 0 && comparePyStrings("ab", "a") > 0 && comparePyStrings("x", "x") === 0,
      true,
    );
  });

  it("refuses what Python refuses: cycles, ints over 4300 digits, non-PyValues", () => {
    const cycle: PyValue[] = [];
    cycle.push(cycle);
    assert.throws(() => dumpsSorted(cycle), { name: "RangeError", message: "Circular reference detected" });
    assert.throws(() => dumpsIndent2([10n ** 4300n]), /^RangeError: Exceeds the limit \(4300 digits\)/);
    assert.equal(dumpsSorted(-(10n ** 4299n)).length, 4301);
    assert.throws(() => dumpsSorted(1.5), TypeError);
    assert.throws(() => dumpsSorted({} as unknown as PyValue), TypeError);
  });

  it("gives the same text as UTF-8 bytes for hashing", () => {
    const bytes = pyJsonDumpsBytes(value, { sortKeys: true });
    assert.equal(Buffer.from(bytes).toString("utf8"), dumpsSorted(value));
    assert.equal(
      dumpsSorted(value),
      '{"a": {"z": NaN}, "b": [true, false, null, -0.0, 1000000000000000000000000000000, -9223372036854775808, "x\\u0000y"]}',
    );
  });

  it("writes an integral but unsafe JS number as the exact int", () => {
    assert.equal(dumpsSorted(2 ** 70), "1180591620717411303424");
  });
});

describe("pyFloatRepr", () => {
  const special: Record<string, number> = { nan: NaN, inf: Infinity, "-inf": -Infinity };
  for (const [literal, expected] of FLOAT_REPR_CASES) {
    it(`repr(float(${JSON.stringify(literal)})) == ${JSON.stringify(expected)}`, () => {
      assert.equal(pyFloatRepr(special[literal] ?? Number(literal)), expected);
    });
  }

  it("writes json's NaN / Infinity / -Infinity for non-finite values", () => {
    assert.deepEqual([NaN, Infinity, -Infinity, 1e16].map(pyJsonFloat), ["NaN", "Infinity", "-Infinity", "1e+16"]);
  });
});
