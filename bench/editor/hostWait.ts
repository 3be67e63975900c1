/**
 * Waiting inside the extension host of the editor benches (editorHost.ts, soakHost.ts): a sleep,
 * and a poll of a condition bounded by a deadline that says what never came.
 */

/** Resolves after `ms`. */
export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Polls `check` every `everyMs` until true; throws "timed out waiting for `what`" after `timeoutMs`. */
export async function until(check: () => boolean, timeoutMs: number, what: string, everyMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(everyMs);
  }
}
