// Go's strconv as the template engine needs it: FormatFloat (verbs e E f g G b x X, Go's rounding and shortest
// round-trip digits) and Quote/QuoteRune/CanBackquote with unicode.IsPrint. fmt.ts builds its verbs on these.

// ---------------------------------------------------------------------------------------------
// Floats

interface Decimal {
  d: string; // digits without leading/trailing zeros ('' for zero)
  dp: number; // decimal point position: value = 0.d × 10^dp
}

/** The exact decimal expansion of a finite positive float64. */
function exactDecimal(f: number): Decimal {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, f);
  const hi = view.getUint32(0);
  const lo = view.getUint32(4);
  let exp = (hi >>> 20) & 0x7ff;
  let mant = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  if (exp === 0) exp = 1;
  else mant |= 1n << 52n;
  exp -= 1075;
  if (mant === 0n) return { d: '', dp: 0 };
  let digits: string;
  let dp: number;
  if (exp >= 0) {
    digits = (mant << BigInt(exp)).toString();
    dp = digits.length;
  } else {
    const k = -exp;
    digits = (mant * 5n ** BigInt(k)).toString();
    dp = digits.length - k;
  }
  return { d: digits.replace(/0+$/, ''), dp };
}

/** Shortest round-tripping digits (JS and Go both pick the closest shortest representation). */
function shortestDecimal(f: number): Decimal {
  if (f === 0) return { d: '', dp: 0 };
  const e = f.toExponential();
  const ePos = e.indexOf('e');
  const mant = e.slice(0, ePos).replace('.', '');
  return { d: mant.replace(/0+$/, ''), dp: Number(e.slice(ePos + 1)) + 1 };
}

/** decimal.Round(nd) with Go's round-half-even on exact ties. */
function roundDecimal(a: Decimal, nd: number): Decimal {
  if (nd < 0 || nd >= a.d.length) return a;
  const c = a.d.charCodeAt(nd);
  let up: boolean;
  if (c === 53 && nd + 1 === a.d.length) up = nd > 0 && (a.d.charCodeAt(nd - 1) - 48) % 2 === 1;
  else up = c >= 53;
  if (up) {
    for (let i = nd - 1; i >= 0; i--) {
      const ch = a.d.charCodeAt(i);
      if (ch < 57) return { d: a.d.slice(0, i) + String.fromCharCode(ch + 1), dp: a.dp };
    }
    return { d: '1', dp: a.dp + 1 };
  }
  const d = a.d.slice(0, nd).replace(/0+$/, '');
  return { d, dp: d.length === 0 ? 0 : a.dp };
}

function fmtE(neg: boolean, a: Decimal, prec: number, fmt: string): string {
  let s = neg ? '-' : '';
  s += a.d.length > 0 ? a.d[0]! : '0';
  if (prec > 0) {
    s += '.';
    const m = Math.min(a.d.length, prec + 1);
    if (m > 1) s += a.d.slice(1, m);
    s += '0'.repeat(prec + 1 - Math.max(m, 1));
  }
  s += fmt;
  let exp = a.dp - 1;
  if (a.d.length === 0) exp = 0;
  s += exp < 0 ? '-' : '+';
  exp = Math.abs(exp);
  s += exp < 10 ? '0' + exp : String(exp);
  return s;
}

function fmtF(neg: boolean, a: Decimal, prec: number): string {
  let s = neg ? '-' : '';
  if (a.dp > 0) {
    const m = Math.min(a.d.length, a.dp);
    s += a.d.slice(0, m) + '0'.repeat(a.dp - m);
  } else s += '0';
  if (prec > 0) {
    s += '.';
    for (let i = 1; i <= prec; i++) {
      const j = a.dp + i - 1;
      s += j >= 0 && j < a.d.length ? a.d[j]! : '0';
    }
  }
  return s;
}

/** strconv.FormatFloat(f, fmt, prec, 64) for fmt in e E f g G b x X. */
export function formatFloat(f: number, fmt: string, prec: number): string {
  if (Number.isNaN(f)) return 'NaN';
  if (f === Infinity) return '+Inf';
  if (f === -Infinity) return '-Inf';
  const neg = f < 0 || Object.is(f, -0);
  const abs = Math.abs(f);
  if (fmt === 'b') return formatBinary(neg, abs);
  if (fmt === 'x' || fmt === 'X') return formatHexFloat(neg, abs, prec, fmt);
  const shortest = prec < 0;
  let digs: Decimal;
  if (shortest) {
    digs = shortestDecimal(abs);
    switch (fmt) {
      case 'e': case 'E': prec = Math.max(digs.d.length - 1, 0); break;
      case 'f': prec = Math.max(digs.d.length - digs.dp, 0); break;
      case 'g': case 'G': prec = digs.d.length; break;
      default: break;
    }
  } else {
    const exact = exactDecimal(abs);
    switch (fmt) {
      case 'e': case 'E': digs = roundDecimal(exact, 1 + prec); break;
      case 'f': digs = roundDecimal(exact, exact.dp + prec); break;
      default:
        if (prec === 0) prec = 1;
        digs = roundDecimal(exact, prec);
    }
  }
  switch (fmt) {
    case 'e': case 'E':
      return fmtE(neg, digs, prec, fmt);
    case 'f':
      return fmtF(neg, digs, prec);
    default: {
      let eprec = prec;
      if (eprec > digs.d.length && digs.d.length >= digs.dp) eprec = digs.d.length;
      if (shortest) eprec = 6;
      const exp = digs.dp - 1;
      if (exp < -4 || exp >= eprec) {
        if (prec > digs.d.length) prec = digs.d.length;
        return fmtE(neg, digs, prec - 1, fmt === 'g' ? 'e' : 'E');
      }
      if (prec > digs.dp) prec = digs.d.length;
      return fmtF(neg, digs, Math.max(prec - digs.dp, 0));
    }
  }
}

function floatBits(f: number): { mant: bigint; exp: number } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, f);
  const hi = view.getUint32(0);
  const lo = view.getUint32(4);
  const exp = (hi >>> 20) & 0x7ff;
  const mant = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  return { mant, exp };
}

// %b: -ddddp±ddd (mantissa and binary exponent).
function formatBinary(neg: boolean, abs: number): string {
  let { mant, exp } = floatBits(abs);
  if (exp === 0) exp++;
  else mant |= 1n << 52n;
  exp -= 1075;
  return (neg ? '-' : '') + mant.toString() + 'p' + (exp >= 0 ? '+' : '-') + Math.abs(exp);
}

// %x: -0x1.yyyyp±dd (hexadecimal mantissa, binary exponent).
function formatHexFloat(neg: boolean, abs: number, prec: number, fmt: string): string {
  let { mant, exp } = floatBits(abs);
  if (exp === 0) exp++;
  else mant |= 1n << 52n;
  exp -= 1023;
  if (mant === 0n) exp = 0;
  // Normalise so the leading 1 is at bit 60 (mantissa shifted left by 8 as in Go).
  mant <<= 8n;
  const ONE = 1n << 60n;
  while (mant !== 0n && (mant & ONE) === 0n) {
    mant <<= 1n;
    exp--;
  }
  if (prec >= 0 && prec < 15) {
    const shift = BigInt(prec * 4);
    const extra = (mant << shift) & ((1n << 60n) - 1n);
    mant >>= 60n - shift;
    if ((extra | (mant & 1n)) > 1n << 59n) mant++;
    mant <<= 60n - shift;
    if ((mant & (1n << 61n)) !== 0n) {
      mant >>= 1n;
      exp++;
    }
  }
  const digits = fmt === 'X' ? '0123456789ABCDEF' : '0123456789abcdef';
  let s = (neg ? '-' : '') + '0' + (fmt === 'X' ? 'X' : 'x') + String(Number((mant >> 60n) & 1n));
  mant = (mant << 4n) & ((1n << 64n) - 1n);
  if (prec < 0 && mant !== 0n) {
    s += '.';
    while (mant !== 0n) {
      s += digits[Number((mant >> 60n) & 15n)];
      mant = (mant << 4n) & ((1n << 64n) - 1n);
    }
  } else if (prec > 0) {
    s += '.';
    for (let i = 0; i < prec; i++) {
      s += digits[Number((mant >> 60n) & 15n)];
      mant = (mant << 4n) & ((1n << 64n) - 1n);
    }
  }
  s += fmt === 'X' ? 'P' : 'p';
  s += exp < 0 ? '-' : '+';
  const ae = Math.abs(exp);
  s += ae < 10 ? '0' + ae : String(ae);
  return s;
}

// ---------------------------------------------------------------------------------------------
// Quoting

const PRINT_RE = /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u;

/** unicode.IsPrint (letters, marks, numbers, punctuation, symbols and ASCII space). */
export function isPrint(cp: number): boolean {
  if (cp < 0x7f) return cp >= 0x20;
  if (cp < 0xa1) return false;
  return PRINT_RE.test(String.fromCodePoint(cp));
}

function escapeRune(cp: number, quote: number, asciiOnly: boolean): string {
  if (cp === quote || cp === 92) return '\\' + String.fromCodePoint(cp);
  if (asciiOnly ? cp < 0x80 && isPrint(cp) : isPrint(cp)) return String.fromCodePoint(cp);
  switch (cp) {
    case 7: return '\\a';
    case 8: return '\\b';
    case 12: return '\\f';
    case 10: return '\\n';
    case 13: return '\\r';
    case 9: return '\\t';
    case 11: return '\\v';
    default: break;
  }
  if (cp < 0x20 || cp === 0x7f) return '\\x' + cp.toString(16).padStart(2, '0');
  if (cp >= 0xd800 && cp < 0xe000) cp = 0xfffd; // lone surrogate: not valid UTF-8
  if (cp < 0x10000) return '\\u' + cp.toString(16).padStart(4, '0');
  return '\\U' + cp.toString(16).padStart(8, '0');
}

/** strconv.Quote (asciiOnly: QuoteToASCII). */
export function quote(s: string, asciiOnly = false): string {
  let out = '"';
  for (const ch of s) out += escapeRune(ch.codePointAt(0)!, 34, asciiOnly);
  return out + '"';
}

/** strconv.QuoteRune (asciiOnly: QuoteRuneToASCII). */
export function quoteRune(cp: number, asciiOnly = false): string {
  if (cp > 0x10ffff || cp < 0 || (cp >= 0xd800 && cp < 0xe000)) cp = 0xfffd;
  return "'" + escapeRune(cp, 39, asciiOnly) + "'";
}

/** strconv.CanBackquote. */
export function canBackquote(s: string): boolean {
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (c === 0xfeff || c === 96 || c === 0x7f) return false;
    if (c < 0x20 && c !== 9) return false;
    if (c >= 0xd800 && c < 0xe000) return false;
  }
  return true;
}
