// Go's time.Duration as Kubernetes users write it (flags such as --node-monitor-grace-period, Landscaper's
// timeouts, chaos durations) and as Go prints it (kubelet's messages): time.ParseDuration and Duration.String,
// in nanoseconds as bigint so that every int64 duration is exact. The template engine keeps its own (layering).

export class DurationError extends Error {
  override readonly name = 'DurationError' as const;
}

const NANOSECOND = 1n;
const MICROSECOND = 1000n * NANOSECOND;
const MILLISECOND = 1000n * MICROSECOND;
const SECOND = 1000n * MILLISECOND;
const MINUTE = 60n * SECOND;
const HOUR = 60n * MINUTE;

const UNITS = new Map<string, bigint>([
  ['ns', NANOSECOND],
  ['us', MICROSECOND],
  ['µs', MICROSECOND], // U+00B5 micro sign
  ['μs', MICROSECOND], // U+03BC Greek letter mu
  ['ms', MILLISECOND],
  ['s', SECOND],
  ['m', MINUTE],
  ['h', HOUR],
]);

/** 1<<63: the magnitude of the most negative int64, the bound of Go's overflow checks. */
const LIMIT = 1n << 63n;

/** Go's time.quote: printable ASCII as is (with " and \ escaped), every other byte as \xNN. */
function quote(s: string): string {
  let out = '"';
  for (const c of s) {
    const code = c.codePointAt(0) ?? 0;
    if (code >= 0x80 || code < 0x20) {
      for (const byte of Buffer.from(c, 'utf8')) out += `\\x${byte.toString(16).padStart(2, '0')}`;
    } else out += c === '"' || c === '\\' ? `\\${c}` : c;
  }
  return `${out}"`;
}

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';

/** time.ParseDuration: "300ms", "-1.5h", "2h45m"; units ns, us (µs), ms, s, m, h. Nanoseconds. */
export function parseDuration(text: string): bigint {
  const invalid = (): DurationError => new DurationError(`time: invalid duration ${quote(text)}`);
  let s = text;
  let neg = false;
  if (s[0] === '-' || s[0] === '+') {
    neg = s[0] === '-';
    s = s.slice(1);
  }
  // Special case: if all that is left is "0", this is zero.
  if (s === '0') return 0n;
  if (s === '') throw invalid();
  let d = 0n;
  while (s !== '') {
    if (!(s[0] === '.' || isDigit(s[0]))) throw invalid();
    // The integer part; more than int64 is an overflow.
    let i = 0;
    let v = 0n;
    while (isDigit(s[i])) {
      v = v * 10n + BigInt(s.charCodeAt(i) - 48);
      if (v > LIMIT) throw invalid();
      i++;
    }
    const pre = i > 0;
    s = s.slice(i);
    // The fraction: digits past int64's precision are consumed and ignored, as Go's leadingFraction does.
    let f = 0n;
    let scale = 1;
    let post = false;
    if (s[0] === '.') {
      s = s.slice(1);
      let j = 0;
      let overflow = false;
      while (isDigit(s[j])) {
        if (!overflow) {
          const next = f * 10n + BigInt(s.charCodeAt(j) - 48);
          if (next > LIMIT) overflow = true;
          else {
            f = next;
            scale *= 10;
          }
        }
        j++;
      }
      post = j > 0;
      s = s.slice(j);
    }
    if (!pre && !post) throw invalid();
    let u = 0;
    while (u < s.length && !(s[u] === '.' || isDigit(s[u]))) u++;
    if (u === 0) throw new DurationError(`time: missing unit in duration ${quote(text)}`);
    const name = s.slice(0, u);
    s = s.slice(u);
    const unit = UNITS.get(name);
    if (unit === undefined) throw new DurationError(`time: unknown unit ${quote(name)} in duration ${quote(text)}`);
    if (v > LIMIT / unit) throw invalid();
    v *= unit;
    if (f > 0n) {
      // float64 arithmetic, as Go's, so that rounding matches.
      v += BigInt(Math.trunc(Number(f) * (Number(unit) / scale)));
      if (v > LIMIT) throw invalid();
    }
    d += v;
    if (d > LIMIT) throw invalid();
  }
  if (neg) return -d;
  if (d > LIMIT - 1n) throw invalid();
  return d;
}

/** v / div with the fraction's trailing zeros dropped: 1500ms at 1e6 → "1.5". */
function fraction(v: bigint, div: bigint): string {
  const whole = v / div;
  const rest = v % div;
  if (rest === 0n) return String(whole);
  const digits = String(div).length - 1;
  return `${whole}.${String(rest).padStart(digits, '0').replace(/0+$/, '')}`;
}

/** Duration.String: "1h0m0s", "1m30s", "1.5s", "500ms", "0s"; under a second in ms, µs or ns. */
export function formatDuration(ns: bigint): string {
  if (ns === 0n) return '0s';
  const sign = ns < 0n ? '-' : '';
  let u = ns < 0n ? -ns : ns;
  if (u < SECOND) {
    const [unit, div] = u < MICROSECOND ? ['ns', NANOSECOND] : u < MILLISECOND ? ['µs', MICROSECOND] : ['ms', MILLISECOND];
    return `${sign}${fraction(u, div)}${unit}`;
  }
  const h = u / HOUR;
  u -= h * HOUR;
  const m = u / MINUTE;
  u -= m * MINUTE;
  return `${sign}${h > 0n ? `${h}h` : ''}${h > 0n || m > 0n ? `${m}m` : ''}${fraction(u, SECOND)}s`;
}

/** time.ParseDuration in milliseconds (fractions of a millisecond kept). */
export function parseGoDuration(text: string): number {
  return Number(parseDuration(text)) / 1e6;
}

/** Duration.String of a duration in milliseconds, rounded to the nanosecond. */
export function formatGoDuration(ms: number): string {
  return formatDuration(BigInt(Math.round(ms * 1e6)));
}
