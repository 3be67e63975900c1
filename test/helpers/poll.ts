/**
 * The one poll of the test suites: wait for a condition by checking it again and again, never by
 * sleeping a fixed time, bounded by a deadline. `pollUntil` says whether the condition came true
 * (the caller asserts it, with its own message); `pollFor` returns the first value found or throws
 * saying what never came.
 */

/** Checks `check` every `everyMs` until it holds (true) or `timeoutMs` has passed (false; checked once more). */
export async function pollUntil(
  check: () => boolean | Promise<boolean>,
  timeoutMs: number,
  everyMs = 100,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, everyMs));
  }
  return check();
}

/** The first value `find` gives (not null or undefined), checked every `everyMs`; throws `what()` at the deadline. */
export async function pollFor<T>(
  find: () => T | null | undefined | Promise<T | null | undefined>,
  timeoutMs: number,
  what: () => string,
  everyMs = 200,
): Promise<T> {
  let found: T | null | undefined;
  const ok = await pollUntil(
    async () => {
      found = await find();
      return found !== null && found !== undefined;
    },
    timeoutMs,
    everyMs,
  );
  if (!ok || found === null || found === undefined) throw new Error(what());
  return found;
}
