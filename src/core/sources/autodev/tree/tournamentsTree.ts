/**
 * The Tournaments browser as {@link SourceTreeNode}s: each tournament with its
 * passes (winner, Borda scores, judges and their rankings, elapsed time),
 * convergence, the markdown artifacts (opened as files) and the two diffs
 * that matter (A vs AB of a pass, initial vs final), plus a crashed run's
 * leftover worktrees.
 */
import type { NodeTarget, SourceTreeNode } from "../../stateSource";
import { PassArtifacts, TournamentSummary } from "../tournaments/tournamentIndex";
import { PassRecord, scoreLine } from "../tournaments/passResult";
import { pushAll } from "../../sourceProblems";
import { escapeMarkdown } from "../../../text/markdownText";
import { labelText } from "../../../text/untrustedText";

const WARN = { id: "warning", color: "problemsWarningIcon.foreground" };

function fileNode(id: string, label: string, file: string | null, description?: string): SourceTreeNode[] {
  return file
    ? [
        {
          id,
          label,
          description: description ?? file.slice(file.lastIndexOf("/") + 1),
          icon: { id: "markdown" },
          target: { kind: "file", file },
        },
      ]
    : [];
}

function diffTarget(title: string, left: string, right: string): NodeTarget {
  return { kind: "diff", title, left: { kind: "file", file: left }, right: { kind: "file", file: right } };
}

function judgeNodes(base: string, p: PassRecord): SourceTreeNode[] {
  return p.judges.map((j, i) => {
    const who = j.plugin ? `plugin ${labelText(j.plugin, 40)}` : `Judge ${i + 1}`;
    const verdict = j.ranking
      ? j.ranking.map((l) => labelText(l, 4)).join(" > ")
      : j.error
        ? "failed"
        : "no usable ranking";
    const order = j.order
      ? Object.entries(j.order)
          .map(([k, v]) => `${k}=${v}`)
          .join(", ")
      : null;
    const tip = [
      order ? `Shown as ${order}` : "",
      j.error ? `Error: ${j.error}` : "",
      j.rawResponse ? `Response:\n${j.rawResponse}` : "",
    ]
      .filter(Boolean)
      .join("\n\n");
    return {
      id: `${base}|judge|${i}`,
      label: `${who}: ${verdict}`,
      icon: j.ranking ? { id: "person" } : WARN,
      tooltip: tip ? escapeMarkdown(tip) : undefined,
    };
  });
}

function passNode(t: TournamentSummary, p: PassRecord, art: PassArtifacts | undefined): SourceTreeNode {
  const base = `autodev|tournament|${t.id}|pass|${p.pass}`;
  const children: SourceTreeNode[] = [
    ...fileNode(`${base}|a`, "Version A (incumbent)", art?.versionA ?? null),
    ...fileNode(`${base}|critic`, "Critic", art?.critic ?? null),
    ...fileNode(`${base}|b`, "Version B", art?.versionB ?? null),
    ...fileNode(`${base}|ab`, "Version AB (synthesis)", art?.versionAB ?? null),
  ];
  if (art?.versionA && art.versionAB) {
    children.push({
      id: `${base}|diff`,
      label: "Compare A ↔ AB",
      icon: { id: "diff" },
      target: diffTarget(`${t.id} pass ${p.pass}: A ↔ AB`, art.versionA, art.versionAB),
    });
  }
  pushAll(children, judgeNodes(base, p));
  const incumbent = t.incumbents.find((x) => x.afterPass === p.pass);
  if (incumbent) pushAll(children, fileNode(`${base}|incumbent`, `Incumbent after pass ${p.pass}`, incumbent.file));
  return {
    id: base,
    label: `Pass ${p.pass}: ${p.winner} won`,
    description: `${scoreLine(p.scores)} · ${p.validJudges}/${p.judges.length} judges · ${p.elapsedS}s`,
    icon: { id: p.winner === "A" ? "circle-large-outline" : "arrow-swap" },
    tooltip: escapeMarkdown(`Borda scores ${scoreLine(p.scores)}\nIncumbent ${p.hashBefore} → ${p.hashAfter}`),
    children,
  };
}

/** One tournament (`running`: AutoDev runs in the folder, so an unfinished tournament is in progress). */
function tournamentNode(t: TournamentSummary, running: boolean): SourceTreeNode {
  const live = running && !t.finished;
  const base = `autodev|tournament|${t.id}`;
  const conv =
    t.converged === null
      ? t.finished
        ? "convergence unknown"
        : live
          ? "running"
          : "unfinished"
      : t.converged
        ? "converged"
        : "not converged";
  const children: SourceTreeNode[] = [];
  if (t.leftoverWorktrees && live) {
    children.push({
      id: `${base}|worktrees`,
      label: "Worktrees of the running tournament",
      description: `${t.leftoverWorktrees.length}`,
      icon: { id: "sync~spin", color: "charts.blue" },
      tooltip: escapeMarkdown(
        `AutoDev realizes variants B and AB of each pass in a git worktree of its own and removes them all when the tournament ends.\n${t.leftoverWorktrees.join("\n")}`,
      ),
    });
  } else if (t.leftoverWorktrees) {
    children.push({
      id: `${base}|worktrees`,
      label: "Leftover worktrees: the tournament stopped before it finished",
      description: `${t.leftoverWorktrees.length}`,
      icon: WARN,
      tooltip: escapeMarkdown(t.leftoverWorktrees.join("\n")),
    });
  } else if (t.worktrees) {
    children.push({
      id: `${base}|worktrees`,
      label: "worktrees/ kept after the run",
      description: `${t.worktrees.length}`,
      icon: { id: "info" },
      tooltip: escapeMarkdown(
        `The tournament finished (history.json and final_output.md are there). AutoDev's offline impl runner never removes its worktrees; this folder can be deleted.\n${t.worktrees.join("\n")}`,
      ),
    });
  }
  for (const e of t.errors) {
    children.push({
      id: `${base}|error|${children.length}`,
      label: labelText(e),
      icon: WARN,
      tooltip: escapeMarkdown(e),
    });
  }
  pushAll(children, fileNode(`${base}|initial`, "Initial version", t.initial));
  const arts = new Map(t.passArtifacts.map((a) => [a.pass, a]));
  for (const p of t.passes) children.push(passNode(t, p, arts.get(p.pass)));
  pushAll(children, fileNode(`${base}|final`, "Final output", t.final));
  if (t.initial && t.final) {
    children.push({
      id: `${base}|diff`,
      label: "Compare initial ↔ final",
      icon: { id: "diff" },
      target: diffTarget(`${t.id}: initial ↔ final`, t.initial, t.final),
    });
  }
  return {
    id: base,
    label: t.id,
    description: [
      t.phase === "impl" && t.taskId ? `task ${t.taskId}` : t.phase,
      `${t.passes.length} pass${t.passes.length === 1 ? "" : "es"}`,
      t.winner ? `last ${t.winner}` : null,
      conv,
    ]
      .filter(Boolean)
      .join(" · "),
    icon: t.errors.length || (t.leftoverWorktrees && !live) ? WARN : live ? { id: "sync~spin" } : { id: "git-compare" },
    children,
  };
}

/** The "Tournaments" section (null when there are none and nothing went wrong). */
export function tournamentsSection(
  tournaments: readonly TournamentSummary[],
  errors: readonly string[],
  running = false,
): SourceTreeNode | null {
  if (tournaments.length === 0 && errors.length === 0) return null;
  const children: SourceTreeNode[] = errors.map((e, i) => ({
    id: `autodev|tournaments|error|${i}`,
    label: labelText(e),
    icon: WARN,
  }));
  pushAll(
    children,
    tournaments.map((t) => tournamentNode(t, running)),
  );
  return {
    id: "autodev|tournaments",
    label: "Tournaments",
    description: `${tournaments.length}`,
    icon: { id: "git-compare" },
    children,
  };
}
