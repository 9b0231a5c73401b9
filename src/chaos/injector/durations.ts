// Go-style durations (`30s`, `1m30s`, `500ms`), as the controller writes --pulse-* and --ramp-duration, and the
// RFC3339 dates of --deadline and --not-injected-before.
import { InjectorFlagError } from './errors.ts';

const UNITS: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** Milliseconds; '' and '0' are 0. */
export function parseGoDuration(flag: string, text: string): number {
  if (text === '' || text === '0') return 0;
  const parts = [...text.matchAll(/(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== text) throw new InjectorFlagError(`--${flag}: ${JSON.stringify(text)} is not a duration (e.g. 30s, 1m30s)`);
  return parts.reduce((total, [, value, unit]) => total + Number(value) * (UNITS[unit ?? 's'] ?? 0), 0);
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
