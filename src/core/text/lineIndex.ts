/**
 * Line and column numbers of offsets in a text, for Problems that point into a
 * JSON (or any) file: lines end at `\n` (a `\r` before it stays on its line),
 * as the parsers that place errors count them.
 */

/** Maps offsets of a text (UTF-16 units, as JavaScript strings count) to 1-based lines and columns. */
export class LineIndex {
  private readonly starts: Int32Array;

  constructor(text: string) {
    let count = 1;
    for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) count++;
    this.starts = new Int32Array(count);
    let k = 1;
    for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) this.starts[k++] = i + 1;
  }

  /** The 1-based line of `offset`. */
  lineOf(offset: number): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  }

  /** The 1-based column of `offset`. */
  columnOf(offset: number): number {
    return offset - this.starts[this.lineOf(offset) - 1] + 1;
  }
}
