/**
 * Seeded mutations of canonical JSONL lines for the engine_state round-trip tests: other
 * separators, key orders, float and int spellings, string escapes (either ensure_ascii, a mix,
 * uppercase hex, `\/`), duplicate keys, surrounding whitespace, torn lines, invalid UTF-8.
 * Many mutations leave the line canonical by chance (python3 decides, not this file).
 */
import { pyJsonFloat } from "../../src/core/pyjson/pyFloatRepr";
import { comparePyStrings } from "../../src/core/pyjson/pyJsonDump";
import { parsePyJson } from "../../src/core/pyjson/pyJsonParse";
import { PyFloat, type PyValue } from "../../src/core/pyjson/pyValue";
import { SeededRandom } from "../../src/core/seededRandom";

/** How a variant dump lays values out. */
interface Style {
  readonly itemSep: string;
  readonly keySep: string;
  readonly keyOrder: "sorted" | "reversed" | "insertion";
  readonly floatStyle: "repr" | "variant";
  readonly escapes: "ascii" | "unicode" | "mixed" | "upperhex" | "slash";
}

/** Other spellings of a float that read back as the same value. */
function floatVariant(x: number, rng: SeededRandom): string {
  const repr = pyJsonFloat(x);
  const options = [repr];
  if (/e\+/.test(repr)) options.push(repr.replace("e+", "e"), repr.replace("e+", "E+"));
  if (/e-0/.test(repr)) options.push(repr.replace("e-0", "e-"));
  if (/\.\d/.test(repr) && !/e/.test(repr)) options.push(`${repr}0`);
  if (/\.0$/.test(repr)) options.push(repr.slice(0, -2) + ".00", repr.slice(0, -2) + "e0");
  if (x !== 0 && Number.isFinite(x)) options.push(x.toExponential());
  return rng.pick(options);
}

function escapeChar(code: number, upper: boolean): string {
  const hex = code.toString(16).padStart(4, "0");
  return `\\u${upper ? hex.toUpperCase() : hex}`;
}

const SHORT: Record<number, string> = {
  0x22: '\\"',
  0x5c: "\\\\",
  0x0a: "\\n",
  0x0d: "\\r",
  0x09: "\\t",
  0x08: "\\b",
  0x0c: "\\f",
};

function quote(s: string, style: Style, rng: SeededRandom): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (SHORT[c] !== undefined) out += style.escapes === "mixed" && rng.chance(0.3) ? escapeChar(c, false) : SHORT[c];
    else if (c < 0x20) out += escapeChar(c, style.escapes === "upperhex");
    else if (c === 0x2f && style.escapes === "slash") out += "\\/";
    else if (c < 0x7f) out += s[i];
    else {
      const raw = style.escapes === "unicode" || (style.escapes === "mixed" && rng.chance(0.5));
      // A raw lone surrogate cannot be written as UTF-8: keep it escaped.
      const surrogate = c >= 0xd800 && c <= 0xdfff;
      const pair = surrogate && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
      if (raw && pair) {
        out += s.slice(i, i + 2);
        i++;
      } else if (raw && !surrogate) out += s[i];
      else out += escapeChar(c, style.escapes === "upperhex");
    }
  }
  return out + '"';
}

function dump(v: PyValue, style: Style, rng: SeededRandom): string {
  if (v === null) return "null";
  if (typeof v === "boolean") return v ? "true" : "false";
  if (typeof v === "string") return quote(v, style, rng);
  if (typeof v === "number" || typeof v === "bigint") return BigInt(v).toString();
  if (v instanceof PyFloat) return style.floatStyle === "variant" ? floatVariant(v.value, rng) : pyJsonFloat(v.value);
  if (Array.isArray(v)) return `[${v.map((x) => dump(x, style, rng)).join(style.itemSep)}]`;
  let keys = Array.from(v.keys());
  if (style.keyOrder !== "insertion") keys = keys.sort(comparePyStrings);
  if (style.keyOrder === "reversed") keys.reverse();
  return `{${keys.map((k) => `${quote(k, style, rng)}${style.keySep}${dump(v.get(k) as PyValue, style, rng)}`).join(style.itemSep)}}`;
}

/** One mutated line (as bytes) of canonical line `line`. */
export function mutateLine(line: string, rng: SeededRandom): Buffer {
  const kind = rng.below(12);
  const value = parsePyJson(line);
  const style: Style = {
    itemSep: kind === 0 ? rng.pick([", ", " ,", ",\t"]) : ",",
    keySep: kind === 1 ? rng.pick([": ", " :", ":\t"]) : ":",
    keyOrder: kind === 2 ? rng.pick(["reversed", "insertion"] as const) : "sorted",
    floatStyle: kind === 3 ? "variant" : "repr",
    escapes:
      kind === 4
        ? rng.pick(["ascii", "unicode", "mixed", "upperhex", "slash"] as const)
        : rng.pick(["ascii", "unicode"] as const),
  };
  const text = dump(value, style, rng);
  switch (kind) {
    case 5:
      return Buffer.from(rng.pick([" ", "\t", "  "]) + text + rng.pick(["", " "]), "utf8");
    case 6:
      return Buffer.from(`{"candidate_id":${rng.pick(["0", '"x"', "null"])},${text.slice(1)}`, "utf8");
    case 7:
      return Buffer.from(text.slice(0, rng.below(text.length)), "utf8");
    case 8:
      return Buffer.from(rng.pick(["", " ", "\t", "\u00a0", "\u3000 "]), "utf8");
    case 9: {
      const bytes = Buffer.from(text, "utf8");
      const at = rng.below(bytes.length);
      return Buffer.concat([
        bytes.subarray(0, at),
        Buffer.from([rng.pick([0xff, 0xc3, 0xed, 0x80])]),
        bytes.subarray(at),
      ]);
    }
    case 10:
      return Buffer.from(rng.pick(["\ufeff", ""]) + text + rng.pick(["", "x", "}", " 1"]), "utf8");
    default:
      return Buffer.from(text, "utf8"); // either ensure_ascii: canonical unless a value is odd
  }
}
