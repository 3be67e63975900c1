/**
 * Proves, in the same pass as the line scan, that a `payload.plan` is a valid
 * Plan in its exact dumped form (every field present with its exact type, as
 * pydantic's `model_dump` writes it). The last plan proven is kept as a
 * template: a phase or task whose bytes equal the template's is proven by a
 * memcmp instead of a scan.
 */
import { TASK_STATUSES } from "../plan/planConstants";
import { PlanLayout, PlanSkeleton, skeletonOfLayout } from "./canonicalPlanLayout";
import { bytesOf, lastEscaped, lineBytes, lineLength, lit, oneOf, strValue } from "./canonicalScanner";
import { boolValue, decode, intValue, objValue, strList, strOrNull } from "./canonicalValues";

const P_OPEN = bytesOf('{"content_hash": ');
const P_CREATED = bytesOf(', "created_at": ');
const P_METADATA = bytesOf(', "metadata": ');
const P_PHASES = bytesOf(', "phases": ');
const P_PLAN_ID = bytesOf(', "plan_id": ');
const P_SPEC = bytesOf(', "spec_hash": ');
const P_UPDATED = bytesOf(', "updated_at": ');

const PH_OPEN = bytesOf('{"description": ');
const PH_ID = bytesOf(', "id": ');
const PH_TASKS = bytesOf(', "tasks": ');
const PH_TITLE = bytesOf(', "title": ');

const T_OPEN = bytesOf('{"acceptance": ');
const T_AGENT = bytesOf(', "assigned_agent": ');
const T_BLOCKED = bytesOf(', "blocked_reason": ');
const T_DEPENDS = bytesOf(', "depends_on": ');
const T_DESCRIPTION = bytesOf(', "description": ');
const T_ESCALATED = bytesOf(', "escalated": ');
const T_EVIDENCE = bytesOf(', "evidence_bundle": ');
const T_FILES = bytesOf(', "files": ');
const T_ID = bytesOf(', "id": ');
const T_METADATA = bytesOf(', "metadata": ');
const T_PHASE_ID = bytesOf(', "phase_id": ');
const T_RETRY = bytesOf(', "retry_count": ');
const T_STATUS = bytesOf(', "status": ');
const T_TITLE = bytesOf(', "title": ');

const A_OPEN = bytesOf('{"description": ');
const A_ID = bytesOf(', "id": ');
const A_MET = bytesOf(', "met": ');

const STATUSES: readonly Uint8Array[] = TASK_STATUSES.map((s) => bytesOf(`"${s}"`));

/** The last plan proven exact (offsets relative to its start). */
let template = new PlanLayout();
/** The layout of the plan being scanned. */
let layout = new PlanLayout();
/** Offset of the plan being scanned in the line. */
let planBase = 0;

/** True when lineBytes[i, i + (e - s)) equals template bytes [s, e). */
function sameAsTemplate(i: number, s: number, e: number): boolean {
  return i + (e - s) <= lineLength && lineBytes.compare(template.bytes, s, e, i, i + (e - s)) === 0;
}

/** An AcceptanceCriterion in exact form at `i`. */
function criterion(i: number): number {
  i = strValue(lit(i, A_OPEN));
  i = strValue(lit(i, A_ID));
  i = boolValue(lit(i, A_MET));
  return i >= 0 && lineBytes[i] === 0x7d ? i + 1 : -1;
}

/** Appends a task proven exact to the layout of the plan being scanned (offsets in the line). */
function recordTask(s: number, e: number, id: string, status: number, ms: number, me: number): void {
  layout.pushTask(s - planBase, e - planBase, id, status, ms - planBase, me - planBase);
}

/** A Task in exact form at `i` (depth 7 in the line). `t`: the template task at the same place, or -1. */
function task(i: number, t: number): number {
  if (t >= 0 && sameAsTemplate(i, template.taskStart[t], template.taskEnd[t])) {
    const end = i + (template.taskEnd[t] - template.taskStart[t]);
    const shift = i - planBase - template.taskStart[t];
    recordTask(
      i,
      end,
      template.taskId[t],
      template.taskStatus[t],
      template.metaStart[t] + shift + planBase,
      template.metaEnd[t] + shift + planBase,
    );
    return end;
  }
  const start = i;
  i = lit(i, T_OPEN);
  if (i < 0 || lineBytes[i] !== 0x5b) return -1;
  i++;
  if (lineBytes[i] === 0x5d) i++;
  else {
    for (;;) {
      i = criterion(i);
      if (i < 0) return -1;
      const c = lineBytes[i];
      if (c === 0x5d) {
        i++;
        break;
      }
      if (c !== 0x2c || lineBytes[i + 1] !== 0x20) return -1;
      i += 2;
    }
  }
  i = strOrNull(lit(i, T_AGENT));
  i = strOrNull(lit(i, T_BLOCKED));
  i = strList(lit(i, T_DEPENDS));
  i = strValue(lit(i, T_DESCRIPTION));
  i = boolValue(lit(i, T_ESCALATED));
  i = strOrNull(lit(i, T_EVIDENCE));
  i = strList(lit(i, T_FILES));
  const idStart = lit(i, T_ID);
  i = strValue(idStart);
  if (i < 0) return -1;
  const id = decode(idStart, i, lastEscaped);
  const metaStart = lit(i, T_METADATA);
  i = objValue(metaStart, 7);
  const metaEnd = i;
  i = strValue(lit(i, T_PHASE_ID));
  i = intValue(lit(i, T_RETRY));
  const statusStart = lit(i, T_STATUS);
  if (statusStart < 0) return -1;
  const k = oneOf(statusStart, STATUSES);
  if (k < 0) return -1;
  i = strValue(lit(statusStart + STATUSES[k].length, T_TITLE));
  if (i < 0 || lineBytes[i] !== 0x7d) return -1;
  recordTask(start, i + 1, id, k, metaStart, metaEnd);
  return i + 1;
}

/** A Phase in exact form at `i` (the `q`-th of the plan). */
function phase(i: number, q: number): number {
  const tplHas = q < template.phases;
  const first = layout.tasks;
  if (tplHas && sameAsTemplate(i, template.phaseStart[q], template.phaseEnd[q])) {
    const shift = i - planBase - template.phaseStart[q];
    const from = template.phaseFirstTask[q];
    const to = from + template.phaseTaskCount[q];
    layout.copyTasks(template, from, to, shift);
    const end = i + (template.phaseEnd[q] - template.phaseStart[q]);
    layout.pushPhase(i - planBase, end - planBase, first, to - from);
    return end;
  }
  const start = i;
  i = strValue(lit(i, PH_OPEN));
  i = strValue(lit(i, PH_ID));
  i = lit(i, PH_TASKS);
  if (i < 0 || lineBytes[i] !== 0x5b) return -1;
  const tplFirst = tplHas ? template.phaseFirstTask[q] : 0;
  const tplCount = tplHas ? template.phaseTaskCount[q] : 0;
  i++;
  if (lineBytes[i] === 0x5d) i++;
  else {
    for (let k = 0; ; k++) {
      i = task(i, k < tplCount ? tplFirst + k : -1);
      if (i < 0) return -1;
      const c = lineBytes[i];
      if (c === 0x5d) {
        i++;
        break;
      }
      if (c !== 0x2c || lineBytes[i + 1] !== 0x20) return -1;
      i += 2;
    }
  }
  i = strValue(lit(i, PH_TITLE));
  if (i < 0 || lineBytes[i] !== 0x7d) return -1;
  layout.pushPhase(start - planBase, i + 1 - planBase, first, layout.tasks - first);
  return i + 1;
}

/**
 * A Plan in exact dumped form at `i` (depth 3 in the line); on success makes
 * this plan the template for the next one; -1 otherwise.
 */
export function exactPlan(i: number): number {
  planBase = i;
  layout.clear();
  const start = i;
  i = strValue(lit(i, P_OPEN));
  i = strValue(lit(i, P_CREATED));
  const metaStart = lit(i, P_METADATA);
  i = objValue(metaStart, 3);
  layout.planMetaStart = metaStart - planBase;
  layout.planMetaEnd = i - planBase;
  i = lit(i, P_PHASES);
  if (i < 0 || lineBytes[i] !== 0x5b) return -1;
  i++;
  if (lineBytes[i] === 0x5d) i++;
  else {
    for (let q = 0; ; q++) {
      i = phase(i, q);
      if (i < 0) return -1;
      const c = lineBytes[i];
      if (c === 0x5d) {
        i++;
        break;
      }
      if (c !== 0x2c || lineBytes[i + 1] !== 0x20) return -1;
      i += 2;
    }
  }
  i = strValue(lit(i, P_PLAN_ID));
  i = strValue(lit(i, P_SPEC));
  i = strValue(lit(i, P_UPDATED));
  if (i < 0 || lineBytes[i] !== 0x7d) return -1;
  i++;
  const len = i - start;
  const have = layout.bytes.length;
  if (have < len) layout.bytes = Buffer.allocUnsafe(Math.max(len, 2 * have));
  else if (pinned.has(layout.bytes)) layout.bytes = Buffer.allocUnsafe(have); // strict replay keeps that one
  lineBytes.copy(layout.bytes, 0, start, i);
  layout.length = len;
  const proven = layout;
  layout = template;
  template = proven;
  return i;
}

/** The skeleton of the plan just proven (the template). */
export function skeletonOfTemplate(): PlanSkeleton {
  return skeletonOfLayout(template);
}

/** Buffers handed out by {@link pinProvenPlan}: no later proof writes into them. */
const pinned = new WeakSet<Buffer>();

/**
 * The bytes of the plan just proven (the template's copy of them, made for
 * the next plan's comparison), pinned: later proofs write into other buffers,
 * so the view stays what it is until `release` is called. Spares a second copy
 * of every snapshot for whoever keeps the latest plan's bytes (strict replay).
 */
export function pinProvenPlan(): { bytes: Buffer; release: () => void } {
  const buffer = template.bytes;
  pinned.add(buffer);
  return { bytes: buffer.subarray(0, template.length), release: () => pinned.delete(buffer) };
}
