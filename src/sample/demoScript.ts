/**
 * The content of the demo workspace: the plan, the workspace files (after
 * state), and the sequence of steps that moves tasks through the state machine
 * and writes their evidence. Plain data; `demoWorkspace.ts` plays it.
 */
import { FileChange, gitStyleDiff } from "./gitStyleDiff";
import { shortHash } from "./demoTournaments";
import { RESUMABLE_STATUSES } from "../core/sources/autodev/plan/planConstants";

/** One scripted action. */
export type DemoStep =
  | { kind: "status"; task: string; status: string; reason?: string }
  | { kind: "retry"; task: string }
  | { kind: "escalate"; task: string }
  | { kind: "audit"; op: string; payload: Record<string, unknown> }
  | { kind: "evidence"; task: string; bundle: Record<string, unknown> }
  | { kind: "patch"; task: string; changes: FileChange[] }
  | { kind: "tournament"; task: string };

const LENGTH_BEFORE = 'def to_m(value, unit):\n    if unit == "km":\n        return value * 1000\n    return value\n';
const LENGTH_AFTER =
  '"""Length conversions."""\n\nFACTORS = {"mm": 0.001, "cm": 0.01, "m": 1.0, "km": 1000.0, "mi": 1609.344}\n\n\ndef to_m(value: float, unit: str) -> float:\n    return value * FACTORS[unit]\n';
const TEMP_BEFORE = "def c_to_f(c):\n    return c * 9 / 5 + 32\n";
const TEMP_AFTER =
  '"""Temperature conversions."""\n\n\ndef c_to_f(c: float) -> float:\n    return c * 9 / 5 + 32\n\n\ndef f_to_c(f: float) -> float:\n    return (f - 32) * 5 / 9\n';
const CLI_AFTER =
  "import sys\n\nfrom units.length import to_m\n\n\ndef main() -> int:\n    value, unit = float(sys.argv[1]), sys.argv[2]\n    print(to_m(value, unit))\n    return 0\n";
const USAGE_BEFORE = "Usage\n\nunits VALUE UNIT\n";
const USAGE_AFTER = "# Usage\n\n    units VALUE UNIT\n\nUnits: mm, cm, m, km, mi.\n";
const README_BEFORE = "# units\n\nConverts units.";
const README_AFTER = "# units\n\nConverts lengths and temperatures — schnell & genau.";
const TOML_BEFORE = '[units]\r\ndefault = "m"\r\n';
const TOML_AFTER = '[units]\r\ndefault = "km"\r\nprecision = 3\r\n';
/** The tests the impl tournaments of 1.2 and 2.1 added (their winners' diffs create them). */
export const TEST_LENGTH =
  'import pytest\n\nfrom units.length import to_m\n\n\n@pytest.mark.parametrize(("unit", "metres"), [("mm", 0.001), ("cm", 0.01), ("m", 1.0), ("km", 1000.0), ("mi", 1609.344)])\ndef test_one_of_each_unit(unit, metres):\n    assert to_m(1, unit) == metres\n';
/** See {@link TEST_LENGTH}. */
export const TEST_TEMPERATURE =
  'import pytest\n\nfrom units.temperature import c_to_f, f_to_c\n\n\ndef test_round_trip():\n    assert f_to_c(c_to_f(21.5)) == pytest.approx(21.5)\n\n\n@pytest.mark.parametrize(("c", "f"), [(0, 32), (100, 212), (-40, -40)])\ndef test_fixed_points(c, f):\n    assert c_to_f(c) == f\n    assert f_to_c(f) == c\n';
const ALIASES = 'ALIASES = {"metre": "m", "meter": "m", "kilometre": "km", "kilometer": "km", "mile": "mi"}\n';
const LEGACY = "# old entry point, replaced by units.cli\nprint('hello')\n";

/** Workspace files in their final state (the patches' after side). */
export const DEMO_FILES: Record<string, string> = {
  "src/units/__init__.py": '"""Unit conversions."""\n',
  "src/units/length.py": LENGTH_AFTER,
  "src/units/temperature.py": TEMP_AFTER,
  "src/units/cli.py": CLI_AFTER,
  "docs/usage.md": USAGE_AFTER,
  "README.md": README_AFTER,
  "config/defaults.toml": TOML_AFTER,
  "tests/test_length.py": TEST_LENGTH,
  "tests/test_temperature.py": TEST_TEMPERATURE,
  "src/units/aliases.py": ALIASES,
};

/**
 * The intent `autodev plan` was given. The plan phase writes `spec.md` as `intent.strip() + "\n"`
 * and records `spec_hash = sha256(intent)[:16]` (`plan_phase._spec_hash`), so the demo's spec matches its plan.
 */
export const DEMO_SPEC_INTENT =
  "# Spec: units converter CLI\n\nA small CLI that converts lengths and temperatures, with a config file and docs.";

/** A pending task; the fields it does not name take `Task`'s defaults when demoWorkspace validates the plan. */
const task = (id: string, title: string, description: string, extra: Record<string, unknown> = {}) => ({
  id,
  phase_id: id.split(".")[0],
  title,
  description,
  files: [] as string[],
  acceptance: [] as { id: string; description: string; met: boolean }[],
  depends_on: [] as string[],
  ...extra,
});

/** The initial plan (all tasks pending). */
export const DEMO_PLAN = {
  plan_id: "plan-units-2026-11",
  spec_hash: shortHash(DEMO_SPEC_INTENT),
  phases: [
    {
      id: "1",
      title: "Foundations",
      description: "Package layout and the length module",
      tasks: [
        task("1.1", "Create the package and CLI entry point", "Add src/units/ with __init__.py and cli.py.", {
          files: ["src/units/__init__.py", "src/units/cli.py"],
          assigned_agent: "developer",
          acceptance: [
            { id: "1.1-a", description: "`units 3 km` prints 3000.0", met: true },
            { id: "1.1-b", description: "package has a docstring", met: true },
          ],
        }),
        task(
          "1.2",
          "Length conversions with a factor table",
          "Replace the if-chain with a table; drop the legacy script.",
          {
            files: ["src/units/length.py", "src/legacy.py"],
            depends_on: ["1.1"],
            assigned_agent: "developer",
            acceptance: [{ id: "1.2-a", description: "mm, cm, m, km, mi supported", met: true }],
          },
        ),
        task("1.3", "Unit aliases", "Accept metre, kilometre and mile for m, km and mi.", {
          files: ["src/units/aliases.py"],
          depends_on: ["1.2"],
          assigned_agent: "developer",
        }),
      ],
    },
    {
      id: "2",
      title: "Conversions",
      description: "Temperatures and docs",
      tasks: [
        task("2.1", "Temperature conversions", "Add f_to_c next to c_to_f.", {
          files: ["src/units/temperature.py"],
          depends_on: ["1.1"],
          assigned_agent: "developer",
        }),
        task("2.2", "Usage documentation", "Rename USAGE.txt to usage.md and document the units.", {
          files: ["docs/usage.md", "README.md"],
        }),
        task("2.3", "Round-trip property tests", "Hypothesis tests: to and from every unit.", {
          depends_on: ["1.2", "2.1"],
        }),
        task("2.4", "Precision option", "--precision N rounds the output.", { depends_on: ["1.1"] }),
      ],
    },
    {
      id: "3",
      title: "Configuration",
      description: "Defaults from a config file",
      tasks: [
        task("3.1", "Default unit from config", "Read config/defaults.toml.", { files: ["config/defaults.toml"] }),
        task("3.2", "Config validation", "Reject unknown keys with a clear message.", {
          depends_on: ["3.1"],
          acceptance: [{ id: "3.2-a", description: "unknown key → exit 2 with the key named", met: false }],
        }),
        task("3.3", "Read settings from the user's home", "~/.config/units.toml overrides the project defaults.", {
          depends_on: ["3.1"],
        }),
      ],
    },
    {
      id: "4",
      title: "Docs & release",
      description: "",
      tasks: [
        task("4.1", "Changelog for 0.1.0", "Write CHANGELOG.md."),
        task("4.2", "Überprüfen der Übersetzungen — 日本語の説明", "Review the translated usage docs (de, ja)."),
      ],
    },
  ],
  metadata: { title: "Units converter CLI", owner: "demo", platform: "inline" },
  created_at: "2026-11-28T09:00:00.000000+00:00",
  updated_at: "2026-11-28T09:00:00.000000+00:00",
  content_hash: "",
};

const FLOW = [...RESUMABLE_STATUSES, "complete"];

/**
 * Moves `id` through the FSM to `until` (inclusive), with evidence at the right steps. Its impl
 * tournament (demoTournamentScripts.ts) runs before `tournamented`, as `execute` runs it.
 */
function walk(id: string, until: string, evidence: Partial<Record<string, Record<string, unknown>>> = {}): DemoStep[] {
  const steps: DemoStep[] = [];
  for (const status of FLOW) {
    if (status === "tournamented") steps.push({ kind: "tournament", task: id });
    steps.push({ kind: "status", task: id, status });
    const kind = { coded: "developer", reviewed: "review", tested: "test" }[status];
    if (kind && evidence[kind]) steps.push({ kind: "evidence", task: id, bundle: { kind, ...evidence[kind] } });
    if (status === until) break;
  }
  return steps;
}

const P11: FileChange[] = [
  {
    oldPath: "src/units/__init__.py",
    newPath: "src/units/__init__.py",
    before: null,
    after: DEMO_FILES["src/units/__init__.py"],
  },
  { oldPath: "src/units/cli.py", newPath: "src/units/cli.py", before: null, after: CLI_AFTER },
];
const P12: FileChange[] = [
  { oldPath: "src/units/length.py", newPath: "src/units/length.py", before: LENGTH_BEFORE, after: LENGTH_AFTER },
  { oldPath: "src/legacy.py", newPath: "src/legacy.py", before: LEGACY, after: null },
];
const P21: FileChange[] = [
  { oldPath: "src/units/temperature.py", newPath: "src/units/temperature.py", before: TEMP_BEFORE, after: TEMP_AFTER },
];
const P13: FileChange[] = [
  { oldPath: "src/units/aliases.py", newPath: "src/units/aliases.py", before: null, after: ALIASES },
];
/**
 * The task the demo's run is suspended at: its QA gates passed (`auto_gated`), the reviewer's
 * delegation waits for an answer. It is the plan's first task in flight, the one `autodev resume`
 * re-enters (`_find_in_progress_task`).
 */
export const DEMO_REVIEW_WAIT = { task: "1.3", changes: P13 } as const;
const P22: FileChange[] = [
  { oldPath: "docs/USAGE.txt", newPath: "docs/usage.md", before: USAGE_BEFORE, after: USAGE_AFTER },
  { oldPath: "README.md", newPath: "README.md", before: README_BEFORE, after: README_AFTER },
];
/** Each task's developer changes by task id (the tournaments start from them). */
export const DEMO_CHANGES: Readonly<Record<string, readonly FileChange[]>> = {
  "1.1": P11,
  "1.2": P12,
  "2.1": P21,
  "2.2": P22,
};
const P31: FileChange[] = [
  { oldPath: "config/defaults.toml", newPath: "config/defaults.toml", before: TOML_BEFORE, after: TOML_AFTER },
];

const dev = (
  files: string[],
  changes?: FileChange[],
  ok = true,
  out = "Implemented as planned; all local checks pass.",
) => ({
  diff: changes ? gitStyleDiff(changes) : null,
  files_changed: files,
  output_text: out,
  duration_s: 42.7,
  success: ok,
});
const review = (verdict: string, issues: string[] = []) => ({ verdict, issues, output_text: `Verdict: ${verdict}` });
const tests = (passed: number, total: number, cov: number | null) => ({
  passed,
  failed: total - passed,
  total,
  output_text: `${passed} passed, ${total - passed} failed`,
  coverage_pct: cov,
});

/** Everything that happens after `init_plan`. */
export const DEMO_STEPS: DemoStep[] = [
  {
    kind: "evidence",
    task: "plan",
    bundle: {
      kind: "explore",
      findings: "Existing code: a 4-line length helper and a legacy script.",
      files_referenced: ["src/legacy.py", "docs/USAGE.txt"],
    },
  },
  {
    kind: "evidence",
    task: "plan",
    bundle: {
      kind: "domain_expert",
      topic: "unit systems",
      findings: "Use exact factors (1 mi = 1609.344 m).",
      confidence: "HIGH",
    },
  },
  {
    kind: "evidence",
    task: "plan",
    bundle: {
      kind: "critic",
      verdict: "APPROVED",
      issues: ["3.3 may need a design note"],
      output_text: "Plan is sound.",
    },
  },
  { kind: "patch", task: "1.1", changes: P11 },
  ...walk("1.1", "complete", {
    developer: dev(["src/units/__init__.py", "src/units/cli.py"], P11),
    review: review("APPROVED"),
    test: tests(12, 12, 91.5),
  }),
  { kind: "patch", task: "1.2", changes: P12 },
  { kind: "status", task: "1.2", status: "in_progress" },
  { kind: "status", task: "1.2", status: "coded" },
  { kind: "status", task: "1.2", status: "in_progress" },
  { kind: "retry", task: "1.2" },
  ...walk("1.2", "complete", {
    developer: dev(["src/units/length.py", "src/legacy.py"], P12),
    review: review("APPROVED", ["consider Decimal for mi", "docstring wording"]),
    test: tests(42, 42, 87.5),
  }).slice(1),
  { kind: "patch", task: "1.3", changes: P13 },
  ...walk("1.3", "auto_gated", { developer: dev(["src/units/aliases.py"], P13) }),
  { kind: "patch", task: "2.1", changes: P21 },
  ...walk("2.1", "tournamented", {
    developer: dev(["src/units/temperature.py"], P21),
    review: review("APPROVED"),
    test: tests(8, 8, 100),
  }),
  { kind: "patch", task: "2.2", changes: P22 },
  ...walk("2.2", "tested", {
    developer: dev(["docs/usage.md", "README.md"], P22),
    review: review("APPROVED", ["mention mi"]),
    test: tests(3, 3, null),
  }),
  ...walk("2.3", "reviewed", { developer: dev(["tests/test_roundtrip.py"]), review: review("APPROVED") }),
  ...walk("2.4", "auto_gated", { developer: dev(["src/units/cli.py"]) }),
  { kind: "patch", task: "3.1", changes: P31 },
  ...walk("3.1", "coded", { developer: dev(["config/defaults.toml"], P31) }),
  { kind: "status", task: "3.2", status: "in_progress" },
  { kind: "status", task: "3.2", status: "coded" },
  {
    kind: "evidence",
    task: "3.2",
    bundle: { kind: "developer", ...dev(["src/units/config.py"], undefined, false, "Traceback: KeyError 'precision'") },
  },
  { kind: "status", task: "3.2", status: "in_progress" },
  { kind: "retry", task: "3.2" },
  { kind: "retry", task: "3.2" },
  { kind: "escalate", task: "3.2" },
  {
    kind: "status",
    task: "3.3",
    status: "blocked",
    reason: "Needs a decision: XDG path or ~/.units.toml? Asked the user on 2026-11-29.",
  },
  { kind: "status", task: "4.2", status: "skipped" },
];
