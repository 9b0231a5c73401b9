// A CronJob's schedule as kube reads it (robfig/cron v3 ParseStandard): five fields (minute hour day-of-month
// month day-of-week) with names, ranges, steps and `?`, the @yearly…@hourly descriptors and `@every <duration>`,
// and a `TZ=`/`CRON_TZ=` prefix. The syntax is checked here with robfig's error messages, which kube-apiserver
// returns verbatim; the times are computed by croner in the schedule's time zone (day-of-month and day-of-week
// ORed when both are restricted, as robfig does). croner's own extensions (L, W, #, a 7 for Sunday) are refused
// here, since robfig refuses them.
import { Cron } from 'croner';
import { DurationError, parseDuration } from './duration.ts';

export class CronScheduleError extends Error {
  override readonly name = 'CronScheduleError' as const;
}

export interface CronSchedule {
  /** The first time strictly after `after` the schedule fires; undefined when it never does (e.g. 31 February). */
  next(after: Date): Date | undefined;
}

interface Bounds {
  min: number;
  max: number;
  names?: readonly string[];
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
const FIELDS: readonly Bounds[] = [
  { min: 0, max: 59 },
  { min: 0, max: 23 },
  { min: 1, max: 31 },
  { min: 1, max: 12, names: MONTHS },
  { min: 0, max: 6, names: DAYS },
];

/** robfig's descriptors as the five fields they stand for (`@every` aside). */
export const CRON_DESCRIPTORS: Readonly<Record<string, string>> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

/** Go's strconv.Atoi on a field's number, with robfig's wording. */
function parseNumber(expr: string): number {
  if (!/^[+-]?\d+$/.test(expr)) throw new CronScheduleError(`failed to parse int from ${expr}: strconv.Atoi: parsing ${JSON.stringify(expr)}: invalid syntax`);
  const n = Number(expr);
  if (!Number.isSafeInteger(n)) throw new CronScheduleError(`failed to parse int from ${expr}: strconv.Atoi: parsing ${JSON.stringify(expr)}: value out of range`);
  if (n < 0) throw new CronScheduleError(`negative number (${n}) not allowed: ${expr}`);
  return n;
}

function parseNumberOrName(expr: string, names: readonly string[] | undefined): number {
  const index = names?.indexOf(expr.toLowerCase()) ?? -1;
  if (index >= 0) return index + (names === MONTHS ? 1 : 0);
  return parseNumber(expr);
}

/** robfig's getRange: `*`, `?`, `a`, `a-b`, each with an optional `/step` (`a/step` means a to the maximum). */
function checkRange(expr: string, bounds: Bounds): void {
  const rangeAndStep = expr.split('/');
  const lowAndHigh = (rangeAndStep[0] ?? '').split('-');
  const low = lowAndHigh[0] ?? '';
  let start: number;
  let end: number;
  if (low === '*' || low === '?') {
    start = bounds.min;
    end = bounds.max;
  } else {
    start = parseNumberOrName(low, bounds.names);
    if (lowAndHigh.length === 1) end = start;
    else if (lowAndHigh.length === 2) end = parseNumberOrName(lowAndHigh[1] ?? '', bounds.names);
    else throw new CronScheduleError(`too many hyphens: ${expr}`);
  }
  let step = 1;
  if (rangeAndStep.length === 2) {
    step = parseNumber(rangeAndStep[1] ?? '');
    if (lowAndHigh.length === 1) end = bounds.max;
  } else if (rangeAndStep.length > 2) throw new CronScheduleError(`too many slashes: ${expr}`);
  if (start < bounds.min) throw new CronScheduleError(`beginning of range (${start}) below minimum (${bounds.min}): ${expr}`);
  if (end > bounds.max) throw new CronScheduleError(`end of range (${end}) above maximum (${bounds.max}): ${expr}`);
  if (start > end) throw new CronScheduleError(`beginning of range (${start}) beyond end of range (${end}): ${expr}`);
  if (step === 0) throw new CronScheduleError(`step of range should be a positive number: ${expr}`);
}

/** The IANA zone name if the runtime knows it (Go's time.LoadLocation; "" and "UTC" are UTC). */
export function isKnownTimeZone(name: string): boolean {
  if (name === '' || name === 'UTC') return true;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

function everySchedule(descriptor: string): CronSchedule {
  let ns: bigint;
  try {
    ns = parseDuration(descriptor.slice('@every '.length));
  } catch (error) {
    if (error instanceof DurationError) throw new CronScheduleError(`failed to parse duration ${descriptor}: ${error.message}`);
    throw error;
  }
  // robfig's Every: at least a second, truncated to whole seconds; the next run is counted from the whole second.
  const ms = Math.max(1000, Number(ns / 1_000_000_000n) * 1000);
  return { next: (after) => new Date(after.getTime() - (after.getTime() % 1000) + ms) };
}

/**
 * Parses `spec` as robfig's ParseStandard does, in `timeZone` (undefined: the controller's local zone, as kube's
 * controller uses time.Local). Throws CronScheduleError with robfig's message.
 */
export function parseCronSchedule(spec: string, timeZone?: string): CronSchedule {
  if (spec.length === 0) throw new CronScheduleError('empty spec string');
  let zone = timeZone;
  if (spec.startsWith('TZ=') || spec.startsWith('CRON_TZ=')) {
    const space = spec.indexOf(' ');
    const name = spec.slice(spec.indexOf('=') + 1, space < 0 ? undefined : space);
    if (!isKnownTimeZone(name)) throw new CronScheduleError(`provided bad location ${name}: unknown time zone ${name}`);
    zone = name === '' ? 'UTC' : name;
    spec = space < 0 ? '' : spec.slice(space).trim();
  }
  if (spec.startsWith('@')) {
    if (spec.startsWith('@every ')) return everySchedule(spec);
    const pattern = CRON_DESCRIPTORS[spec];
    if (pattern === undefined) throw new CronScheduleError(`unrecognized descriptor: ${spec}`);
    spec = pattern;
  }
  const fields = spec.split(/\s+/).filter((f) => f !== '');
  if (fields.length !== 5) throw new CronScheduleError(`expected exactly 5 fields, found ${fields.length}: [${fields.join(' ')}]`);
  fields.forEach((field, i) => {
    for (const expr of field.split(',').filter((e) => e !== '')) checkRange(expr, FIELDS[i]!);
  });
  let cron: Cron;
  try {
    cron = new Cron(fields.join(' '), { mode: '5-part', sloppyRanges: true, domAndDow: false, paused: true, ...(zone ? { timezone: zone } : {}) });
  } catch (error) {
    throw new CronScheduleError((error as Error).message);
  }
  return { next: (after) => cron.nextRun(after) ?? undefined };
}
