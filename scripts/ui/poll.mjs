// The one way the UI runners wait: for a condition (waitFor) or for a reading to stop changing
// (settled: layout after a resize, paint after a theme switch, rows after an expand), polled every
// 100 ms and bounded, never a fixed sleep. screenState is the reading of "the screen stopped
// changing" that a screenshot waits for.

/** Polls `check` (async) every 100 ms until true or `timeoutMs`; returns the last answer. */
export async function waitFor(check, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if (await check()) return true;
    } catch {
      // not there yet
    }
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Polls `read` (async) every 100 ms until it gives the same answer (compared as JSON) for
 * `quietMs`; returns `{ ok, value }` with the last answer (`ok` false after `timeoutMs`).
 */
export async function settled(read, { quietMs = 300, timeoutMs = 10_000 } = {}) {
  const deadline = Date.now() + timeoutMs;
  let last;
  let since = Date.now();
  let value;
  for (;;) {
    try {
      value = await read();
    } catch {
      value = undefined; // a frame that went away: not settled yet
    }
    const now = Date.now();
    const key = JSON.stringify(value);
    if (key !== last) {
      last = key;
      since = now;
    } else if (value !== undefined && now - since >= quietMs) {
      return { ok: true, value };
    }
    if (now > deadline) return { ok: false, value };
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** What a screenshot shows, in short: each frame's size, theme colours, element count and fonts. */
export async function screenState(page) {
  const frames = [];
  for (const f of page.frames()) {
    frames.push(
      await f
        .evaluate(() => {
          const b = document.body;
          if (!b) return null;
          const r = b.getBoundingClientRect();
          const s = getComputedStyle(b);
          return [
            b.className,
            s.backgroundColor,
            s.color,
            Math.round(r.width),
            Math.round(r.height),
            document.getElementsByTagName("*").length,
            document.fonts?.status ?? "",
          ];
        })
        .catch(() => null),
    );
  }
  return frames;
}

/** Waits until the screen stops changing (see {@link screenState}); false when it never did. */
export async function screenSettled(page, timeoutMs = 10_000) {
  return (await settled(() => screenState(page), { quietMs: 500, timeoutMs })).ok;
}
