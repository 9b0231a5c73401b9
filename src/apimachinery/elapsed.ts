// Short human durations ("<1s", "37s", "4m05s", "2h03m", "3d04h") for what a terminal shows, as kubectl shows ages.
// Kubernetes timestamps have second resolution, so anything finer would be false precision.

const pad = (n: number): string => String(n).padStart(2, '0');

export function formatDuration(ms: number): string {
  // Clock skew between the server and this machine can make "now" precede a timestamp.
  const t = Math.max(0, ms);
  if (t < 1000) return '<1s';
  const s = Math.floor(t / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${pad(s % 60)}s`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${h}h${pad(m % 60)}m`;
  return `${Math.floor(h / 24)}d${pad(h % 24)}h`;
}

/** Milliseconds between two RFC 3339 timestamps (or a timestamp and a Date); undefined if one is unparsable. */
export function between(from: string, to: string | Date): number | undefined {
  const a = Date.parse(from);
  const b = typeof to === 'string' ? Date.parse(to) : to.getTime();
  return Number.isNaN(a) || Number.isNaN(b) ? undefined : b - a;
}
