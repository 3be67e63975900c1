/**
 * What the demo's tournaments play: the plan tournament that refined the
 * plan (3 judges, k=2: AB won, then A twice) and the impl tournaments of
 * tasks 1.1 (A kept at once), 1.2 (B won, then A: converged) and 2.1 (B, AB,
 * B: max_rounds reached, not converged), with the config's judges, k and
 * max_rounds. Each final candidate's diff is what the workspace files hold.
 */
import { FileChange, gitStyleDiff } from "./gitStyleDiff";
import { DEMO_CHANGES, DEMO_FILES, DEMO_PLAN, TEST_LENGTH, TEST_TEMPERATURE } from "./demoScript";
import {
  DemoImplBundle,
  DemoLabel,
  DemoTournamentScript,
  DemoVariant,
  implVariant,
  planVariant,
} from "./demoTournaments";

type PlanTask = (typeof DEMO_PLAN.phases)[number]["tasks"][number];

/** `# Plan:` Markdown in the format the architect is asked for and `parse_plan_markdown` reads. */
function planMarkdown(skip: readonly string[]): string {
  const out = [`# Plan: ${DEMO_PLAN.metadata.title}`, ""];
  for (const phase of DEMO_PLAN.phases) {
    out.push(`## Phase ${phase.id}: ${phase.title}`, "");
    for (const t of phase.tasks.filter((x: PlanTask) => !skip.includes(x.id))) {
      out.push(`### Task ${t.id}: ${t.title}`, `  - Description: ${t.description}`);
      if (t.files.length) out.push(`  - Files: ${t.files.join(", ")}`);
      if (t.depends_on.length) out.push(`  - Depends: ${t.depends_on.join(", ")}`);
      if (t.acceptance.length) {
        out.push("  - Acceptance:", ...t.acceptance.map((a: { description: string }) => `    - [ ] ${a.description}`));
      }
      out.push("");
    }
  }
  return out.join("\n");
}

const judges3 = (...r: Array<DemoLabel[] | null>) => r;
const KEEP_A: DemoLabel[] = ["A", "AB", "B"];

/** The plan tournament (before `init_plan`); its final output is the demo plan. */
export const PLAN_TOURNAMENT: DemoTournamentScript = {
  id: "plan-5e0c7a92",
  phase: "plan",
  convergenceK: 2,
  maxRounds: 5,
  startedAt: 1795856400 - 412 + 0.4886773,
  // The architect's first plan had no property tests and nothing about the user's home config.
  initial: planVariant(planMarkdown(["2.3", "3.3"])),
  passes: [
    {
      critic:
        "Pass 1 critique: conversions are only spot-checked; nothing proves to_m and back round-trip for every unit. Config from the user's home is missing.",
      b: planVariant(planMarkdown(["3.3"])),
      ab: planVariant(planMarkdown([])),
      rankings: judges3(["AB", "B", "A"], ["AB", "A", "B"], null),
    },
    {
      critic:
        "Pass 2 critique: 3.3 depends on an open decision (XDG or ~/.units.toml); keep it, the executor will block on it.",
      b: planVariant(planMarkdown(["3.3", "4.2"])),
      ab: planVariant(planMarkdown(["4.2"])),
      rankings: judges3(KEEP_A, KEEP_A, ["A", "B", "AB"]),
    },
    {
      critic: "Pass 3 critique: no further issues; the phases are small and ordered by dependency.",
      b: planVariant(planMarkdown(["1.3"])),
      ab: planVariant(planMarkdown(["1.3", "4.1"])),
      rankings: judges3(KEEP_A, ["A", "B", "AB"], KEEP_A),
    },
  ],
};

const withFile = (changes: readonly FileChange[], file: string, text: string): string =>
  gitStyleDiff([...changes, { oldPath: file, newPath: file, before: null, after: text }]);
const withAfter = (changes: readonly FileChange[], file: string, text: string): string =>
  gitStyleDiff(changes.map((c) => (c.newPath === file ? { ...c, after: text } : c)));

function impl(task: string, label: DemoLabel, diff: string, tests: [number, number], notes?: string): DemoVariant {
  const t = DEMO_PLAN.phases.flatMap((p) => p.tasks).find((x: PlanTask) => x.id === task)!;
  const files = [...new Set([...diff.matchAll(/^diff --git a\/\S+ b\/(\S+)$/gm)].map((m) => m[1]))];
  const bundle: DemoImplBundle = { taskId: task, label, files, tests, description: t.description, notes, diff };
  return implVariant(bundle);
}

const TEST_LENGTH_DECIMAL = TEST_LENGTH.replace("import pytest\n", "from decimal import Decimal\n\nimport pytest\n");
const TEST_TEMPERATURE_V1 = TEST_TEMPERATURE.slice(0, TEST_TEMPERATURE.indexOf("\n\n\n@pytest")) + "\n";
const CLI_ARGC = DEMO_FILES["src/units/cli.py"].replace(
  "    value, unit",
  "    if len(sys.argv) != 3:\n        return 2\n    value, unit",
);
const TEST_TEMPERATURE_V2 = TEST_TEMPERATURE.replace(
  "@pytest.mark.parametrize",
  "# boiling and freezing points\n@pytest.mark.parametrize",
);

/** Impl tournaments by task id (`impl_tournament_complete` before the `tournamented` status). */
export const IMPL_TOURNAMENTS: Readonly<Record<string, DemoTournamentScript>> = {
  "1.1": {
    id: "impl-8b41d3f0",
    phase: "impl",
    convergenceK: 1,
    maxRounds: 3,
    startedAt: 1795856400 + 1210 + 0.2495213,
    initial: impl("1.1", "A", gitStyleDiff(DEMO_CHANGES["1.1"]), [12, 0]),
    passes: [
      {
        critic: "Pass 1 critique: main() ignores a missing argument; an IndexError is not a usage message.",
        b: impl(
          "1.1",
          "B",
          withAfter(DEMO_CHANGES["1.1"], "src/units/cli.py", CLI_ARGC),
          [12, 0],
          "Exit 2 on a wrong argument count.",
        ),
        ab: impl(
          "1.1",
          "AB",
          gitStyleDiff(DEMO_CHANGES["1.1"]),
          [12, 0],
          "Kept A; the usage message belongs to task 2.2.",
        ),
        rankings: [KEEP_A],
      },
    ],
  },
  "1.2": {
    id: "impl-c27e9a15",
    phase: "impl",
    convergenceK: 1,
    maxRounds: 3,
    startedAt: 1795856400 + 2405 + 0.7332401,
    initial: impl("1.2", "A", gitStyleDiff(DEMO_CHANGES["1.2"]), [41, 1]),
    passes: [
      {
        critic: "Pass 1 critique: the factor table has no tests of its own; a typo in 'mi' would go unnoticed.",
        b: impl(
          "1.2",
          "B",
          withFile(DEMO_CHANGES["1.2"], "tests/test_length.py", TEST_LENGTH),
          [42, 0],
          "Adds tests/test_length.py with one case per unit.",
        ),
        ab: impl(
          "1.2",
          "AB",
          withFile(DEMO_CHANGES["1.2"], "tests/test_length.py", TEST_LENGTH_DECIMAL),
          [42, 0],
          "B's tests, with Decimal imported for a later exact mode.",
        ),
        rankings: [["B", "AB", "A"]],
      },
      {
        critic: "Pass 2 critique: Decimal would change every caller; floats are fine for a CLI that prints.",
        b: impl(
          "1.2",
          "B",
          withFile(DEMO_CHANGES["1.2"], "tests/test_length.py", TEST_LENGTH_DECIMAL),
          [42, 0],
          "Decimal factors.",
        ),
        ab: impl("1.2", "AB", withFile(DEMO_CHANGES["1.2"], "tests/test_length.py", TEST_LENGTH_DECIMAL), [42, 0]),
        rankings: [KEEP_A],
      },
    ],
  },
  "2.1": {
    id: "impl-0f93b6d4",
    phase: "impl",
    convergenceK: 1,
    maxRounds: 3,
    startedAt: 1795856400 + 4820 + 0.1043527,
    initial: impl("2.1", "A", gitStyleDiff(DEMO_CHANGES["2.1"]), [8, 0]),
    passes: [
      {
        critic: "Pass 1 critique: f_to_c is untested.",
        b: impl(
          "2.1",
          "B",
          withFile(DEMO_CHANGES["2.1"], "tests/test_temperature.py", TEST_TEMPERATURE_V1),
          [9, 0],
          "One round-trip test.",
        ),
        ab: impl("2.1", "AB", gitStyleDiff(DEMO_CHANGES["2.1"]), [8, 0]),
        rankings: [["B", "A", "AB"]],
      },
      {
        critic: "Pass 2 critique: one value is not enough; test the fixed points.",
        b: impl("2.1", "B", withFile(DEMO_CHANGES["2.1"], "tests/test_temperature.py", TEST_TEMPERATURE), [11, 0]),
        ab: impl(
          "2.1",
          "AB",
          withFile(DEMO_CHANGES["2.1"], "tests/test_temperature.py", TEST_TEMPERATURE_V2),
          [11, 0],
          "B's fixed points, labelled.",
        ),
        rankings: [["AB", "B", "A"]],
      },
      {
        critic: "Pass 3 critique: the comment adds nothing the parameter names do not say.",
        b: impl(
          "2.1",
          "B",
          withFile(DEMO_CHANGES["2.1"], "tests/test_temperature.py", DEMO_FILES["tests/test_temperature.py"]),
          [11, 0],
          "AB without the comment.",
        ),
        ab: impl("2.1", "AB", withFile(DEMO_CHANGES["2.1"], "tests/test_temperature.py", TEST_TEMPERATURE_V2), [11, 0]),
        rankings: [["B", "AB", "A"]],
      },
    ],
  },
};
