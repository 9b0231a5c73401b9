// sprig regex.go on Go's RE2 syntax, translated to JavaScript RegExp (RE2 is close to a subset).
import { GoFuncError, goFunc, goSlice, type FuncMap, type GoValue } from '../../value.ts';
import { num } from './util.ts';

const cache = new Map<string, RegExp>();

/** Compiles an RE2 pattern: named groups (?P<n>...) become (?<n>...), inline flags are mapped. */
export function compileGoRegexp(pattern: string): RegExp {
  let re = cache.get(pattern);
  if (re !== undefined) return re;
  let src = pattern.replace(/\(\?P</g, '(?<');
  let flags = 'gu';
  const m = /^\(\?([imsU]+)\)/.exec(src);
  if (m !== null) {
    src = src.slice(m[0].length);
    if (m[1]!.includes('i')) flags += 'i';
    if (m[1]!.includes('m')) flags += 'm';
    if (m[1]!.includes('s')) flags += 's';
  }
  src = src.replace(/\\z/g, '$(?![\\s\\S])').replace(/\\A/g, '^');
  try {
    re = new RegExp(src, flags);
  } catch (e) {
    throw new GoFuncError('error parsing regexp: ' + (e instanceof Error ? e.message : String(e)));
  }
  cache.set(pattern, re);
  return re;
}

/** Go's regexp template expansion: $1, ${1}, $name, ${name}, $$. */
function expand(template: string, match: RegExpExecArray): string {
  return template.replace(/\$(\$|\{([A-Za-z0-9_]+)\}|([A-Za-z0-9_]+))/g, (_all, d: string, braced?: string, bare?: string) => {
    if (d === '$') return '$';
    const name = braced ?? bare ?? '';
    if (/^\d+$/.test(name)) return match[Number(name)] ?? '';
    return match.groups?.[name] ?? '';
  });
}

function findAll(re: RegExp, s: string, n: number): RegExpExecArray[] {
  const out: RegExpExecArray[] = [];
  re.lastIndex = 0;
  let prevEnd = -1;
  while (n < 0 || out.length < n) {
    const m = re.exec(s);
    if (m === null) break;
    if (m[0] === '') {
      re.lastIndex = m.index + (s.codePointAt(m.index)! > 0xffff ? 2 : 1);
      // Go skips an empty match right after the previous match.
      if (m.index === prevEnd) continue;
    }
    prevEnd = m.index + m[0].length;
    out.push(m);
    if (re.lastIndex > s.length) break;
  }
  return out;
}

const match = (r: string, s: string): boolean => {
  const re = compileGoRegexp(r);
  re.lastIndex = 0;
  return re.test(s);
};
const findAllStr = (r: string, s: string, n: GoValue): GoValue => {
  const res = findAll(compileGoRegexp(r), s, num(n)).map((m) => m[0]);
  return goSlice('string', res);
};
const find = (r: string, s: string): string => findAll(compileGoRegexp(r), s, 1)[0]?.[0] ?? '';
const replaceAll = (r: string, s: string, repl: string): string => {
  const re = compileGoRegexp(r);
  let out = '';
  let last = 0;
  for (const m of findAll(re, s, -1)) {
    out += s.slice(last, m.index) + expand(repl, m);
    last = m.index + m[0].length;
  }
  return out + s.slice(last);
};
const replaceAllLiteral = (r: string, s: string, repl: string): string => {
  const re = compileGoRegexp(r);
  let out = '';
  let last = 0;
  for (const m of findAll(re, s, -1)) {
    out += s.slice(last, m.index) + repl;
    last = m.index + m[0].length;
  }
  return out + s.slice(last);
};
/** regexp.Split. */
const split = (r: string, s: string, nv: GoValue): GoValue => {
  const n = num(nv);
  if (n === 0) return goSlice('string', []);
  const re = compileGoRegexp(r);
  if (r.length > 0 && s.length === 0) return goSlice('string', ['']);
  const matches = findAll(re, s, n);
  const out: string[] = [];
  let beg = 0;
  let end = 0;
  for (const m of matches) {
    if (n > 0 && out.length === n - 1) break;
    end = m.index;
    if (m.index + m[0].length !== 0) out.push(s.slice(beg, end));
    beg = m.index + m[0].length;
  }
  if (end !== s.length) out.push(s.slice(beg));
  return goSlice('string', out);
};
const quoteMeta = (s: string): string => s.replace(/[\\.+*?()|[\]{}^$]/g, '\\$&');

const SS = ['string', 'string'];
export const regexFunctions: FuncMap = {
  regexMatch: goFunc({ params: SS, results: ['bool'] }, (r: string, s: string) => {
    try {
      return match(r, s);
    } catch {
      return false;
    }
  }),
  mustRegexMatch: goFunc({ params: SS, results: ['bool', 'error'] }, match),
  regexFindAll: goFunc({ params: [...SS, 'int'], results: ['[]string'] }, findAllStr),
  mustRegexFindAll: goFunc({ params: [...SS, 'int'], results: ['[]string', 'error'] }, findAllStr),
  regexFind: goFunc({ params: SS, results: ['string'] }, find),
  mustRegexFind: goFunc({ params: SS, results: ['string', 'error'] }, find),
  regexReplaceAll: goFunc({ params: [...SS, 'string'], results: ['string'] }, replaceAll),
  mustRegexReplaceAll: goFunc({ params: [...SS, 'string'], results: ['string', 'error'] }, replaceAll),
  regexReplaceAllLiteral: goFunc({ params: [...SS, 'string'], results: ['string'] }, replaceAllLiteral),
  mustRegexReplaceAllLiteral: goFunc({ params: [...SS, 'string'], results: ['string', 'error'] }, replaceAllLiteral),
  regexSplit: goFunc({ params: [...SS, 'int'], results: ['[]string'] }, split),
  mustRegexSplit: goFunc({ params: [...SS, 'int'], results: ['[]string', 'error'] }, split),
  regexQuoteMeta: goFunc({ params: ['string'], results: ['string'] }, quoteMeta),
};
