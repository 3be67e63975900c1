/**
 * The payload dict of a line the fast path proved canonical, built from its
 * bytes without a second parse of the whole payload: one walk over its
 * members with the canonical scanner, each member decoded on its own. Scalars (strings,
 * ints, booleans, null) come straight from the walk; a nested object, array or
 * float is parsed on its own. The result is what `parsePyJson` gives for the
 * payload's text: the line is canonical, so every member is in exact form.
 * Replay asks for the few members it reads only (a 20 KB note is never decoded).
 */
import { parsePyJson } from "../../../pyjson/pyJsonParse";
import { PyObject, PyValue, pyInt } from "../../../pyjson/pyValue";
import { endScan, lastEscaped, latin1, lineBytes, startScan, str } from "./canonicalScanner";
import { value } from "./canonicalValues";

/**
 * The dict of the canonical payload object starting at byte `start` of
 * `bytes` (a line the fast path proved, so the walk cannot fail). With `keys`, only
 * the members with those keys: the others are stepped over, never decoded.
 */
export function canonicalPayload(bytes: Buffer, start: number, keys: ReadonlySet<string> | null = null): PyObject {
  const out: PyObject = new Map();
  startScan(bytes);
  try {
    let i = start + 1;
    if (bytes[i] === 0x7d) return out;
    for (;;) {
      const ke = str(i);
      if (ke < 0) throw new Error("internal error: a proven payload did not scan again");
      const key = stringAt(i, ke, lastEscaped);
      const v = ke + 2;
      const ve = value(v, 2);
      if (ve < 0) throw new Error("internal error: a proven payload did not scan again");
      // After a string value, `lastEscaped` is that string's.
      if (keys === null || keys.has(key)) out.set(key, valueAt(v, ve, lastEscaped));
      if (bytes[ve] === 0x7d) return out;
      i = ve + 2;
    }
  } finally {
    endScan();
  }
}

/** The string literal [s, e) of the line (quotes included). */
function stringAt(s: number, e: number, escaped: boolean): string {
  return escaped ? (JSON.parse(latin1(lineBytes, s, e)) as string) : latin1(lineBytes, s + 1, e - 1);
}

/** The value [s, e) of the line (`escaped`: a string value had escapes). */
function valueAt(s: number, e: number, escaped: boolean): PyValue {
  switch (lineBytes[s]) {
    case 0x22:
      return stringAt(s, e, escaped);
    case 0x74:
      return true;
    case 0x66:
      return false;
    case 0x6e:
      return null;
    case 0x7b:
    case 0x5b:
      return parsePyJson(latin1(lineBytes, s, e));
    default:
      return numberAt(s, e);
  }
}

/** A canonical number [s, e): an int as `parsePyJson` gives it, or a float parsed on its own. */
function numberAt(s: number, e: number): PyValue {
  const b = lineBytes;
  const negative = b[s] === 0x2d;
  let digits = 0;
  let v = 0;
  for (let i = negative ? s + 1 : s; i < e; i++) {
    const c = b[i];
    if (c < 0x30 || c > 0x39) return parsePyJson(latin1(lineBytes, s, e)); // a float
    v = v * 10 + (c - 0x30);
    digits++;
  }
  if (digits <= 15) return negative ? 0 - v : v;
  return pyInt(BigInt(latin1(lineBytes, s, e)));
}
