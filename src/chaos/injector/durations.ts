// Go-style durations (`30s`, `1m30s`, `500ms`), as the controller writes --pulse-* and --ramp-duration, and the
// RFC3339 dates of --deadline and --not-injected-before.
import { parseGoDuration as parseDuration } from '../../apimachinery/duration.ts';
import { InjectorFlagError } from './errors.ts';

/** A flag's duration in milliseconds; '' is 0, a negative one is refused. */
export function parseGoDuration(flag: string, text: string): number {
  if (text === '') return 0;
  let ms: number;
  try {
    ms = parseDuration(text);
  } catch {
    ms = Number.NaN;
  }
  if (!(ms >= 0)) throw new InjectorFlagError(`--${flag}: ${JSON.stringify(text)} is not a duration (e.g. 30s, 1m30s)`);
  return ms;
}

export function parseRfc3339(flag: string, text: string): Date {
  const date = new Date(text);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(text) || Number.isNaN(date.getTime())) throw new InjectorFlagError(`--${flag}: ${JSON.stringify(text)} is not an RFC3339 date`);
  return date;
}

/** Resolves after `ms` or as soon as the signal aborts (then early: the caller checks signal.aborted). */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0 || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
