/**
 * Where each value of a JSON document sits: a map from a value's path
 * (`["tournaments", "plan", "num_judges"]`) to the 1-based line of its key
 * (or, for array items and the root, of the value itself). Used to put a
 * validation error of `config.json` or a response file at the key's line.
 * Only called on text that already parsed; on anything odd it stops early
 * and the caller falls back to the nearest known parent.
 */

/** A path into a JSON document: object keys and array indexes. */
export type JsonPath = ReadonlyArray<string | number>;

/** The map key of a path. */
export function jsonPathKey(p: JsonPath): string {
  return JSON.stringify(p);
}

/** Python-style display of a path: `tournaments.plan.num_judges`, `agents.developer`, `last_issues.0`. */
export function formatJsonPath(p: JsonPath): string {
  return p.length === 0 ? "(root)" : p.map(String).join(".");
}

class Scanner {
  i = 0;
  line = 1;
  readonly lines = new Map<string, number>();
  constructor(private readonly s: string) {}

  ws(): void {
    for (;;) {
      const c = this.s.charCodeAt(this.i);
      if (c === 10) this.line++;
      else if (c !== 32 && c !== 9 && c !== 13) return;
      this.i++;
    }
  }

  string(): string {
    const start = this.i;
    this.i++;
    while (this.i < this.s.length) {
      const c = this.s[this.i];
      if (c === "\\") this.i += 2;
      else if (c === '"') break;
      else this.i++;
    }
    this.i++;
    try {
      return JSON.parse(this.s.slice(start, this.i)) as string;
    } catch {
      return this.s.slice(start + 1, this.i - 1);
    }
  }

  value(p: Array<string | number>, depth: number): void {
    if (depth > 200) throw new Error("too deep");
    this.ws();
    const c = this.s[this.i];
    if (c === "{") {
      this.i++;
      this.ws();
      if (this.s[this.i] === "}") {
        this.i++;
        return;
      }
      for (;;) {
        this.ws();
        if (this.s[this.i] !== '"') throw new Error("key expected");
        const keyLine = this.line;
        const key = this.string();
        this.ws();
        if (this.s[this.i] !== ":") throw new Error("colon expected");
        this.i++;
        p.push(key);
        this.lines.set(jsonPathKey(p), keyLine);
        this.value(p, depth + 1);
        p.pop();
        this.ws();
        if (this.s[this.i] === ",") {
          this.i++;
          continue;
        }
        if (this.s[this.i] === "}") {
          this.i++;
          return;
        }
        throw new Error("comma expected");
      }
    }
    if (c === "[") {
      this.i++;
      this.ws();
      if (this.s[this.i] === "]") {
        this.i++;
        return;
      }
      for (let n = 0; ; n++) {
        this.ws();
        p.push(n);
        this.lines.set(jsonPathKey(p), this.line);
        this.value(p, depth + 1);
        p.pop();
        this.ws();
        if (this.s[this.i] === ",") {
          this.i++;
          continue;
        }
        if (this.s[this.i] === "]") {
          this.i++;
          return;
        }
        throw new Error("comma expected");
      }
    }
    if (c === '"') {
      this.string();
      return;
    }
    const m = /^[^\s,\]}]+/.exec(this.s.slice(this.i, this.i + 400));
    if (!m) throw new Error("value expected");
    this.i += m[0].length;
  }
}

/** The line of every key and array item of `text` (a JSON document that parsed). */
export function locateJsonLines(text: string): ReadonlyMap<string, number> {
  const sc = new Scanner(text);
  sc.ws();
  sc.lines.set(jsonPathKey([]), sc.line);
  try {
    sc.value([], 0);
  } catch {
    // keep what was found so far
  }
  return sc.lines;
}

/** The line of `p`, or of its nearest parent that has one (1 at worst). */
export function lineOfPath(lines: ReadonlyMap<string, number>, p: JsonPath): number {
  for (let n = p.length; n >= 0; n--) {
    const line = lines.get(jsonPathKey(p.slice(0, n)));
    if (line !== undefined) return line;
  }
  return 1;
}
