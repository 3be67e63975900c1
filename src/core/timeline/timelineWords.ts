/**
 * A source's timeline words in use, the one place every surface reads them: what an action did
 * ("plan created"), a status's label ("in progress"), what an entry did to its task's status
 * ("in progress → coded · retry 2"), each in the user's language — for the tree, the hovers and
 * pickers, the timeline's rows and find, the CLI, the run report and the language-model tools.
 */
import type { TimelineFeatures, TimelineWords } from "./timelineFeatureTypes";
import { l10n, l10nVersion, translate } from "../text/coreL10n";

function own<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.prototype.hasOwnProperty.call(table, key) ? table[key] : undefined;
}

/** What a row of `action` did, in words; an action the table does not know reads with spaces for underscores. */
export function actionWords(words: TimelineWords, action: string): string {
  const w = own(words.actions, action);
  return w ? translate(w.words) : action.replace(/_/g, " ");
}

/** A status's label, in words; a status the table does not know as written. */
export function statusWord(words: TimelineWords, status: string): string {
  const w = own(words.statuses, status);
  return w ? translate(w.label) : status;
}

/** "retry 2", "escalated": the marks of a row that retried or escalated its task. */
export function retryMarks(retryCount: number | null | undefined, escalated: boolean | undefined): string[] {
  const out: string[] = [];
  if (retryCount !== null && retryCount !== undefined) out.push(l10n.t("retry {0}", retryCount));
  if (escalated === true) out.push(l10n.t("escalated"));
  return out;
}

/** What a status change did, as its parts. */
export interface StatusChangeParts {
  readonly fromStatus: string | null;
  readonly toStatus: string | null;
  readonly retryCount: number | null;
  readonly escalated: boolean;
}

/**
 * What an entry did to its task's status: "in progress → coded", "retry 2", "escalated", or
 * "coded (unchanged)", joined with " · " — never "coded → coded"; "" when it touched no status.
 */
export function changeWords(words: TimelineWords, e: StatusChangeParts): string {
  if (e.toStatus === null) return "";
  const parts: string[] = [];
  if (e.fromStatus !== e.toStatus) {
    parts.push(
      l10n.t("{0} → {1}", e.fromStatus === null ? "?" : statusWord(words, e.fromStatus), statusWord(words, e.toStatus)),
    );
  }
  parts.push(...retryMarks(e.retryCount, e.escalated));
  if (parts.length === 0) parts.push(l10n.t("{0} (unchanged)", statusWord(words, e.toStatus)));
  return parts.join(" · ");
}

const localized = new WeakMap<TimelineFeatures, { version: number; features: TimelineFeatures }>();

/** The features with every word and label in the user's language (what the webview shows and the find matches). */
export function localizedFeatures(f: TimelineFeatures): TimelineFeatures {
  const version = l10nVersion();
  const hit = localized.get(f);
  if (hit && hit.version === version) return hit.features;
  const w = f.words;
  const map = <T, U>(o: Readonly<Record<string, T>>, fn: (v: T) => U): Record<string, U> =>
    Object.fromEntries(Object.entries(o).map(([k, v]) => [k, fn(v)]));
  const l = w.labels;
  const features: TimelineFeatures = {
    ...f,
    words: {
      ...w,
      actions: map(w.actions, (a) => ({ ...a, words: translate(a.words) })),
      statuses: map(w.statuses, (s) => ({ ...s, label: translate(s.label) })),
      labels: {
        actor: translate(l.actor),
        actorTitle: translate(l.actorTitle),
        allActors: translate(l.allActors),
        filterActor: translate(l.filterActor),
        allActions: translate(l.allActions),
        filterAction: translate(l.filterAction),
        find: translate(l.find),
        selectHint: translate(l.selectHint),
        record: translate(l.record),
        fields: map(l.fields, (label) => translate(label)),
      },
    },
    chain: f.chain && { ...f.chain, brokenAt: translate(f.chain.brokenAt), broken: translate(f.chain.broken) },
    travel: f.travel && {
      asOf: translate(f.travel.asOf),
      shown: translate(f.travel.shown),
      row: translate(f.travel.row),
      onSelect: translate(f.travel.onSelect),
    },
    snapshot: f.snapshot && {
      ...f.snapshot,
      name: translate(f.snapshot.name),
      fold: translate(f.snapshot.fold),
      mark: translate(f.snapshot.mark),
      folded: translate(f.snapshot.folded),
    },
  };
  localized.set(f, { version, features });
  return features;
}
