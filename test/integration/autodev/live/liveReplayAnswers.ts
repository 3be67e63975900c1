/**
 * The editor against what AutoDev recorded about one snapshot of the default-mode run
 * (autodev-answers.json): the tasks as `replay_ledger()` replays them (status, retries, escalation), the
 * ledger's entry count (the root's hover) and the timeline's rows, the running row and the run status item
 * with what AutoDev was doing, every tournament's passes, winners, each judge's ranking and its worktrees,
 * and Problems: none while AutoDev runs, once it is gone what its recorder found left behind.
 */
import * as vscode from "vscode";
import { taskStatusLabel } from "../../../../src/core/sources/taskStatusIcons";
import type { StateApi } from "../../../../src/extension/extension";
import { type DefaultRunAnswers, defaultRunAnswers } from "../../../helpers/defaultRun";
import { type RunItemText, type Seen, entriesOf, rowsUnder, seeFolder } from "./editorView";
import type { ReplayedEvent } from "./liveReplay";

/** What AutoDev was doing at each snapshot taken while it ran (the step's note; the stand-in paused at that call). */
export const ACTIVITY: Record<string, string> = {
  "01-plan-tournament-pass-2": "plan phase · plan tournament pass 2",
  "03-1.1-developer": "task 1.1 · developer",
  "04-1.1-tournament-worktree-b": "task 1.1 · impl tournament pass 1 · variant B made",
  "05-1.2-reviewer-after-retry": "task 1.2 · reviewer · retry 1",
  "06-1.2-tournament-pass-2-judge": "task 1.2 · impl tournament pass 2 · variants B and AB made · retry 1",
  "07-3.1-critic": "task 3.1 · critic_sounding_board · retry 3",
};

/** A Problem AutoDev's own state carries (evidence_bundle names a file it never writes): true, so shown. */
export const TRUE_HAZARDS = new Set(["evidence_bundle_dangling"]);

/** The Problems a folder should show once AutoDev is gone, from what AutoDev's recorder found left. */
export function leftovers(a: DefaultRunAnswers): string[] {
  const out = Object.entries(a.recorded.tournaments)
    .filter(([, t]) => t.history === null && t.files.some((f) => /^worktrees\/[^/]+\/$/.test(f)))
    .map(([id]) => `tournament_worktrees_left .autodev/tournaments/${id}/worktrees`);
  for (const f of a.recorded.tmp_files) out.push(`autodev_temp_left ${f}`);
  return out.sort();
}

/** What the open timeline last said it shows: how many rows match, of which source (its key). */
export interface TimelineReport {
  readonly matched: number;
  readonly sourceKey: string | null;
}

/** What the editor shows besides the folder: the run status item and the open timeline's last report. */
export interface Surfaces {
  readonly runItem: RunItemText;
  /** The open timeline's last report (null: no timeline open yet). */
  readonly timeline: (() => TimelineReport | null) | null;
}

/**
 * Everything `step`'s answers say that the editor shows differently now (empty: it agrees). `ev`: what
 * the replay's event at that point left (the timeline's rows), null before the replay.
 */
export async function disagreements(
  a: StateApi,
  dir: string,
  step: string,
  running: boolean,
  ev: ReplayedEvent | null,
  views: Surfaces,
): Promise<string[]> {
  const ans = defaultRunAnswers(step);
  const s = await seeFolder(a, dir, views.runItem);
  const out: string[] = [];
  if (!s.root) return ["no root row"];
  const tasks = ans.recorded.replay?.tasks ?? [];
  if (tasks.length === 0 && !/no ledger yet/.test(s.root.description)) out.push(`root: ${s.root.description}`);
  if (s.tasks.size !== tasks.length) out.push(`${s.tasks.size} task rows, AutoDev has ${tasks.length}`);
  for (const t of tasks) {
    const d = s.tasks.get(t.id) ?? "(no row)";
    const parts = d.split(" · ");
    if (parts[0] !== taskStatusLabel(t.status)) out.push(`${t.id}: "${d}", AutoDev: ${t.status}`);
    const retry = parts.find((p) => p.startsWith("retry "));
    if ((retry?.match(/^retry (\d+)/)?.[1] ?? "0") !== String(t.retry_count)) {
      out.push(`${t.id}: "${d}", AutoDev: retry ${t.retry_count}`);
    }
    if (parts.includes("⚑") !== t.escalated) out.push(`${t.id}: "${d}", AutoDev: escalated ${t.escalated}`);
  }
  const count = "count" in ans.recorded.ledger ? ans.recorded.ledger.count : 0;
  if (count > 0 && entriesOf(s) !== count) out.push(`root: ${entriesOf(s)} ledger entries, AutoDev: ${count}`);
  const timeline = views.timeline ? views.timeline() : null;
  const ownKey = `${vscode.Uri.file(dir).toString()}|`;
  if (views.timeline && ev && count > 0 && !timeline?.sourceKey?.startsWith(ownKey)) {
    out.push(`timeline: shows ${timeline?.sourceKey ?? "nothing"}, not this folder (${ownKey}…)`);
  } else if (views.timeline && ev && count > 0 && timeline?.matched !== ev.timelineRows) {
    out.push(
      `timeline: ${timeline?.matched} entries listed, want ${ev.timelineRows} (AutoDev's ${count}, snapshots folded); ` +
        `the page's last report: ${JSON.stringify(timeline)}`,
    );
  }

  const runRow = s.top.find((r) => r.label === "AutoDev is running");
  if (running) {
    if (runRow?.description !== ACTIVITY[step]) out.push(`running row: ${runRow?.description ?? "none"}`);
    if (!s.runItem?.includes(`AutoDev running`) || !s.runItem.includes(ACTIVITY[step])) {
      out.push(`run item: ${s.runItem}`);
    }
  } else {
    if (runRow) out.push(`running row shown: ${runRow.description}`);
    if (/AutoDev running/.test(s.runItem ?? "")) out.push(`run item: ${s.runItem}`);
    if (s.top.some((r) => /holds \.autodev\/\.lock/.test(`${r.label} ${r.description} ${r.tooltip}`))) {
      out.push("a row says the lock is held");
    }
  }
  out.push(...(await tournamentDisagreements(a, s, ans, running)));

  const problems = s.problems.filter((p) => !TRUE_HAZARDS.has(p.code));
  const want = running ? [] : leftovers(ans);
  const got = problems.map((p) => `${p.code} ${p.file}`).sort();
  if (JSON.stringify(got) !== JSON.stringify(want)) out.push(`Problems: ${got.join(", ")}; want ${want.join(", ")}`);
  if (s.problems.some((p) => p.severity === vscode.DiagnosticSeverity.Error)) out.push("an error in Problems");
  return out;
}

/** The tournaments group: one row per tournament, its passes with winners, judges and worktrees as recorded. */
async function tournamentDisagreements(a: StateApi, s: Seen, ans: DefaultRunAnswers, running: boolean) {
  const out: string[] = [];
  const ids = Object.keys(ans.recorded.tournaments).sort();
  const group = s.top.find((r) => r.id.endsWith("|autodev|tournaments"));
  if (!group) return ids.length ? [`no Tournaments row (AutoDev has ${ids.join(", ")})`] : [];
  const rows = await rowsUnder(a, group);
  if (JSON.stringify(rows.map((r) => r.label).sort()) !== JSON.stringify(ids)) {
    out.push(`tournaments: ${rows.map((r) => r.label).join(", ")}; AutoDev: ${ids.join(", ")}`);
  }
  for (const row of rows) {
    const t = ans.recorded.tournaments[row.label];
    if (!t) continue;
    const h = t.history;
    const want = h
      ? `${h.length} pass${h.length === 1 ? "" : "es"} · last ${h[h.length - 1].winner}`
      : running
        ? "running"
        : "unfinished";
    if (!row.description.includes(want)) out.push(`${row.label}: "${row.description}", want ${want}`);
    const kids = await rowsUnder(a, row);
    const passes = Object.values(t.passes).sort((p, q) => p.pass_num - q.pass_num);
    const passRows = kids.filter((k) => /^Pass \d+:/.test(k.label));
    const wantPasses = passes.map((p) => `Pass ${p.pass_num}: ${p.winner} won`);
    if (JSON.stringify(passRows.map((p) => p.label)) !== JSON.stringify(wantPasses)) {
      out.push(`${row.label}: ${passRows.map((p) => p.label).join(", ")}; want ${wantPasses.join(", ")}`);
    }
    for (const [k, p] of passes.entries()) {
      if (!passRows[k]) continue;
      const judges = (await rowsUnder(a, passRows[k])).filter((j) => /^Judge \d+:/.test(j.label)).map((j) => j.label);
      const wantJudges = p.rankings.map((r, n) => `Judge ${n + 1}: ${r ? r.join(" > ") : "no usable ranking"}`);
      if (JSON.stringify(judges) !== JSON.stringify(wantJudges)) {
        out.push(`${row.label} pass ${p.pass_num}: ${judges.join(", ")}; want ${wantJudges.join(", ")}`);
      }
    }
    const worktrees = t.files.filter((f) => /^worktrees\/[^/]+\/$/.test(f)).length;
    const wt = kids.find((k) => k.id.endsWith("|worktrees"));
    const wantWt =
      worktrees === 0
        ? null
        : h
          ? "worktrees/ kept after the run"
          : running
            ? "Worktrees of the running tournament"
            : "Leftover worktrees: the tournament stopped before it finished";
    if ((wt?.label ?? null) !== wantWt || (wt && wt.description !== String(worktrees))) {
      out.push(
        `${row.label} worktrees: ${wt ? `${wt.label} (${wt.description})` : "none"}; want ${wantWt} (${worktrees})`,
      );
    }
  }
  return out;
}
