// When the next automatic reconcile is due: a Go duration interval (time.ParseDuration) or a robfig/cron
// standard spec (5 fields, @hourly-style descriptors, "@every <duration>"), evaluated in UTC with croner.
import { Cron } from 'croner';

export class ScheduleError extends Error {
  override readonly name = 'ScheduleError' as const;
}

const UNITS: Record<string, number> = { ns: 1e-6, us: 1e-3, 'µs': 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** Go's time.ParseDuration, in milliseconds. */
export function parseGoDuration(text: string): number {
  const s = text.trim();
  if (s === '0') return 0;
  const re = /([0-9]*\.?[0-9]+)(ns|us|µs|ms|s|m|h)/gy;
  let total = 0;
  let pos = 0;
  const sign = s.startsWith('-') ? -1 : 1;
  const body = s.replace(/^[-+]/, '');
  for (let m = re.exec(body); m !== null; m = re.exec(body)) {
    total += Number(m[1]) * UNITS[m[2]!]!;
    pos = re.lastIndex;
  }
  if (body === '' || pos !== body.length) throw new ScheduleError(`invalid duration ${JSON.stringify(text)}`);
  return sign * total;
}

const DESCRIPTORS: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

/** The first time after `from` the cron spec fires. */
export function nextCronTime(spec: string, from: Date): Date {
  const s = spec.trim();
  if (s.startsWith('@every ')) return new Date(from.getTime() + parseGoDuration(s.slice('@every '.length)));
  const pattern = DESCRIPTORS[s] ?? s;
  if (pattern.split(/\s+/).length !== 5) throw new ScheduleError(`invalid cron spec ${JSON.stringify(spec)}: expected 5 fields (minute hour day-of-month month day-of-week)`);
  let next: Date | null;
  try {
    // robfig/cron ORs day-of-month and day-of-week when both are restricted (legacy cron semantics).
    next = new Cron(pattern, { mode: '5-part', timezone: 'UTC', domAndDow: false }).nextRun(from);
  } catch (err) {
    throw new ScheduleError(`invalid cron spec ${JSON.stringify(spec)}: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (next === null) throw new ScheduleError(`cron spec ${JSON.stringify(spec)} never fires`);
  return next;
}

/** When a reconcile is due after `last`: by cron spec when given, else by interval. */
export function dueTime(last: Date, interval: string | undefined, cronSpec: string | undefined, defaultInterval: string): Date {
  if (cronSpec !== undefined && cronSpec !== '') return nextCronTime(cronSpec, last);
  return new Date(last.getTime() + parseGoDuration(interval !== undefined && interval !== '' ? interval : defaultInterval));
}
