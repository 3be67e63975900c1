/**
 * The text of a thrown value, for the one line that says what went wrong: an `Error`'s message,
 * anything else (a string, a number, an object someone threw) as `String()` renders it.
 */

/** The message of `e`: `e.message` for an Error, `String(e)` for anything else. */
export function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
