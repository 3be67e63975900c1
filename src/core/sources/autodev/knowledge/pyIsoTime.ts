/**
 * Python 3.11's `datetime.fromisoformat(ts).timestamp()` for the forms
 * AutoDev writes and the common ISO 8601 variants: a date, an optional time
 * after any one separator character, fractional seconds, `Z` or a `±HH[:MM]`
 * offset. A naive time is local time, as in Python. Returns null where
 * Python would raise (the knowledge ranking then treats the age as unknown).
 */

const DATE = /^(?:(\d{4})-(\d{2})-(\d{2})|(\d{4})(\d{2})(\d{2}))/;
const TIME = /^(\d{2})(?:(:?)(\d{2})(?:\2(\d{2})(?:[.,](\d+))?)?)?\s*(.*)$/su;
const TZ = /^(?:Z|([+-])(\d{2})(?::?(\d{2})(?::?(\d{2})(?:\.(\d+))?)?)?)$/;

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Days in month `m` (1–12) of the proleptic Gregorian year `y`, as Python's calendar counts them. */
function daysIn(y: number, m: number): number {
  return m === 2 && y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : MONTH_DAYS[m - 1];
}

/** Seconds since the epoch (float), or null when Python's `fromisoformat` would reject `ts`. */
export function pyIsoTimestamp(ts: string): number | null {
  const dm = DATE.exec(ts);
  if (!dm) return null;
  const y = Number(dm[1] ?? dm[4]);
  const mo = Number(dm[2] ?? dm[5]);
  const d = Number(dm[3] ?? dm[6]);
  if (y < 1 || mo < 1 || mo > 12 || d < 1 || d > daysIn(y, mo)) return null;
  const rest = ts.slice(dm[0].length);
  let h = 0;
  let mi = 0;
  let s = 0;
  let micros = 0;
  let offsetS: number | null = null;
  if (rest !== "") {
    // The separator is any one character (a code point: a surrogate pair counts as one).
    const sep = rest.codePointAt(0)! > 0xffff ? 2 : 1;
    const tm = TIME.exec(rest.slice(sep));
    if (!tm || /^\d$/u.test(rest.slice(0, sep))) return null;
    [h, mi, s] = [Number(tm[1]), Number(tm[3] ?? 0), Number(tm[4] ?? 0)];
    micros = tm[5] === undefined ? 0 : Number(tm[5].slice(0, 6).padEnd(6, "0"));
    if (h > 23 || mi > 59 || s > 59) return null;
    if (tm[6] !== "") {
      const z = TZ.exec(tm[6]);
      if (!z) return null;
      if (z[1] === undefined) offsetS = 0;
      else {
        const [oh, om, os] = [Number(z[2]), Number(z[3] ?? 0), Number(z[4] ?? 0)];
        if (oh > 23 || om > 59 || os > 59) return null;
        offsetS = (z[1] === "-" ? -1 : 1) * (oh * 3600 + om * 60 + os + (z[5] ? Number(`0.${z[5].slice(0, 6)}`) : 0));
      }
    }
  }
  if (offsetS !== null) {
    const utc = y < 100 ? utcYearFix(y, mo, d, h, mi, s) : Date.UTC(y, mo - 1, d, h, mi, s) / 1000;
    return utc - offsetS + micros / 1e6;
  }
  const local = new Date(y, mo - 1, d, h, mi, s);
  if (y < 100) local.setFullYear(y);
  return local.getTime() / 1000 + micros / 1e6;
}

function utcYearFix(y: number, mo: number, d: number, h: number, mi: number, s: number): number {
  const dt = new Date(Date.UTC(2000, mo - 1, d, h, mi, s));
  dt.setUTCFullYear(y);
  return dt.getTime() / 1000;
}
