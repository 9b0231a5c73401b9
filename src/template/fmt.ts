// Go's fmt (Sprint, Sprintln, Sprintf) and strconv float/quote formatting over the value model.
// Follows fmt/print.go and fmt/format.go: verbs, flags, width/precision (also `*` and `[n]`),
// bad-verb output `%!d(string=hi)`, `%!s(MISSING)`, `%!(EXTRA ...)`, `%!(NOVERB)`, `%!(BADWIDTH)`.

import { GoInt, GoObject, elemType, goTypeName, isMap, sortedKeys, type GoValue } from './value.ts';

// ---------------------------------------------------------------------------------------------
// strconv: floats

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
// strconv: quoting

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

function runeCount(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0xd800 || c > 0xdbff) n++;
    else if (i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
      n++;
    } else n++;
  }
  return n;
}

const encoder = new TextEncoder();

// ---------------------------------------------------------------------------------------------
// The printer

const BIG_WIDTH = 1e6;

class Printer {
  buf = '';
  wid = 0;
  prec = 0;
  widPresent = false;
  precPresent = false;
  minus = false;
  plus = false;
  sharp = false;
  space = false;
  zero = false;
  plusV = false;
  sharpV = false;

  clearFlags(): void {
    this.wid = this.prec = 0;
    this.widPresent = this.precPresent = false;
    this.minus = this.plus = this.sharp = this.space = this.zero = this.plusV = this.sharpV = false;
  }

  private padding(n: number): string {
    return n > 0 ? (this.zero ? '0' : ' ').repeat(n) : '';
  }

  pad(s: string): void {
    if (!this.widPresent || this.wid === 0) {
      this.buf += s;
      return;
    }
    const width = this.wid - runeCount(s);
    if (!this.minus) this.buf += this.padding(width) + s;
    else this.buf += s + this.padding(width);
  }

  truncate(s: string): string {
    if (this.precPresent) {
      let n = this.prec;
      let i = 0;
      for (const ch of s) {
        if (--n < 0) return s.slice(0, i);
        i += ch.length;
      }
    }
    return s;
  }

  fmtS(s: string): void {
    this.pad(this.truncate(s));
  }

  fmtQ(s: string): void {
    s = this.truncate(s);
    if (this.sharp && canBackquote(s)) this.pad('`' + s + '`');
    else this.pad(quote(s, this.plus));
  }

  fmtSbx(bytes: Uint8Array, digits: string): void {
    let length = bytes.length;
    if (this.precPresent && this.prec < length) length = this.prec;
    let width = 2 * length;
    if (width > 0) {
      if (this.space) {
        if (this.sharp) width *= 2;
        width += length - 1;
      } else if (this.sharp) width += 2;
    } else {
      if (this.widPresent) this.buf += this.padding(this.wid);
      return;
    }
    if (this.widPresent && this.wid > width && !this.minus) this.buf += this.padding(this.wid - width);
    let s = '';
    const x = digits === 'X' ? '0123456789ABCDEF' : '0123456789abcdef';
    if (this.sharp) s += '0' + digits;
    for (let i = 0; i < length; i++) {
      if (this.space && i > 0) {
        s += ' ';
        if (this.sharp) s += '0' + digits;
      }
      const c = bytes[i]!;
      s += x[c >> 4]! + x[c & 15]!;
    }
    this.buf += s;
    if (this.widPresent && this.wid > width && this.minus) this.buf += this.padding(this.wid - width);
  }

  fmtInteger(v: bigint, unsigned: boolean, base: number, verb: string, upper: boolean): void {
    const negative = !unsigned && v < 0n;
    const a = negative ? -v : v;
    if (this.precPresent && this.prec === 0 && v === 0n) {
      const oldZero = this.zero;
      this.zero = false;
      this.buf += this.padding(this.widPresent ? this.wid : 0);
      this.zero = oldZero;
      return;
    }
    let prec = 0;
    if (this.precPresent) {
      prec = this.prec;
    } else if (this.zero && !this.minus && this.widPresent) {
      prec = this.wid;
      if (negative || this.plus || this.space) prec--;
    }
    let digits = a.toString(base);
    if (upper) digits = digits.toUpperCase();
    if (digits.length < prec) digits = '0'.repeat(prec - digits.length) + digits;
    if (this.sharp) {
      if (base === 2) digits = '0b' + digits;
      else if (base === 8) {
        if (digits[0] !== '0') digits = '0' + digits;
      } else if (base === 16) digits = (upper ? '0X' : '0x') + digits;
    }
    if (verb === 'O') digits = '0o' + digits;
    if (negative) digits = '-' + digits;
    else if (this.plus) digits = '+' + digits;
    else if (this.space) digits = ' ' + digits;
    // Zero padding was done as precision above; pad the rest with spaces.
    const oldZero = this.zero;
    this.zero = false;
    this.pad(digits);
    this.zero = oldZero;
  }

  fmtUnicode(v: bigint): void {
    let prec = 4;
    if (this.precPresent && this.prec > 4) prec = this.prec;
    let s = 'U+' + BigInt.asUintN(64, v).toString(16).toUpperCase().padStart(prec, '0');
    if (this.sharp && v >= 0n && v <= 0x10ffffn && isPrint(Number(v))) s += " '" + String.fromCodePoint(Number(v)) + "'";
    const oldZero = this.zero;
    this.zero = false;
    this.pad(s);
    this.zero = oldZero;
  }

  fmtFloat(v: number, verb: string, prec: number): void {
    if (this.precPresent) prec = this.prec;
    let num = formatFloat(v, verb, prec);
    if (num[0] === '-' || num[0] === '+') {
      // keep sign
    } else num = '+' + num;
    if (this.space && num[0] === '+' && !this.plus) num = ' ' + num.slice(1);
    if (num[1] === 'I' || num[1] === 'N') {
      const oldZero = this.zero;
      this.zero = false;
      if (num[1] === 'N' && !this.space && !this.plus) num = num.slice(1);
      this.pad(num);
      this.zero = oldZero;
      return;
    }
    if (this.sharp && verb !== 'b') {
      let digits = 0;
      if (verb === 'v' || verb === 'g' || verb === 'G' || verb === 'x') {
        digits = prec;
        if (digits === -1) digits = 6;
      }
      let tail = '';
      let body = num;
      let hasDot = false;
      let sawNonzero = false;
      for (let i = 1; i < body.length; i++) {
        const c = body[i]!;
        if (c === '.') hasDot = true;
        else if (c === 'p' || c === 'P' || ((c === 'e' || c === 'E') && verb !== 'x' && verb !== 'X')) {
          tail = body.slice(i);
          body = body.slice(0, i);
          break;
        } else {
          if (c !== '0') sawNonzero = true;
          if (sawNonzero) digits--;
        }
      }
      if (!hasDot) {
        if (body.length === 2 && body[1] === '0') digits--;
        body += '.';
      }
      while (digits > 0) {
        body += '0';
        digits--;
      }
      num = body + tail;
    }
    if (this.plus || num[0] !== '+') {
      if (this.zero && !this.minus && this.widPresent && this.wid > num.length) {
        this.buf += num[0]! + '0'.repeat(this.wid - num.length) + num.slice(1);
        return;
      }
      this.pad(num);
      return;
    }
    this.pad(num.slice(1));
  }

  badVerb(verb: string, v: GoValue, hasArg: boolean): void {
    this.buf += '%!' + verb + '(';
    if (hasArg && v !== undefined && v !== null) {
      this.buf += goTypeName(v) + '=';
      const save = this.saveFlags();
      this.clearFlags();
      this.printArg(v, 'v', 1);
      this.restoreFlags(save);
    } else this.buf += '<nil>';
    this.buf += ')';
  }

  private saveFlags(): unknown[] {
    return [this.wid, this.prec, this.widPresent, this.precPresent, this.minus, this.plus, this.sharp, this.space, this.zero, this.plusV, this.sharpV];
  }

  private restoreFlags(s: unknown[]): void {
    [this.wid, this.prec, this.widPresent, this.precPresent, this.minus, this.plus, this.sharp, this.space, this.zero, this.plusV, this.sharpV] =
      s as [number, number, boolean, boolean, boolean, boolean, boolean, boolean, boolean, boolean, boolean];
  }

  /** printArg (depth 0) / printValue (depth > 0). Nested nil interfaces print as <nil>. */
  printArg(v: GoValue, verb: string, depth: number): void {
    if (v === undefined || v === null) {
      if (depth > 0) {
        this.buf += this.sharpV ? 'interface {}(nil)' : '<nil>';
        return;
      }
      if (verb === 'T' || verb === 'v') this.pad('<nil>');
      else this.badVerb(verb, v, false);
      return;
    }
    if (verb === 'T' && depth === 0) {
      this.fmtS(goTypeName(v));
      return;
    }
    if (verb === 'p' && depth === 0) {
      this.badVerb(verb, v, true);
      return;
    }
    switch (typeof v) {
      case 'boolean':
        if (verb === 't' || verb === 'v') this.pad(v ? 'true' : 'false');
        else this.badVerb(verb, v, true);
        return;
      case 'number':
        switch (verb) {
          case 'v': this.fmtFloat(v, 'g', -1); return;
          case 'b': case 'g': case 'G': case 'x': case 'X': this.fmtFloat(v, verb, -1); return;
          case 'f': case 'e': case 'E': this.fmtFloat(v, verb, 6); return;
          case 'F': this.fmtFloat(v, 'f', 6); return;
          default: this.badVerb(verb, v, true); return;
        }
      case 'string':
        this.fmtString(v, verb);
        return;
      case 'function':
        if (verb === 'v') this.pad('0x0');
        else this.badVerb(verb, v, true);
        return;
      default:
        break;
    }
    if (v instanceof GoInt) {
      const unsigned = v.unsigned;
      switch (verb) {
        case 'v':
          if (this.sharpV && unsigned) {
            this.sharp = true;
            this.fmtInteger(v.value, true, 16, 'x', false);
            this.sharp = false;
          } else this.fmtInteger(v.value, unsigned, 10, verb, false);
          return;
        case 'd': this.fmtInteger(v.value, unsigned, 10, verb, false); return;
        case 'b': this.fmtInteger(v.value, unsigned, 2, verb, false); return;
        case 'o': case 'O': this.fmtInteger(v.value, unsigned, 8, verb, false); return;
        case 'x': this.fmtInteger(v.value, unsigned, 16, verb, false); return;
        case 'X': this.fmtInteger(v.value, unsigned, 16, verb, true); return;
        case 'c': {
          const cp = v.value < 0n || v.value > 0x10ffffn ? 0xfffd : Number(v.value);
          this.pad(String.fromCodePoint(cp >= 0xd800 && cp < 0xe000 ? 0xfffd : cp));
          return;
        }
        case 'q': {
          const cp = v.value < 0n || v.value > 0x10ffffn ? 0xfffd : Number(v.value);
          this.pad(quoteRune(cp, this.plus));
          return;
        }
        case 'U': this.fmtUnicode(v.value); return;
        default: this.badVerb(verb, v, true); return;
      }
    }
    if (v instanceof Uint8Array) {
      this.fmtBytes(v, verb, depth);
      return;
    }
    if (v instanceof GoObject) {
      if (verb === 'v' || verb === 's' || verb === 'x' || verb === 'X' || verb === 'q') this.fmtString(v.format(), verb);
      else this.badVerb(verb, v, true);
      return;
    }
    if (Array.isArray(v)) {
      if ((verb === 's' || verb === 'q' || verb === 'x' || verb === 'X') && elemType(v) === 'uint8') {
        this.fmtBytes(Uint8Array.from(v, (x) => (x instanceof GoInt ? Number(x.value) : 0)), verb, depth);
        return;
      }
      if (this.sharpV) {
        this.buf += goTypeName(v) + '{';
        for (let i = 0; i < v.length; i++) {
          if (i > 0) this.buf += ', ';
          this.printArg(v[i], verb, depth + 1);
        }
        this.buf += '}';
        return;
      }
      this.buf += '[';
      for (let i = 0; i < v.length; i++) {
        if (i > 0) this.buf += ' ';
        this.printArg(v[i], verb, depth + 1);
      }
      this.buf += ']';
      return;
    }
    if (isMap(v)) {
      const keys = sortedKeys(v);
      this.buf += this.sharpV ? goTypeName(v) + '{' : 'map[';
      for (let i = 0; i < keys.length; i++) {
        const k = keys[i]!;
        if (i > 0) this.buf += this.sharpV ? ', ' : ' ';
        this.printArg(k, verb, depth + 1);
        this.buf += ':';
        this.printArg(v[k], verb, depth + 1);
      }
      this.buf += this.sharpV ? '}' : ']';
      return;
    }
    this.badVerb(verb, v, true);
  }

  fmtString(s: string, verb: string): void {
    switch (verb) {
      case 'v':
        if (this.sharpV) this.fmtQ(s);
        else this.fmtS(s);
        return;
      case 's': this.fmtS(s); return;
      case 'x': this.fmtSbx(encoder.encode(s), 'x'); return;
      case 'X': this.fmtSbx(encoder.encode(s), 'X'); return;
      case 'q': this.fmtQ(s); return;
      default: this.badVerb(verb, s, true);
    }
  }

  fmtBytes(b: Uint8Array, verb: string, depth: number): void {
    switch (verb) {
      case 'v': case 'd': {
        if (this.sharpV) {
          this.buf += '[]byte{';
          for (let i = 0; i < b.length; i++) {
            if (i > 0) this.buf += ', ';
            this.buf += '0x' + b[i]!.toString(16);
          }
          this.buf += '}';
          return;
        }
        this.buf += '[';
        for (let i = 0; i < b.length; i++) {
          if (i > 0) this.buf += ' ';
          this.fmtInteger(BigInt(b[i]!), true, 10, verb, false);
        }
        this.buf += ']';
        return;
      }
      case 's': this.fmtS(new TextDecoder().decode(b)); return;
      case 'x': this.fmtSbx(b, 'x'); return;
      case 'X': this.fmtSbx(b, 'X'); return;
      case 'q': this.fmtQ(new TextDecoder().decode(b)); return;
      default: {
        this.buf += '[';
        for (let i = 0; i < b.length; i++) {
          if (i > 0) this.buf += ' ';
          this.printArg(new GoInt('uint8', BigInt(b[i]!)), verb, depth + 1);
        }
        this.buf += ']';
      }
    }
  }
}

function isStringArg(v: GoValue): boolean {
  return typeof v === 'string';
}

/** fmt.Sprint: spaces between operands when neither side is a string. */
export function sprint(args: readonly GoValue[]): string {
  if (args.length === 1) {
    const a = args[0];
    if (typeof a === 'string') return a;
  }
  const p = new Printer();
  let prevString = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const isString = isStringArg(arg);
    if (i > 0 && !isString && !prevString) p.buf += ' ';
    p.clearFlags();
    p.printArg(arg, 'v', 0);
    prevString = isString;
  }
  return p.buf;
}

/** fmt.Sprintln: always spaces between operands and a trailing newline. */
export function sprintln(args: readonly GoValue[]): string {
  const p = new Printer();
  for (let i = 0; i < args.length; i++) {
    if (i > 0) p.buf += ' ';
    p.clearFlags();
    p.printArg(args[i], 'v', 0);
  }
  return p.buf + '\n';
}

/** fmt.Sprint of a single value as %v (used for template output). */
export function formatValue(v: GoValue): string {
  if (typeof v === 'string') return v;
  const p = new Printer();
  p.printArg(v, 'v', 0);
  return p.buf;
}

function parsenum(s: string, start: number): [number, boolean, number] {
  let num = 0;
  let isnum = false;
  let i = start;
  for (; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) break;
    if (num > BIG_WIDTH) return [0, false, s.length];
    num = num * 10 + (c - 48);
    isnum = true;
  }
  return [num, isnum, i];
}

/** fmt.Sprintf. */
export function sprintf(format: string, a: readonly GoValue[]): string {
  const p = new Printer();
  const end = format.length;
  let argNum = 0;
  let afterIndex: boolean;
  let reordered = false;
  let goodArgNum: boolean;

  const argNumber = (argNum: number, i: number, numArgs: number): [number, number, boolean] => {
    if (i >= end || format[i] !== '[') return [argNum, i, false];
    reordered = true;
    // parseArgNumber
    for (let j = i + 1; j < end; j++) {
      if (format[j] === ']') {
        const [width, ok, newi] = parsenum(format, i + 1);
        if (!ok || newi !== j) {
          goodArgNum = false;
          return [argNum, j + 1, true];
        }
        const idx = width - 1;
        if (idx >= 0 && idx < numArgs) return [idx, j + 1, true];
        goodArgNum = false;
        return [argNum, j + 1, true];
      }
    }
    goodArgNum = false;
    return [argNum, i + 1, false];
  };

  const intFromArg = (argNum: number): [number, boolean, number] => {
    let num = 0;
    let isInt = false;
    let newArgNum = argNum;
    if (argNum < a.length) {
      const v = a[argNum];
      if (v instanceof GoInt) {
        const n = v.value;
        if (n >= -BigInt(BIG_WIDTH) && n <= BigInt(BIG_WIDTH)) {
          num = Number(n);
          isInt = true;
        }
      }
      newArgNum = argNum + 1;
      if (Math.abs(num) > BIG_WIDTH) {
        num = 0;
        isInt = false;
      }
    }
    return [num, isInt, newArgNum];
  };

  let i = 0;
  formatLoop: while (i < end) {
    goodArgNum = true;
    const lasti = i;
    while (i < end && format[i] !== '%') i++;
    if (i > lasti) p.buf += format.slice(lasti, i);
    if (i >= end) break;
    i++;
    p.clearFlags();
    simpleFormat: for (; i < end; i++) {
      const c = format[i]!;
      switch (c) {
        case '#': p.sharp = true; break;
        case '0': p.zero = !p.minus; break;
        case '+': p.plus = true; break;
        case '-': p.minus = true; p.zero = false; break;
        case ' ': p.space = true; break;
        default:
          if (c >= 'a' && c <= 'z' && argNum < a.length) {
            if (c === 'v') {
              p.sharpV = p.sharp;
              p.sharp = false;
              p.plusV = p.plus;
              p.plus = false;
            }
            p.printArg(a[argNum], c, 0);
            argNum++;
            i++;
            continue formatLoop;
          }
          break simpleFormat;
      }
    }

    [argNum, i, afterIndex] = argNumber(argNum, i, a.length);

    if (i < end && format[i] === '*') {
      i++;
      [p.wid, p.widPresent, argNum] = intFromArg(argNum);
      if (!p.widPresent) p.buf += '%!(BADWIDTH)';
      if (p.wid < 0) {
        p.wid = -p.wid;
        p.minus = true;
        p.zero = false;
      }
      afterIndex = false;
    } else {
      [p.wid, p.widPresent, i] = parsenum(format, i);
      if (afterIndex && p.widPresent) goodArgNum = false;
    }

    if (i + 1 < end && format[i] === '.') {
      i++;
      if (afterIndex) goodArgNum = false;
      [argNum, i, afterIndex] = argNumber(argNum, i, a.length);
      if (i < end && format[i] === '*') {
        i++;
        [p.prec, p.precPresent, argNum] = intFromArg(argNum);
        if (p.prec < 0) {
          p.prec = 0;
          p.precPresent = false;
        }
        if (!p.precPresent) p.buf += '%!(BADPREC)';
        afterIndex = false;
      } else {
        [p.prec, p.precPresent, i] = parsenum(format, i);
        if (!p.precPresent) {
          p.prec = 0;
          p.precPresent = true;
        }
      }
    }

    if (!afterIndex) [argNum, i] = argNumber(argNum, i, a.length);

    if (i >= end) {
      p.buf += '%!(NOVERB)';
      break;
    }
    const cp = format.codePointAt(i)!;
    const verb = String.fromCodePoint(cp);
    i += verb.length;

    if (verb === '%') {
      p.buf += '%';
    } else if (!goodArgNum) {
      p.buf += '%!' + verb + '(BADINDEX)';
    } else if (argNum >= a.length) {
      p.buf += '%!' + verb + '(MISSING)';
    } else {
      if (verb === 'v') {
        p.sharpV = p.sharp;
        p.sharp = false;
        p.plusV = p.plus;
        p.plus = false;
      }
      p.printArg(a[argNum], verb, 0);
      argNum++;
    }
  }

  if (!reordered && argNum < a.length) {
    p.clearFlags();
    p.buf += '%!(EXTRA ';
    for (let j = argNum; j < a.length; j++) {
      if (j > argNum) p.buf += ', ';
      const arg = a[j];
      if (arg === null || arg === undefined) p.buf += '<nil>';
      else {
        p.buf += goTypeName(arg) + '=';
        p.printArg(arg, 'v', 0);
      }
    }
    p.buf += ')';
  }
  return p.buf;
}
