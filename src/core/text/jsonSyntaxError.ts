/**
 * Where a strict JSON document first goes wrong: an iterative validator (no
 * recursion on hostile nesting) that agrees with `JSON.parse` on what is
 * valid and says at which offset, and what was expected there, when it is
 * not (V8's messages do not always carry a position).
 */

/** Whether a char code is JSON whitespace. */
function isWs(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/**
 * The offset of the first syntax error of `text` and what was expected there (a strict JSON
 * validator, iterative, used only after JSON.parse has failed: V8's messages do not always say where).
 */
export function firstSyntaxError(text: string): { offset: number; expected: string } {
  const n = text.length;
  let i = 0;
  const ws = (): void => {
    while (i < n && isWs(text.charCodeAt(i))) i++;
  };
  const fail = (expected: string): { offset: number; expected: string } => ({ offset: Math.min(i, n), expected });
  /** Reads one scalar at i; returns an error or undefined. Containers are handled by the loop. */
  const scalar = (): { offset: number; expected: string } | undefined => {
    const c = text[i];
    if (c === '"') {
      for (i++; i < n; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x22) return void i++;
        if (d < 0x20) return fail("a closing quote (control characters must be escaped)");
        if (d === 0x5c) {
          const e = text[i + 1];
          if (e === "u") {
            if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) return (i++, fail("four hex digits after \\u"));
            i += 5;
          } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i++;
          else return (i++, fail("a valid escape"));
        }
      }
      return fail("a closing quote");
    }
    for (const word of ["true", "false", "null"]) {
      if (text.startsWith(word, i)) return void (i += word.length);
    }
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (m && m[0].length > 0 && m[0] !== "-") return void (i += m[0].length);
    return fail("a value");
  };
  /** Reads a property name and its `:` at i (after white space); returns an error or undefined. */
  const property = (): { offset: number; expected: string } | undefined => {
    if (text[i] !== '"') return fail("a property name in double quotes");
    const err = scalar();
    if (err) return err;
    ws();
    if (text[i] !== ":") return fail("':' after a property name");
    i++;
  };
  const stack: ("{" | "[")[] = [];
  ws();
  if (i >= n) return fail("a value");
  for (;;) {
    // at the start of a value
    ws();
    const c = text[i];
    if (c === "{" || c === "[") {
      stack.push(c);
      i++;
      ws();
      if (text[i] === (c === "{" ? "}" : "]")) {
        i++;
        stack.pop();
      } else if (c === "{") {
        const err = property();
        if (err) return err;
        continue;
      } else continue;
    } else {
      const err = scalar();
      if (err) return err;
    }
    // after a value: close containers or expect a separator
    for (;;) {
      ws();
      const top = stack[stack.length - 1];
      if (top === undefined) return i < n ? fail("the end of the file") : fail("nothing (the file parsed)");
      const close = top === "{" ? "}" : "]";
      if (text[i] === close) {
        i++;
        stack.pop();
        continue;
      }
      if (text[i] !== ",") return fail(i >= n ? `more (the file ends early: a write cut short?)` : `',' or '${close}'`);
      i++;
      ws();
      if (top === "{") {
        const err = property();
        if (err) return err;
      }
      break;
    }
  }
}
