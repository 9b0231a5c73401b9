// sprig's string functions (strings.go and the goutils/xstrings helpers it registers). Go strings
// are bytes: trunc/substr/abbrev count UTF-8 bytes, as sprig does.
import { createHash } from 'node:crypto';
import { GoFuncError, compareGoStrings, goFunc, goMap, goSlice, int, newMap, type FuncMap, type GoValue } from '../../value.ts';
import { formatValue } from '../../fmt.ts';
import { quote as goQuote } from '../../strconv.ts';
import { goIsLower, goIsTitle, goIsUpper, goToLower, goToLowerRune, goToTitleRune, goToUpper, goToUpperRune } from '../../unicode-case.ts';
import { NIL_DEREF, listItems, num, strval } from './util.ts';

const S = ['string'];
const bytes = (s: string): Buffer => Buffer.from(s, 'utf8');
const sliceBytes = (s: string, a: number, b?: number): string => bytes(s).subarray(a, b).toString('utf8');
const blen = (s: string): number => Buffer.byteLength(s, 'utf8');

function outOfRange(a: number, b: number, n: number): never {
  if (b > n) throw new GoFuncError(`runtime error: slice bounds out of range [:${b}] with length ${n}`);
  if (a < 0) throw new GoFuncError(`runtime error: slice bounds out of range [${a}:]`);
  throw new GoFuncError(`runtime error: slice bounds out of range [${a}:${b}]`);
}

/** Go's s[a:b] on bytes with its panics. */
function goSlice2(s: string, a: number, b: number): string {
  const n = blen(s);
  if (a < 0 || b > n || a > b) outOfRange(a, b, n);
  return sliceBytes(s, a, b);
}

function abbreviateFull(str: string, offset: number, maxWidth: number): string {
  if (str === '') return '';
  if (maxWidth < 4) return '';
  const n = blen(str);
  if (n <= maxWidth) return str;
  if (offset > n) offset = n;
  if (n - offset < maxWidth - 3) offset = n - (maxWidth - 3);
  if (offset <= 4) return sliceBytes(str, 0, maxWidth - 3) + '...';
  if (maxWidth < 7) return '';
  if (offset + maxWidth - 3 < n) return '...' + abbreviateFull(sliceBytes(str, offset), 0, maxWidth - 3);
  return '...' + sliceBytes(str, n - (maxWidth - 3));
}

const isSpaceCp = (c: string): boolean => /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]$/u.test(c);
/** Byte-wise goutils helpers convert each byte to a rune (Latin-1), mangling non-ASCII as Go does. */
const latin1Runes = (s: string): string[] => Array.from(bytes(s), (b) => String.fromCharCode(b));

function trimSpace(s: string): string {
  return s.replace(/^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+|[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/gu, '');
}

function goTrim(s: string, cutset: string): string {
  const set = new Set(Array.from(cutset));
  const chars = Array.from(s);
  let a = 0;
  let b = chars.length;
  while (a < b && set.has(chars[a]!)) a++;
  while (b > a && set.has(chars[b - 1]!)) b--;
  return chars.slice(a, b).join('');
}

/** One rune mapped by a Go unicode case function. */
const goRune = (ch: string, f: (cp: number) => number): string => String.fromCodePoint(f(ch.codePointAt(0)!));

/** strings.Title's isSeparator: ASCII non-alphanumerics other than '_', and non-ASCII spaces. */
function isTitleSeparator(ch: string): boolean {
  if (ch.charCodeAt(0) < 0x80) return !/[A-Za-z0-9_]/.test(ch);
  if (/^[\p{L}\p{Nd}]$/u.test(ch)) return false;
  return isSpaceCp(ch);
}

/** strings.Title: unicode.ToTitle of each rune that follows a separator. */
function title(s: string): string {
  let prev = ' ';
  let out = '';
  for (const ch of s) {
    out += isTitleSeparator(prev) ? goRune(ch, goToTitleRune) : ch;
    prev = ch;
  }
  return out;
}

function wrapCustom(str: string, wrapLength: number, newLineStr: string, wrapLongWords: boolean): string {
  if (str === '') return '';
  if (newLineStr === '') newLineStr = '\n';
  if (wrapLength < 1) wrapLength = 1;
  const b = bytes(str);
  const n = b.length;
  const sub = (x: number, y?: number): string => b.subarray(x, y).toString('utf8');
  let offset = 0;
  let out = '';
  while (n - offset > wrapLength) {
    if (b[offset] === 0x20) {
      offset++;
      continue;
    }
    const end = wrapLength + offset + 1;
    const spaceToWrapAt = b.subarray(offset, end).lastIndexOf(0x20) + offset;
    if (spaceToWrapAt >= offset) {
      out += sub(offset, spaceToWrapAt) + newLineStr;
      offset = spaceToWrapAt + 1;
    } else if (wrapLongWords) {
      out += sub(offset, wrapLength + offset) + newLineStr;
      offset += wrapLength;
    } else {
      const e = wrapLength + offset;
      const index = b.subarray(e).indexOf(0x20);
      if (index === -1) {
        out += sub(offset);
        offset = n;
      } else {
        out += sub(offset, index + e) + newLineStr;
        offset = index + e + 1;
      }
    }
  }
  return out + sub(offset);
}

const isConnector = (c: string): boolean => c === '-' || c === '_' || isSpaceCp(c);

function toCamelCase(str: string): string {
  const chars = Array.from(str);
  let i = 0;
  let out = '';
  let r0 = '';
  for (; i < chars.length; i++) {
    r0 = chars[i]!;
    if (!isConnector(r0)) {
      r0 = goRune(r0, goToUpperRune);
      i++;
      break;
    }
    out += r0;
    r0 = '';
  }
  if (i >= chars.length) return out + r0;
  for (; i < chars.length; i++) {
    const r1 = r0;
    r0 = chars[i]!;
    if (isConnector(r0) && isConnector(r1)) {
      out += r1;
      continue;
    }
    if (isConnector(r1)) r0 = goRune(r0, goToUpperRune);
    else {
      r0 = goRune(r0, goToLowerRune);
      out += r1;
    }
  }
  return out + r0;
}

/** xstrings' camelCaseToLowerCase, simplified to its word rules: case changes, digits and connectors split words. */
function camelToLower(str: string, connector: string): string {
  const words: string[] = [];
  let cur = '';
  const chars = Array.from(str);
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    if (isConnector(c)) {
      if (cur) words.push(cur);
      cur = '';
      continue;
    }
    const prev = chars[i - 1];
    const next = chars[i + 1];
    if (cur && goIsUpper(c) && prev !== undefined && (goIsLower(prev) || (goIsUpper(prev) && next !== undefined && goIsLower(next)))) {
      words.push(cur);
      cur = '';
    }
    cur += c;
  }
  if (cur) words.push(cur);
  // xstrings lowers the upper-case runes only (a title-case 'ǅ' stays).
  return words.map((w) => Array.from(w, (c) => (goIsUpper(c) ? goRune(c, goToLowerRune) : c)).join('')).join(connector);
}

/** goutils.SwapCase: upper and title case → lower; lower → title after a space (or at the start), else upper. */
function swapCase(str: string): string {
  let ws = true;
  let out = '';
  for (const ch of str) {
    if (goIsUpper(ch) || goIsTitle(ch)) {
      out += goRune(ch, goToLowerRune);
      ws = false;
    } else if (goIsLower(ch)) {
      out += goRune(ch, ws ? goToTitleRune : goToUpperRune);
      ws = false;
    } else {
      ws = isSpaceCp(ch);
      out += ch;
    }
  }
  return out;
}

const ALPHA = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
const DIGITS = '0123456789';

function randomFrom(count: number, alphabet: string): string {
  if (count < 0) throw new GoFuncError(`Requested random string length ${count} is less than 0.`);
  let out = '';
  for (let i = 0; i < count; i++) out += alphabet[Math.floor(Math.random() * alphabet.length)];
  return out;
}

let ascii = '';
for (let c = 32; c <= 126; c++) ascii += String.fromCharCode(c);

/** strings.Split with Go's empty-separator rule (split into UTF-8 sequences). */
export function goSplit(s: string, sep: string, n = -1): string[] {
  if (n === 0) return [];
  if (sep === '') {
    const parts = Array.from(s);
    if (n > 0 && parts.length > n) return [...parts.slice(0, n - 1), parts.slice(n - 1).join('')];
    return parts;
  }
  const parts = s.split(sep);
  if (n > 0 && parts.length > n) return [...parts.slice(0, n - 1), parts.slice(n - 1).join(sep)];
  return parts;
}

function indexedMap(parts: string[]): GoValue {
  const m = newMap();
  parts.forEach((p, i) => (m['_' + String(i)] = p));
  return goMap('string', m);
}

/** sprig's strslice: []interface{} → []string dropping nils; scalars → one-element list. */
export function strslice(v: GoValue): string[] {
  if (Array.isArray(v) || v instanceof Uint8Array) {
    return listItems(v).filter((x) => x !== null && x !== undefined).map(strval);
  }
  if (v === null || v === undefined) return [];
  return [strval(v)];
}

function adler32(s: string): number {
  let a = 1;
  let b = 0;
  for (const byte of bytes(s)) {
    a = (a + byte) % 65521;
    b = (b + a) % 65521;
  }
  return ((b << 16) | a) >>> 0;
}

function repeat(count: number, s: string): string {
  if (count < 0) throw new GoFuncError('strings: negative Repeat count');
  return s.repeat(count);
}

export const stringFunctions: FuncMap = {
  hello: goFunc({ params: [], results: S }, () => 'Hello!'),
  abbrev: goFunc({ params: ['int', 'string'], results: S }, (w: GoValue, s: string) => (num(w) < 4 ? s : abbreviateFull(s, 0, num(w)))),
  abbrevboth: goFunc({ params: ['int', 'int', 'string'], results: S }, (l: GoValue, r: GoValue, s: string) => {
    const left = num(l);
    const right = num(r);
    if (right < 4 || (left > 0 && right < 7)) return s;
    return abbreviateFull(s, left, right);
  }),
  trunc: goFunc({ params: ['int', 'string'], results: S }, (cv: GoValue, s: string) => {
    const c = num(cv);
    const n = blen(s);
    if (c < 0 && n + c > 0) return sliceBytes(s, n + c);
    if (c >= 0 && n > c) return sliceBytes(s, 0, c);
    return s;
  }),
  trim: goFunc({ params: S, results: S }, trimSpace),
  upper: goFunc({ params: S, results: S }, goToUpper),
  lower: goFunc({ params: S, results: S }, goToLower),
  title: goFunc({ params: S, results: S }, title),
  untitle: goFunc({ params: S, results: S }, (s: string) => {
    let next = true;
    let out = '';
    for (const ch of s) {
      if (isSpaceCp(ch)) next = true;
      else if (next) {
        out += goRune(ch, goToLowerRune);
        next = false;
        continue;
      }
      out += ch;
    }
    return out;
  }),
  substr: goFunc({ params: ['int', 'int', 'string'], results: S }, (a: GoValue, b: GoValue, s: string) => {
    const start = num(a);
    const end = num(b);
    const n = blen(s);
    if (start < 0) return goSlice2(s, 0, end);
    if (end < 0 || end > n) return goSlice2(s, start, n);
    return goSlice2(s, start, end);
  }),
  repeat: goFunc({ params: ['int', 'string'], results: S }, (c: GoValue, s: string) => repeat(num(c), s)),
  trimall: goFunc({ params: ['string', 'string'], results: S }, (a: string, b: string) => goTrim(b, a)),
  trimAll: goFunc({ params: ['string', 'string'], results: S }, (a: string, b: string) => goTrim(b, a)),
  trimSuffix: goFunc({ params: ['string', 'string'], results: S }, (a: string, b: string) => (a !== '' && b.endsWith(a) ? b.slice(0, b.length - a.length) : b)),
  trimPrefix: goFunc({ params: ['string', 'string'], results: S }, (a: string, b: string) => (b.startsWith(a) ? b.slice(a.length) : b)),
  nospace: goFunc({ params: S, results: S }, (s: string) => {
    const runes = latin1Runes(s);
    const kept = runes.filter((c) => !isSpaceCp(c));
    return kept.length === runes.length ? s : kept.join('');
  }),
  initials: goFunc({ params: S, results: S }, (s: string) => {
    if (s === '') return s;
    let gap = true;
    let out = '';
    for (const c of latin1Runes(s)) {
      if (isSpaceCp(c)) gap = true;
      else if (gap) {
        out += c;
        gap = false;
      }
    }
    return out;
  }),
  randAlphaNum: goFunc({ params: ['int'], results: S }, (c: GoValue) => randomFrom(num(c), ALPHA + DIGITS)),
  randAlpha: goFunc({ params: ['int'], results: S }, (c: GoValue) => randomFrom(num(c), ALPHA)),
  randAscii: goFunc({ params: ['int'], results: S }, (c: GoValue) => randomFrom(num(c), ascii)),
  randNumeric: goFunc({ params: ['int'], results: S }, (c: GoValue) => randomFrom(num(c), DIGITS)),
  swapcase: goFunc({ params: S, results: S }, swapCase),
  shuffle: goFunc({ params: S, results: S }, (s: string) => {
    const a = Array.from(s);
    for (let i = a.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [a[i], a[j]] = [a[j]!, a[i]!];
    }
    return a.join('');
  }),
  snakecase: goFunc({ params: S, results: S }, (s: string) => camelToLower(s, '_')),
  camelcase: goFunc({ params: S, results: S }, toCamelCase),
  kebabcase: goFunc({ params: S, results: S }, (s: string) => camelToLower(s, '-')),
  wrap: goFunc({ params: ['int', 'string'], results: S }, (l: GoValue, s: string) => wrapCustom(s, num(l), '', false)),
  wrapWith: goFunc({ params: ['int', 'string', 'string'], results: S }, (l: GoValue, sep: string, s: string) => wrapCustom(s, num(l), sep, true)),
  contains: goFunc({ params: ['string', 'string'], results: ['bool'] }, (sub: string, s: string) => s.includes(sub)),
  hasPrefix: goFunc({ params: ['string', 'string'], results: ['bool'] }, (sub: string, s: string) => s.startsWith(sub)),
  hasSuffix: goFunc({ params: ['string', 'string'], results: ['bool'] }, (sub: string, s: string) => s.endsWith(sub)),
  quote: goFunc({ params: [], variadic: 'interface {}', results: S }, (...xs: GoValue[]) =>
    xs.filter((x) => x !== null && x !== undefined).map((x) => goQuote(strval(x))).join(' ')),
  squote: goFunc({ params: [], variadic: 'interface {}', results: S }, (...xs: GoValue[]) =>
    xs.filter((x) => x !== null && x !== undefined).map((x) => `'${formatValue(x)}'`).join(' ')),
  cat: goFunc({ params: [], variadic: 'interface {}', results: S }, (...xs: GoValue[]) =>
    xs.filter((x) => x !== null && x !== undefined).map(strval).join(' ')),
  indent: goFunc({ params: ['int', 'string'], results: S }, (n: GoValue, s: string) => {
    const pad = repeat(num(n), ' ');
    return pad + s.split('\n').join('\n' + pad);
  }),
  nindent: goFunc({ params: ['int', 'string'], results: S }, (n: GoValue, s: string) => {
    const pad = repeat(num(n), ' ');
    return '\n' + pad + s.split('\n').join('\n' + pad);
  }),
  replace: goFunc({ params: ['string', 'string', 'string'], results: S }, (o: string, n: string, s: string) => {
    if (o === '') return goSplit(s, '').reduce((acc, c) => acc + c + n, n);
    return s.split(o).join(n);
  }),
  plural: goFunc({ params: ['string', 'string', 'int'], results: S }, (one: string, many: string, c: GoValue) => (num(c) === 1 ? one : many)),
  sha1sum: goFunc({ params: S, results: S }, (s: string) => createHash('sha1').update(s, 'utf8').digest('hex')),
  sha256sum: goFunc({ params: S, results: S }, (s: string) => createHash('sha256').update(s, 'utf8').digest('hex')),
  adler32sum: goFunc({ params: S, results: S }, (s: string) => String(adler32(s))),
  toString: goFunc({ params: ['interface {}'], results: S }, strval),
  split: goFunc({ params: ['string', 'string'], results: ['map[string]string'] }, (sep: string, s: string) => indexedMap(goSplit(s, sep))),
  splitList: goFunc({ params: ['string', 'string'], results: ['[]string'] }, (sep: string, s: string) => goSlice('string', goSplit(s, sep))),
  splitn: goFunc({ params: ['string', 'int', 'string'], results: ['map[string]string'] }, (sep: string, n: GoValue, s: string) => indexedMap(goSplit(s, sep, num(n)))),
  toStrings: goFunc({ params: ['interface {}'], results: ['[]string'] }, (v: GoValue) => goSlice('string', strslice(v))),
  join: goFunc({ params: ['string', 'interface {}'], results: S }, (sep: string, v: GoValue) => strslice(v).join(sep)),
  sortAlpha: goFunc({ params: ['interface {}'], results: ['[]string'] }, (v: GoValue) => {
    if (!Array.isArray(v) && !(v instanceof Uint8Array)) return goSlice('string', [strval(v)]);
    return goSlice('string', strslice(v).sort(compareGoStrings));
  }),
  atoi: goFunc({ params: S, results: ['int'] }, (s: string) => {
    const m = /^[+-]?\d+$/.exec(s);
    if (m === null) return int(0);
    const n = BigInt(s);
    return int(n > 9223372036854775807n ? 9223372036854775807n : n < -9223372036854775808n ? -9223372036854775808n : n);
  }),
};

export { NIL_DEREF };
