// Go's time.Duration as Kubernetes users write it (flags such as --node-monitor-grace-period, Landscaper's
// intervals) and as Go prints it (kubelet's messages).

export class DurationError extends Error {
  override readonly name = 'DurationError' as const;
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
  if (body === '' || pos !== body.length) throw new DurationError(`invalid duration ${JSON.stringify(text)}`);
  return sign * total;
}
