// When the next scheduled reconcile is due (automatic reconcile of installations, continuous reconcile of deploy
// items): a Go duration interval (time.ParseDuration) or a robfig/cron standard spec (5 fields, @hourly-style
// descriptors, "@every <duration>"), evaluated in UTC with croner.
import { Cron } from 'croner';
import { CRON_DESCRIPTORS } from '../apimachinery/cron-schedule.ts';
import { DurationError, parseGoDuration } from '../apimachinery/duration.ts';
import { messageOf } from '../apimachinery/error-message.ts';

export class ScheduleError extends Error {
  override readonly name = 'ScheduleError' as const;
}

/** An interval as Go's time.ParseDuration reads it; a bad one is a ScheduleError. */
export function intervalMs(text: string): number {
  try {
    return parseGoDuration(text);
  } catch (error) {
    if (error instanceof DurationError) throw new ScheduleError(error.message);
    throw error;
  }
}

/** The first time after `from` the cron spec fires. */
export function nextCronTime(spec: string, from: Date): Date {
  const s = spec.trim();
  if (s.startsWith('@every ')) return new Date(from.getTime() + intervalMs(s.slice('@every '.length)));
  const pattern = CRON_DESCRIPTORS[s] ?? s;
  if (pattern.split(/\s+/).length !== 5) throw new ScheduleError(`invalid cron spec ${JSON.stringify(spec)}: expected 5 fields (minute hour day-of-month month day-of-week)`);
  let next: Date | null;
  try {
    // robfig/cron ORs day-of-month and day-of-week when both are restricted (legacy cron semantics).
    next = new Cron(pattern, { mode: '5-part', timezone: 'UTC', domAndDow: false }).nextRun(from);
  } catch (err) {
    throw new ScheduleError(`invalid cron spec ${JSON.stringify(spec)}: ${messageOf(err)}`);
  }
  if (next === null) throw new ScheduleError(`cron spec ${JSON.stringify(spec)} never fires`);
  return next;
}

/** When a reconcile is due after `last`: by cron spec when given, else by interval. */
export function dueTime(last: Date, every: string | undefined, cronSpec: string | undefined, defaultInterval: string): Date {
  if (cronSpec !== undefined && cronSpec !== '') return nextCronTime(cronSpec, last);
  return new Date(last.getTime() + intervalMs(every !== undefined && every !== '' ? every : defaultInterval));
}
