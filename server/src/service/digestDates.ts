/**
 * Dates of digests: a daily digest is usually named by its day (`2026-05-01.digest.txt`,
 * `llm-2026-05-01.digest`), and the statistics and the Papers filter group papers by that day,
 * its ISO week and its month.
 */
import { decodeUriText } from './text';

/** A calendar date as `YYYY-MM-DD`. */
export type IsoDate = string;

/**
 * The day a digest's file name names, if it names a real calendar day: the last `YYYY-MM-DD`
 * (or `YYYYMMDD` between non-digits) in the last path segment of a URI or path.
 *
 * @example
 * digestDateOf('file:///w/2026-05-01.digest.txt') // '2026-05-01'
 * digestDateOf('file:///w/llm_20260501.digest')    // '2026-05-01'
 * digestDateOf('file:///w/2026-02-30.digest')      // undefined (no such day)
 * digestDateOf('file:///w/notes.digest')           // undefined
 */
export function digestDateOf(uriOrPath: string): IsoDate | undefined {
  const name = decodeUriText(uriOrPath.slice(Math.max(uriOrPath.lastIndexOf('/'), uriOrPath.lastIndexOf('\\')) + 1));
  const matches = [...name.matchAll(/(?<!\d)(\d{4})-?(\d{2})-?(\d{2})(?!\d)/g)];
  for (let i = matches.length - 1; i >= 0; i--) {
    const [, year, month, day] = matches[i];
    const date = `${year}-${month}-${day}`;
    if (isCalendarDate(date)) {
      return date;
    }
  }
  return undefined;
}

/** Whether `YYYY-MM-DD` is a day of the calendar (years 1900 to 2999). */
export function isCalendarDate(date: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match) {
    return false;
  }
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < 1900 || year > 2999 || month < 1 || month > 12 || day < 1) {
    return false;
  }
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/**
 * The ISO 8601 week of a day, as `YYYY-Www` (weeks start on Monday; week 1 holds the year's
 * first Thursday).
 *
 * @example
 * isoWeekOf('2026-05-01') // '2026-W18'
 * isoWeekOf('2027-01-01') // '2026-W53'
 */
export function isoWeekOf(date: IsoDate): string {
  const day = toUtc(date);
  const weekday = (day.getUTCDay() + 6) % 7; // Monday 0 … Sunday 6
  const thursday = new Date(day.getTime() + (3 - weekday) * 86_400_000);
  const year = thursday.getUTCFullYear();
  const week = Math.ceil(((thursday.getTime() - Date.UTC(year, 0, 1)) / 86_400_000 + 1) / 7);
  return `${year}-W${String(week).padStart(2, '0')}`;
}

/** The month of a day, as `YYYY-MM`. */
export function monthOf(date: IsoDate): string {
  return date.slice(0, 7);
}

/** The day `days` after `date` (before it when negative). */
export function addDays(date: IsoDate, days: number): IsoDate {
  return new Date(toUtc(date).getTime() + days * 86_400_000).toISOString().slice(0, 10);
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: IsoDate, to: IsoDate): number {
  return Math.round((toUtc(to).getTime() - toUtc(from).getTime()) / 86_400_000);
}

function toUtc(date: IsoDate): Date {
  return new Date(`${date}T00:00:00Z`);
}

/** Where a digest stands in digest order (`compareDigestKeys`). */
export interface DigestOrderKey {
  readonly uri: string;
  /** The date in its file name, if any. */
  readonly date?: IsoDate;
  /** The date's midnight in local time, else the modification time, else +∞ (an unsaved document). */
  readonly time: number;
}

/** The order key of a digest: its date, else `mtime`. */
export function digestOrderKey(uri: string, mtime: number | undefined): DigestOrderKey {
  const date = digestDateOf(uri);
  return { uri, date, time: date ? localMidnight(date) : mtime ?? Number.POSITIVE_INFINITY };
}

/**
 * The start of a day in the machine's time zone: a digest named for 2 May comes after a file saved
 * on the evening of 1 May wherever the reader is (as UTC midnight, it came before it west of UTC).
 */
function localMidnight(date: IsoDate): number {
  return new Date(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))).getTime();
}

/**
 * The order of digests, oldest first, as the reading workflow goes through them: by the date in
 * the file name (as midnight in local time), else by the modification time; at the same time a dated digest
 * first; one with neither last; then by URI. Negative when `a` comes first.
 */
export function compareDigestKeys(a: DigestOrderKey, b: DigestOrderKey): number {
  if (a.time !== b.time) {
    return a.time < b.time ? -1 : 1;
  }
  if (!!a.date !== !!b.date) {
    return a.date ? -1 : 1;
  }
  return a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0;
}

/**
 * `compareDigestKeys` of two digests by their URIs and modification times (`mtimeOf`).
 *
 * @example compareDigests('file:///w/z-2026-05-01.digest', 'file:///w/a-2026-05-02.digest') // < 0
 */
export function compareDigests(a: string, b: string, mtimeOf: (uri: string) => number | undefined = () => undefined): number {
  return compareDigestKeys(digestOrderKey(a, mtimeOf(a)), digestOrderKey(b, mtimeOf(b)));
}
