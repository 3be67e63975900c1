// Where the soak's write → tree time goes (bench/editor/soak.mjs prints it): for each write shown,
// the refresh whose answer showed it (the last one answered before the repaint), the first live-file
// event after the write, and from these six parts that add up to the write's latency:
//   watcher  write → the worker's live-file event reached the host
//   spell    that event → the refresh was sent (the throttle, or a refresh still running; < 0: sent before)
//   queue    the refresh waited in the worker behind other requests (the worker's own clock)
//   run      the worker served it
//   transit  the postMessage both ways and the host's event loop until it saw the answer
//   render   the answer → the tree was told to repaint (the host applying it)
// Needs the trace of a build whose worker client has `onDidAnswer`; older builds print "no trace".

const pct = (xs, p) => {
  const s = [...xs].filter(Number.isFinite).sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] : NaN;
};
const f0 = (x) => (Number.isFinite(x) ? x.toFixed(0) : "-");
const PARTS = ["watcher", "spell", "queue", "run", "transit", "render"];

/** Whether an answer's label is a refresh (the generic one or a source's own). */
const isRefresh = (label) => label === "refresh" || label.endsWith(".refresh");

/** The parts of each shown write's latency. */
export function breakdownOf(r) {
  const trace = r.trace;
  if (!trace || trace.answers.length === 0) return null;
  const answers = trace.answers.map(([label, sentAt, answeredAt, waitMs, runMs]) => ({
    label,
    sentAt,
    answeredAt,
    waitMs,
    runMs,
  }));
  const refreshes = answers.filter((a) => isRefresh(a.label)).sort((a, b) => a.answeredAt - b.answeredAt);
  const lives = [...trace.liveEvents].sort((a, b) => a - b);
  const rows = [];
  for (const [at, ms] of r.tree) {
    const shownAt = at + ms;
    const refresh = refreshes.filter((a) => a.answeredAt <= shownAt).pop();
    const live = lives.find((t) => t >= at && t <= shownAt);
    if (!refresh || live === undefined || refresh.waitMs === null) continue;
    const row = {
      total: ms,
      watcher: live - at,
      spell: refresh.sentAt - live,
      queue: refresh.waitMs,
      run: refresh.runMs,
      transit: refresh.answeredAt - refresh.sentAt - refresh.waitMs - refresh.runMs,
      render: shownAt - refresh.answeredAt,
      // What else was in the worker when it was sent.
      ahead: answers
        .filter((a) => a !== refresh && a.sentAt <= refresh.sentAt && a.answeredAt > refresh.sentAt)
        .map((a) => a.label),
    };
    rows.push(row);
  }
  return { rows, answers };
}

/**
 * Where each shown write's write → timeline time goes, in four parts that add up to it:
 *   tree   write → the host applied the refresh that showed it (the tree's whole latency)
 *   ask    that → the webview's page query reached the host (the change throttle, the change
 *          message to the webview, the webview asking back; < 0: asked before the tree showed it)
 *   page   the query → its answer at the host (the worker's queue, run and transit)
 *   paint  the answer → the webview's "rendered" reached the host (to the webview, paint, back)
 */
export function timelineBreakdownOf(r) {
  const trace = r.trace;
  if (!trace || !r.timeline || trace.answers.length === 0) return null;
  const pages = trace.answers
    .filter(([label]) => label === "timelinePage")
    .map(([, sentAt, answeredAt]) => ({ sentAt, answeredAt }))
    .sort((a, b) => a.answeredAt - b.answeredAt);
  const treeShown = new Map(r.tree.map(([at, ms]) => [at, at + ms]));
  const rows = [];
  for (const [at, ms] of r.timeline) {
    const shownAt = at + ms;
    const tree = treeShown.get(at);
    const page = pages.filter((p) => p.answeredAt <= shownAt && p.answeredAt >= at).pop();
    if (tree === undefined || !page) continue;
    rows.push({
      total: ms,
      tree: tree - at,
      ask: page.sentAt - tree,
      page: page.answeredAt - page.sentAt,
      paint: shownAt - page.answeredAt,
    });
  }
  return rows;
}

/** Prints p50, p95 and the tail's mean of each part of `rows`. */
function printParts(title, rows, parts) {
  const p95 = pct(
    rows.map((x) => x.total),
    95,
  );
  const tail = rows.filter((x) => x.total >= p95);
  const mean = (xs) => xs.reduce((a, x) => a + x, 0) / Math.max(1, xs.length);
  console.log(`${title} breakdown (${rows.length} writes; ms; tail = the ${tail.length} at or over p95 ${f0(p95)}):`);
  console.log(`  ${"part".padEnd(8)} ${"p50".padStart(6)} ${"p95".padStart(6)} ${"tail mean".padStart(10)}`);
  for (const part of parts) {
    const xs = rows.map((x) => x[part]);
    console.log(
      `  ${part.padEnd(8)} ${f0(pct(xs, 50)).padStart(6)} ${f0(pct(xs, 95)).padStart(6)} ${f0(mean(tail.map((x) => x[part]))).padStart(10)}`,
    );
  }
}

/** Prints the breakdown (or why there is none). */
export function printBreakdown(r) {
  const b = breakdownOf(r);
  if (!b) {
    console.log("breakdown: no trace (this build's worker client has no onDidAnswer)");
    return;
  }
  const { rows, answers } = b;
  printParts("write → tree", rows, PARTS);
  const p95 = pct(
    rows.map((x) => x.total),
    95,
  );
  const tail = rows.filter((x) => x.total >= p95);
  const ahead = {};
  for (const x of tail) for (const l of x.ahead) ahead[l] = (ahead[l] ?? 0) + 1;
  console.log(
    `  in the worker when a tail write's refresh was sent (per tail write): ${
      Object.entries(ahead)
        .sort((a, c) => c[1] - a[1])
        .map(([l, n]) => `${l} ${(n / Math.max(1, tail.length)).toFixed(2)}`)
        .join(", ") || "nothing"
    }`,
  );
  printParts("write → timeline", timelineBreakdownOf(r) ?? [], ["tree", "ask", "page", "paint"]);
  const byLabel = new Map();
  for (const a of answers) byLabel.set(a.label, [...(byLabel.get(a.label) ?? []), a]);
  console.log("worker requests during the soak: count, queue wait p50/p95, run p50/p95 (ms)");
  for (const [label, as] of [...byLabel].sort((x, y) => y[1].length - x[1].length)) {
    const wait = as.map((a) => a.waitMs ?? NaN);
    const run = as.map((a) => a.runMs ?? NaN);
    console.log(
      `  ${label.padEnd(24)} ${String(as.length).padStart(5)}  wait ${f0(pct(wait, 50))}/${f0(pct(wait, 95))}  run ${f0(pct(run, 50))}/${f0(pct(run, 95))}`,
    );
  }
}
