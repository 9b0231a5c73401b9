// sprig date.go on a Go time.Time model: Go layout strings, durations, zones via Intl.
import { GoFuncError, GoInt, GoObject, NO_FIELD, goFunc, int64, type FuncMap, type GoValue } from '../../value.ts';

/** time.Time: an instant (ns since epoch) shown in a zone. */
export class GoTime extends GoObject {
  readonly ns: bigint;
  readonly zone: string; // IANA name or "Local"
  constructor(ns: bigint, zone: string) {
    super();
    this.ns = ns;
    this.zone = zone;
  }
  goType(): string {
    return 'time.Time';
  }
  format(): string {
    return formatTime(this, '2006-01-02 15:04:05.999999999 -0700 MST');
  }
  toJSONValue(): GoValue {
    return formatTime(this, '2006-01-02T15:04:05.999999999Z07:00');
  }
  override hasMethod(name: string): boolean {
    return ['Unix', 'UnixNano', 'Year', 'Format', 'String', 'UTC'].includes(name);
  }
  override field(name: string, args: GoValue[]): GoValue | typeof NO_FIELD {
    switch (name) {
      case 'Unix': return int64(floorDiv(this.ns, 1000000000n));
      case 'UnixNano': return int64(this.ns);
      case 'Year': return int64(BigInt(parts(this).year));
      case 'Format': return formatTime(this, typeof args[0] === 'string' ? args[0] : '');
      case 'String': return this.format();
      case 'UTC': return new GoTime(this.ns, 'UTC');
      default: return NO_FIELD;
    }
  }
}

function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && (a < 0n) !== (b < 0n) ? q - 1n : q;
}

function localZone(): string {
  const tz = process.env.TZ;
  if (tz === undefined || tz === '' || tz === 'UTC' || tz === 'Etc/UTC') return 'UTC';
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

interface Parts {
  year: number; month: number; day: number; hour: number; min: number; sec: number; nanos: number; weekday: number; yday: number;
  offset: number; // seconds east of UTC
  abbrev: string;
}

function zoneOffset(zone: string, ms: number): number {
  if (zone === 'UTC') return 0;
  const dtf = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' });
  const p = Object.fromEntries(dtf.formatToParts(new Date(ms)).map((x) => [x.type, x.value]));
  const asUtc = Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second));
  return Math.round((asUtc - Math.floor(ms / 1000) * 1000) / 1000);
}

function zoneAbbrev(zone: string, ms: number, offset: number): string {
  if (zone === 'UTC') return 'UTC';
  const name = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'short' }).formatToParts(new Date(ms)).find((x) => x.type === 'timeZoneName')?.value ?? '';
  if (/^[A-Z]{3,5}$/.test(name)) return name;
  // Go prints a numeric abbreviation when the zone database has none.
  const sign = offset < 0 ? '-' : '+';
  const a = Math.abs(offset);
  const h = String(Math.floor(a / 3600)).padStart(2, '0');
  const m = Math.floor((a % 3600) / 60);
  return sign + h + (m ? String(m).padStart(2, '0') : '');
}

function parts(t: GoTime): Parts {
  const ms = Number(floorDiv(t.ns, 1000000n));
  const nanos = Number(((t.ns % 1000000000n) + 1000000000n) % 1000000000n);
  const zone = t.zone === 'Local' ? localZone() : t.zone;
  const offset = zoneOffset(zone, ms);
  const d = new Date(Math.floor(ms / 1000) * 1000 + offset * 1000);
  const start = Date.UTC(d.getUTCFullYear(), 0, 1);
  return {
    year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), hour: d.getUTCHours(), min: d.getUTCMinutes(),
    sec: d.getUTCSeconds(), nanos, weekday: d.getUTCDay(), yday: Math.floor((d.getTime() - start) / 86400000) + 1, offset,
    abbrev: zoneAbbrev(zone, ms, offset),
  };
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const pad = (n: number, w: number): string => String(n).padStart(w, '0');

const TOKENS = [
  'January', 'Jan', 'Monday', 'Mon', 'MST', '2006', '002', '01', '02', '06', '_2', '__2', '15', '03', '04', '05', '1', '2', '3', '4', '5',
  'PM', 'pm', 'Z070000', 'Z0700', 'Z07:00:00', 'Z07:00', 'Z07', '-070000', '-0700', '-07:00:00', '-07:00', '-07',
];

function offsetStr(off: number, z: boolean, colon: boolean, secs: boolean, hoursOnly: boolean): string {
  if (z && off === 0) return 'Z';
  const sign = off < 0 ? '-' : '+';
  const a = Math.abs(off);
  const h = pad(Math.floor(a / 3600), 2);
  const m = pad(Math.floor((a % 3600) / 60), 2);
  const s = pad(a % 60, 2);
  if (hoursOnly) return sign + h;
  return sign + h + (colon ? ':' : '') + m + (secs ? (colon ? ':' : '') + s : '');
}

/** time.Time.Format with a Go reference layout. */
export function formatTime(t: GoTime, layout: string): string {
  const p = parts(t);
  let out = '';
  let i = 0;
  outer: while (i < layout.length) {
    const rest = layout.slice(i);
    const frac = /^[.,](0+|9+)(?![0-9])/.exec(rest);
    if (frac !== null && !(i > 0 && /[0-9]/.test(layout[i - 1]!) && false)) {
      const digits = frac[1]!;
      const full = pad(p.nanos, 9).slice(0, digits.length);
      if (digits[0] === '0') out += frac[0][0] + full;
      else {
        const trimmed = full.replace(/0+$/, '');
        if (trimmed) out += frac[0][0] + trimmed;
      }
      i += frac[0].length;
      continue;
    }
    for (const tok of TOKENS) {
      if (!rest.startsWith(tok)) continue;
      // Go only treats "Jan"/"Mon" style words and digits as tokens in these spellings.
      switch (tok) {
        case 'January': out += MONTHS[p.month - 1]; break;
        case 'Jan': out += MONTHS[p.month - 1]!.slice(0, 3); break;
        case 'Monday': out += DAYS[p.weekday]; break;
        case 'Mon': out += DAYS[p.weekday]!.slice(0, 3); break;
        case 'MST': out += p.abbrev; break;
        case '2006': out += pad(p.year, 4); break;
        case '002': out += pad(p.yday, 3); break;
        case '01': out += pad(p.month, 2); break;
        case '02': out += pad(p.day, 2); break;
        case '06': out += pad(p.year % 100, 2); break;
        case '_2': out += String(p.day).padStart(2, ' '); break;
        case '__2': out += String(p.yday).padStart(3, ' '); break;
        case '15': out += pad(p.hour, 2); break;
        case '03': out += pad(p.hour % 12 === 0 ? 12 : p.hour % 12, 2); break;
        case '04': out += pad(p.min, 2); break;
        case '05': out += pad(p.sec, 2); break;
        case '1': out += String(p.month); break;
        case '2': out += String(p.day); break;
        case '3': out += String(p.hour % 12 === 0 ? 12 : p.hour % 12); break;
        case '4': out += String(p.min); break;
        case '5': out += String(p.sec); break;
        case 'PM': out += p.hour >= 12 ? 'PM' : 'AM'; break;
        case 'pm': out += p.hour >= 12 ? 'pm' : 'am'; break;
        case 'Z070000': out += offsetStr(p.offset, true, false, true, false); break;
        case 'Z0700': out += offsetStr(p.offset, true, false, false, false); break;
        case 'Z07:00:00': out += offsetStr(p.offset, true, true, true, false); break;
        case 'Z07:00': out += offsetStr(p.offset, true, true, false, false); break;
        case 'Z07': out += offsetStr(p.offset, true, false, false, true); break;
        case '-070000': out += offsetStr(p.offset, false, false, true, false); break;
        case '-0700': out += offsetStr(p.offset, false, false, false, false); break;
        case '-07:00:00': out += offsetStr(p.offset, false, true, true, false); break;
        case '-07:00': out += offsetStr(p.offset, false, true, false, false); break;
        case '-07': out += offsetStr(p.offset, false, false, false, true); break;
        default: break;
      }
      i += tok.length;
      continue outer;
    }
    out += layout[i];
    i++;
  }
  return out;
}

/** time.ParseInLocation for the numeric layout elements blueprints use. */
export function parseTime(layout: string, value: string, zone: string): GoTime {
  const fail = (): never => {
    throw new GoFuncError(`parsing time ${JSON.stringify(value)} as ${JSON.stringify(layout)}: cannot parse ${JSON.stringify(value)} as ${JSON.stringify(firstToken(layout))}`);
  };
  let re = '';
  const fields: string[] = [];
  let i = 0;
  outer: while (i < layout.length) {
    for (const [tok, pat] of [['2006', '(\\d{4})'], ['01', '(\\d{2})'], ['02', '(\\d{2})'], ['15', '(\\d{2})'], ['04', '(\\d{2})'], ['05', '(\\d{2})'], ['Jan', '([A-Z][a-z]{2})'], ['Z07:00', '(Z|[+-]\\d{2}:\\d{2})'], ['-0700', '([+-]\\d{4})']] as const) {
      if (layout.startsWith(tok, i)) {
        re += pat;
        fields.push(tok);
        i += tok.length;
        continue outer;
      }
    }
    re += layout[i]!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    i++;
  }
  const m = new RegExp('^' + re + '$').exec(value);
  if (m === null) return fail();
  let y = 0, mo = 1, d = 1, h = 0, mi = 0, s = 0;
  let off: number | undefined;
  fields.forEach((f, k) => {
    const v = m[k + 1]!;
    switch (f) {
      case '2006': y = Number(v); break;
      case '01': mo = Number(v); break;
      case 'Jan': mo = MONTHS.findIndex((x) => x.startsWith(v)) + 1; break;
      case '02': d = Number(v); break;
      case '15': h = Number(v); break;
      case '04': mi = Number(v); break;
      case '05': s = Number(v); break;
      default: off = v === 'Z' ? 0 : (v[0] === '-' ? -1 : 1) * (Number(v.slice(1, 3)) * 3600 + Number(v.replace(':', '').slice(3, 5)) * 60);
    }
  });
  const asUtc = Date.UTC(y, mo - 1, d, h, mi, s);
  const z = zone === 'Local' ? localZone() : zone;
  const offset = off ?? zoneOffset(z, asUtc - zoneOffset(z, asUtc) * 1000);
  return new GoTime(BigInt(asUtc - offset * 1000) * 1000000n, zone);
}

function firstToken(layout: string): string {
  return /2006|01|02|15|04|05|Jan/.exec(layout)?.[0] ?? layout;
}

const UNITS: [string, bigint][] = [['ns', 1n], ['us', 1000n], ['µs', 1000n], ['μs', 1000n], ['ms', 1000000n], ['s', 1000000000n], ['m', 60000000000n], ['h', 3600000000000n]];

/** time.ParseDuration. */
export function parseDuration(s: string): bigint {
  const orig = s;
  const bad = (): never => {
    throw new GoFuncError(`time: invalid duration ${JSON.stringify(orig)}`);
  };
  let neg = false;
  if (s[0] === '-' || s[0] === '+') {
    neg = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return 0n;
  if (s === '') bad();
  let total = 0;
  while (s !== '') {
    const m = /^(\d*)(\.\d*)?/.exec(s)!;
    if (m[0] === '' || m[0] === '.') bad();
    s = s.slice(m[0].length);
    const u = /^[^\d.]+/.exec(s);
    if (u === null) throw new GoFuncError(`time: missing unit in duration ${JSON.stringify(orig)}`);
    const unit = UNITS.find(([n]) => n === u[0]);
    if (unit === undefined) throw new GoFuncError(`time: unknown unit ${JSON.stringify(u[0])} in duration ${JSON.stringify(orig)}`);
    total += Number(m[0]) * Number(unit[1]);
    s = s.slice(u[0].length);
  }
  const r = BigInt(Math.round(total));
  return neg ? -r : r;
}

/** time.Duration.String. */
export function durationString(d: bigint): string {
  if (d === 0n) return '0s';
  const neg = d < 0n;
  let u = neg ? -d : d;
  let out: string;
  if (u < 1000000000n) {
    const [unit, div] = u < 1000n ? ['ns', 1n] : u < 1000000n ? ['µs', 1000n] : ['ms', 1000000n];
    out = fracString(u, div) + unit;
  } else {
    const h = u / 3600000000000n;
    u -= h * 3600000000000n;
    const m = u / 60000000000n;
    u -= m * 60000000000n;
    out = (h > 0n ? `${h}h` : '') + (h > 0n || m > 0n ? `${m}m` : '') + fracString(u, 1000000000n) + 's';
  }
  return (neg ? '-' : '') + out;
}

function fracString(v: bigint, div: bigint): string {
  const whole = v / div;
  const frac = v % div;
  if (frac === 0n) return String(whole);
  const digits = String(div).length - 1;
  return `${whole}.${String(frac).padStart(digits, '0').replace(/0+$/, '')}`;
}

function toTime(v: GoValue): GoTime {
  if (v instanceof GoTime) return v;
  if (v instanceof GoInt && (v.kind === 'int' || v.kind === 'int64' || v.kind === 'int32')) return new GoTime(v.value * 1000000000n, 'Local');
  return now();
}

function now(): GoTime {
  return new GoTime(BigInt(Date.now()) * 1000000n + process.hrtime.bigint() % 1000000n, 'Local');
}

function loadZone(name: string): string {
  if (name === '' || name === 'UTC') return 'UTC';
  if (name === 'Local') return 'Local';
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return name;
  } catch {
    return 'UTC'; // sprig ignores LoadLocation's error and gets a nil *Location, which is UTC
  }
}

function dateInZone(layout: string, date: GoValue, zone: string): string {
  const t = toTime(date);
  return formatTime(new GoTime(t.ns, loadZone(zone)), layout);
}

function durationRound(v: GoValue): string {
  let d: bigint;
  if (typeof v === 'string') {
    try {
      d = parseDuration(v);
    } catch {
      d = 0n;
    }
  } else if (v instanceof GoInt) d = v.value;
  else if (v instanceof GoTime) d = BigInt(Date.now()) * 1000000n - v.ns;
  else d = 0n;
  const u = d < 0n ? -d : d;
  const second = 1000000000n;
  const units: [bigint, string][] = [[365n * 86400n * second, 'y'], [30n * 86400n * second, 'mo'], [86400n * second, 'd'], [3600n * second, 'h'], [60n * second, 'm'], [second, 's']];
  for (const [size, name] of units) if (u > size) return `${u / size}${name}`;
  return '0s';
}

const ANY = 'interface {}';
export const dateFunctions: FuncMap = {
  now: goFunc({ params: [], results: ['time.Time'] }, now),
  date: goFunc({ params: ['string', ANY], results: ['string'] }, (layout: string, d: GoValue) => dateInZone(layout, d, 'Local')),
  dateInZone: goFunc({ params: ['string', ANY, 'string'], results: ['string'] }, dateInZone),
  date_in_zone: goFunc({ params: ['string', ANY, 'string'], results: ['string'] }, dateInZone),
  htmlDate: goFunc({ params: [ANY], results: ['string'] }, (d: GoValue) => dateInZone('2006-01-02', d, 'Local')),
  htmlDateInZone: goFunc({ params: [ANY, 'string'], results: ['string'] }, (d: GoValue, z: string) => dateInZone('2006-01-02', d, z)),
  toDate: goFunc({ params: ['string', 'string'], results: ['time.Time'] }, (l: string, v: string) => {
    try {
      return parseTime(l, v, 'Local');
    } catch {
      return new GoTime(-62135596800000000000n, 'UTC');
    }
  }),
  mustToDate: goFunc({ params: ['string', 'string'], results: ['time.Time', 'error'] }, (l: string, v: string) => parseTime(l, v, 'Local')),
  dateModify: goFunc({ params: ['string', 'time.Time'], results: ['time.Time'] }, (s: string, t: GoTime) => {
    try {
      return new GoTime(t.ns + parseDuration(s), t.zone);
    } catch {
      return t;
    }
  }),
  mustDateModify: goFunc({ params: ['string', 'time.Time'], results: ['time.Time', 'error'] }, (s: string, t: GoTime) => new GoTime(t.ns + parseDuration(s), t.zone)),
  unixEpoch: goFunc({ params: ['time.Time'], results: ['string'] }, (t: GoTime) => String(floorDiv(t.ns, 1000000000n))),
  duration: goFunc({ params: [ANY], results: ['string'] }, (v: GoValue) => {
    // sprig only accepts a string or an int64 here; anything else is 0.
    const s = typeof v === 'string' ? BigInt(/^[+-]?\d+$/.test(v) ? v.replace('+', '') : '0') : v instanceof GoInt && v.kind === 'int64' ? v.value : 0n;
    return durationString(s * 1000000000n);
  }),
  durationRound: goFunc({ params: [ANY], results: ['string'] }, durationRound),
  ago: goFunc({ params: [ANY], results: ['string'] }, (d: GoValue) => {
    const t = toTime(d);
    const diff = BigInt(Date.now()) * 1000000n - t.ns;
    return durationString(((diff + 500000000n) / 1000000000n) * 1000000000n);
  }),
};
dateFunctions.date_modify = dateFunctions.dateModify!;
dateFunctions.must_date_modify = dateFunctions.mustDateModify!;
