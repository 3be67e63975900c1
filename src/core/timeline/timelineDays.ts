/**
 * Fast local days for the timeline's grouping: epoch milliseconds to
 * `YYYY-MM-DD` in an IANA time zone with a handful of `Intl` calls per
 * ledger instead of one per entry: the zone's UTC offset is sampled once a
 * week and a change inside a week (a DST switch) is found by bisection.
 */

const WEEK_MS = 7 * 86_400_000;
const DAY_MS = 86_400_000;

/** Local calendar days of one time zone. */
export class LocalDays {
  private readonly fmt: Intl.DateTimeFormat;
  /** The resolved zone name (UTC when the asked one is unknown). */
  readonly zone: string;
  private readonly weeks = new Map<number, { offset: number; switchAt: number; after: number }>();
  private readonly names = new Map<number, string>();

  constructor(timeZone: string) {
    const options: Intl.DateTimeFormatOptions = {
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    };
    let fmt: Intl.DateTimeFormat;
    try {
      fmt = new Intl.DateTimeFormat("en-US", { ...options, timeZone: timeZone || "UTC" });
    } catch {
      fmt = new Intl.DateTimeFormat("en-US", { ...options, timeZone: "UTC" });
    }
    this.fmt = fmt;
    this.zone = fmt.resolvedOptions().timeZone;
  }

  /** `YYYY-MM-DD` of an instant in this zone ("" for NaN). */
  dayOf(ms: number): string {
    if (Number.isNaN(ms)) return "";
    const day = Math.floor((ms + this.offsetAt(ms)) / DAY_MS);
    let name = this.names.get(day);
    if (name === undefined) {
      name = new Date(day * DAY_MS).toISOString().slice(0, 10);
      this.names.set(day, name);
    }
    return name;
  }

  /** The zone's UTC offset (ms) at an instant. */
  offsetAt(ms: number): number {
    const w = Math.floor(ms / WEEK_MS);
    let week = this.weeks.get(w);
    if (!week) {
      const start = w * WEEK_MS;
      const a = this.measure(start);
      const b = this.measure(start + WEEK_MS);
      let lo = start;
      let hi = start + WEEK_MS;
      if (a !== b) {
        while (hi - lo > 60_000) {
          const mid = lo + Math.floor((hi - lo) / 120_000) * 60_000;
          if (this.measure(mid) === a) lo = mid;
          else hi = mid;
        }
      }
      week = { offset: a, switchAt: a === b ? Infinity : hi, after: b };
      this.weeks.set(w, week);
    }
    return ms < week.switchAt ? week.offset : week.after;
  }

  private measure(ms: number): number {
    const p: Record<string, number> = {};
    for (const part of this.fmt.formatToParts(new Date(ms))) {
      if (part.type !== "literal") p[part.type] = Number(part.value);
    }
    const local = Date.UTC(p.year, p.month - 1, p.day, p.hour % 24, p.minute, p.second);
    return local - Math.floor(ms / 1000) * 1000;
  }
}
