/**
 * The payload dict of a line the fast path proved canonical, built from its
 * bytes without a second parse of the whole payload: one walk over its
 * members with the canonical scanner, the text decoded once. Scalars (strings,
 * ints, booleans, null) come straight from the walk; a nested object, array or
 * float is parsed on its own. The result is what `parsePyJson` gives for the
 * payload's text: the line is canonical, so every member is in exact form.
 */
import { parsePyJson } from "../../../pyjson/pyJsonParse";
import { PyObject, PyValue, pyInt } from "../../../pyjson/pyValue";
import { endScan, lastEscaped, latin1, lineBytes, startScan, str, value } from "./canonicalScanner";

/**
 * The dict of the canonical payload object at bytes [start, end) of `bytes`
 * (a line the fast path proved, so the walk cannot fail).
 */
export function canonicalPayload(bytes: Buffer, start: number, end: number): PyObject {
  const text = latin1(bytes, start, end);
  const out: PyObject = new Map();
  startScan(bytes);
  try {
    let i = start + 1;
    if (bytes[i] === 0x7d) return out;
    for (;;) {
      const ke = str(i);
      if (ke < 0) throw new Error("internal error: a proven payload did not scan again");
      const key = stringAt(text, start, i, ke, lastEscaped);
      const v = ke + 2;
      const ve = value(v, 2);
      if (ve < 0) throw new Error("internal error: a proven payload did not scan again");
      // After a string value, `lastEscaped` is that string's.
      out.set(key, valueAt(text, start, v, ve, lastEscaped));
      if (bytes[ve] === 0x7d) return out;
      i = ve + 2;
    }
  } finally {
    endScan();
  }
}

/** The string literal [s, e) of the line (quotes included), from the payload's text starting at line index `base`. */
function stringAt(text: string, base: number, s: number, e: number, escaped: boolean): string {
  const lit = text.slice(s - base, e - base);
  return escaped ? (JSON.parse(lit) as string) : lit.slice(1, -1);
}

/** The value [s, e) of the line (`escaped`: a string value had escapes). */
function valueAt(text: string, base: number, s: number, e: number, escaped: boolean): PyValue {
  switch (lineBytes[s]) {
    case 0x22:
      return stringAt(text, base, s, e, escaped);
    case 0x74:
      return true;
    case 0x66:
      return false;
    case 0x6e:
      return null;
    case 0x7b:
    case 0x5b:
      return parsePyJson(text.slice(s - base, e - base));
    default:
      return numberAt(text, base, s, e);
  }
}

/** A canonical number [s, e): an int as `parsePyJson` gives it, or a float parsed on its own. */
function numberAt(text: string, base: number, s: number, e: number): PyValue {
  const b = lineBytes;
  const negative = b[s] === 0x2d;
  let digits = 0;
  let v = 0;
  for (let i = negative ? s + 1 : s; i < e; i++) {
    const c = b[i];
    if (c < 0x30 || c > 0x39) return parsePyJson(text.slice(s - base, e - base)); // a float
    v = v * 10 + (c - 0x30);
    digits++;
  }
  if (digits <= 15) return negative ? 0 - v : v;
  return pyInt(BigInt(text.slice(s - base, e - base)));
}
