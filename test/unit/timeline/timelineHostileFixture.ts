// The hostile fixture of the timeline (test/fixtures/hostile/.autodev/): a valid ledger, written
// with the core's own writer (buildEntry, the function appendEntry uses) and a fixed clock, whose
// titles, ids, sessions and payloads hold markup and script: <script>, <img onerror>, javascript:
// links, </style>, and bidi overrides (U+202E). The timeline must show all of it as inert text.
//
//   node out/test/unit/timeline/timelineHostileFixture.js test/fixtures/hostile   (rewrites the fixture)
import * as fs from "node:fs";
import * as path from "node:path";
import { LastHead, buildEntry, isoNow, planJsonText } from "../../../src/core/sources/autodev/ledger/ledgerWriter";
import { PyObject, PyValue } from "../../../src/core/pyjson/pyValue";
import { applyStrict } from "../../../src/core/sources/autodev/ledger/replay";
import { Plan, planToPy, validatePlan } from "../../../src/core/sources/autodev/plan/schemas";

const SCRIPT = `<script>window.top.__pwnedTitle=1;alert("title")</script>`;
const IMG = `<img src=x onerror="window.top.__pwnedImg=1;alert('img')">`;
const STYLE = `</style><style>body{display:none}</style><script>window.top.__pwnedStyle=1</script>`;
const JS_LINK = `javascript:alert(document.domain)`;
const BIDI = `\u202Eexe.txt\u202C invoice \u2066RLI\u2069`;
/** The hostile task id (ids are free strings in the plan schema). */
export const HOSTILE_TASK_ID = `<img src=x onerror=alert(2)>`;
/** The two hostile sessions. */
export const HOSTILE_SESSIONS = [`sess-<script>window.top.__pwnedSession=1</script>`, `\u202Esess-bidi`] as const;

function task(id: string, title: string, extra: Record<string, PyValue> = {}): PyObject {
  return new Map<string, PyValue>([
    ["id", id],
    ["phase_id", "1"],
    ["title", title],
    ["description", `${IMG} ${JS_LINK}`],
    ["status", "pending"],
    ["files", [JS_LINK, "src/<b>bold</b>.py"]],
    [
      "acceptance",
      [
        new Map<string, PyValue>([
          ["id", `${id}-a`],
          ["description", STYLE],
          ["met", false],
        ]),
      ],
    ],
    ["depends_on", []],
    ["retry_count", 0],
    ["escalated", false],
    ["assigned_agent", IMG],
    ["evidence_bundle", null],
    ["blocked_reason", null],
    ["metadata", new Map<string, PyValue>([["note", SCRIPT]])],
    ...Object.entries(extra),
  ]);
}

function plan(tasks: PyObject[], extraPhase: PyObject | null): Plan {
  const phases: PyValue[] = [
    new Map<string, PyValue>([
      ["id", "1"],
      ["title", IMG],
      ["description", STYLE],
      ["tasks", tasks],
    ]),
  ];
  if (extraPhase) phases.push(extraPhase);
  const raw = new Map<string, PyValue>([
    ["plan_id", `hostile-${SCRIPT}`],
    ["spec_hash", "0bad<script>"],
    ["phases", phases],
    ["metadata", new Map<string, PyValue>([["title", `${STYLE}${IMG} Hostile plan ${BIDI}`]])],
    ["created_at", "2026-01-02T10:00:00+00:00"],
    ["updated_at", "2026-01-02T10:00:00+00:00"],
    ["content_hash", ""],
  ]);
  const res = validatePlan(raw);
  if (!res.ok) throw new Error(`hostile plan invalid: ${res.error}`);
  return res.value;
}

/** Writes `.autodev/plan-ledger.jsonl` and `plan.json` under `dir`; returns the entry count. */
export function writeHostileFixture(dir: string): number {
  const tasks = [
    task("1.1", `${SCRIPT} Evil task`),
    task("1.2", BIDI),
    task(HOSTILE_TASK_ID, JS_LINK),
    task("1.4", `</script>${STYLE}`),
  ];
  const first = plan(tasks, null);
  let current: Plan | null = null;
  let head: LastHead = { seq: 0, selfHash: "", missingFinalNewline: false };
  let clock = Date.UTC(2026, 0, 2, 10, 0, 0);
  const lines: string[] = [];
  const append = (op: string, payload: PyObject, session: string) => {
    clock += 37_000;
    const { entry, line } = buildEntry(head, op, payload, session, isoNow(clock));
    head = { seq: entry.seq, selfHash: entry.self_hash, missingFinalNewline: false };
    current = applyStrict(current, entry).plan;
    lines.push(line);
  };
  const snapshot = (session: string) => append("snapshot", new Map([["plan", planToPy(current!)]]), session);
  const status = (taskId: string, to: string, session: string, extra: [string, PyValue][] = []) => {
    append("update_task_status", new Map<string, PyValue>([["task_id", taskId], ["status", to], ...extra]), session);
    snapshot(session);
  };
  const [a, b] = HOSTILE_SESSIONS;
  append("init_plan", new Map([["plan", planToPy(first)]]), a);
  snapshot(a);
  status("1.1", "in_progress", a, [
    ["note", IMG],
    ["link", JS_LINK],
    [`key ${SCRIPT}`, STYLE],
  ]);
  status("1.2", "blocked", a, [["blocked_reason", `<a href="${JS_LINK}">${BIDI}</a>`]]);
  append(
    "append_evidence",
    new Map<string, PyValue>([
      ["task_id", "1.1"],
      ["path", JS_LINK],
    ]),
    a,
  );
  append(
    "impl_tournament_complete",
    new Map<string, PyValue>([
      ["task_id", HOSTILE_TASK_ID],
      ["winner", SCRIPT],
      ["passes", 1],
    ]),
    b,
  );
  status(HOSTILE_TASK_ID, "in_progress", b, [
    ["retry_count", 1],
    ["escalated", true],
  ]);
  const second = plan(
    [...tasks.slice(0, 3)],
    new Map<string, PyValue>([
      ["id", "2"],
      ["title", STYLE],
      ["description", ""],
      ["tasks", [task("2.1", `${IMG}${BIDI}`)]],
    ]),
  );
  append("update_plan", new Map([["plan", planToPy(second)]]), b);
  snapshot(b);
  status("2.1", "in_progress", b);
  const root = path.join(dir, ".autodev");
  fs.mkdirSync(root, { recursive: true });
  fs.writeFileSync(path.join(root, "plan-ledger.jsonl"), lines.join(""));
  fs.writeFileSync(path.join(root, "plan.json"), planJsonText(current!));
  return lines.length;
}

if (require.main === module) {
  const dir = process.argv[2];
  if (!dir) throw new Error("usage: node out/test/unit/timeline/timelineHostileFixture.js DIR");
  console.log(`wrote ${writeHostileFixture(dir)} entries to ${path.join(dir, ".autodev")}`);
}
