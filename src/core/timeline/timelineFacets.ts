/**
 * What the timeline's filter controls offer: every action, resulting status,
 * actor and task of a timeline, with how many rows have it. Counted
 * incrementally — an append only counts the new rows.
 */
import type { FacetCount, TimelineFacets, TimelineIndexEntry } from "./timelineTypes";

/** At most this many values per facet. */
const MAX_FACET_VALUES = 500;

/** "1.10" after "1.9". Made on first use: an ICU collator costs milliseconds, and the extension host loads this module at start. */
let collator: Intl.Collator | null = null;
const naturalCollator = () => (collator ??= new Intl.Collator("en", { numeric: true }));

/** How often a value occurs and the index of its newest entry. */
interface Tally {
  count: number;
  last: number;
}

type Ranked = [string, Tally];

/** Running counts over one growing entry array. */
export class FacetTally {
  private counted = 0;
  private readonly actions = new Map<string, Tally>();
  private readonly statuses = new Map<string, Tally>();
  private readonly actors = new Map<string, Tally>();
  private readonly tasks = new Map<string, Tally>();
  private cache: { length: number; facets: TimelineFacets } | null = null;

  /** The facets of `entries` (the same array every call; it may have grown): actors newest first, the rest in natural order. */
  facets(entries: readonly TimelineIndexEntry[]): TimelineFacets {
    const n = entries.length;
    if (this.cache && this.cache.length === n) return this.cache.facets;
    for (let i = this.counted; i < n; i++) {
      const e = entries[i];
      bump(this.actions, e.action, i);
      bump(this.statuses, e.toStatus, i);
      bump(this.actors, e.actor, i);
      bump(this.tasks, e.taskId, i);
    }
    this.counted = n;
    const natural = (a: Ranked, b: Ranked) => naturalCollator().compare(a[0], b[0]);
    const newest = (a: Ranked, b: Ranked) => b[1].last - a[1].last;
    const facets = {
      actions: list(this.actions, natural),
      statuses: list(this.statuses, natural),
      actors: list(this.actors, newest),
      tasks: list(this.tasks, natural),
    };
    this.cache = { length: n, facets };
    return facets;
  }
}

function bump(m: Map<string, Tally>, k: string | null, i: number): void {
  if (k === null) return;
  const x = m.get(k);
  if (x) {
    x.count++;
    x.last = i;
  } else m.set(k, { count: 1, last: i });
}

function list(m: Map<string, Tally>, sort: (a: Ranked, b: Ranked) => number): FacetCount[] {
  return [...m]
    .sort(sort)
    .slice(0, MAX_FACET_VALUES)
    .map(([value, x]) => ({ value, count: x.count }));
}
