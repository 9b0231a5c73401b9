// Go's fmt (Sprint, Sprintln, Sprintf) over the value model; numbers and quoting come from ./strconv.ts.
// Follows fmt/print.go and fmt/format.go: verbs, flags, width/precision (also `*` and `[n]`),
// bad-verb output `%!d(string=hi)`, `%!s(MISSING)`, `%!(EXTRA ...)`, `%!(NOVERB)`, `%!(BADWIDTH)`.

import { canBackquote, formatFloat, isPrint, quote, quoteRune } from './strconv.ts';
import { GoInt, GoObject, elemType, goTypeName, isMap, sortedKeys, type GoValue } from './value.ts';

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

  /** A top-level argument of Fprintf: %v takes the # and + flags as its own (Go's printArg caller does the same). */
  printVerbArg(v: GoValue, verb: string): void {
    if (verb === 'v') {
      this.sharpV = this.sharp;
      this.sharp = false;
      this.plusV = this.plus;
      this.plus = false;
    }
    this.printArg(v, verb, 0);
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
            p.printVerbArg(a[argNum], c);
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
      p.printVerbArg(a[argNum], verb);
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
