// sprig's semver/semverCompare on Masterminds/semver v3 rules (which differ from npm's semver:
// loose "1.2" versions, "v" prefixes, comma/space AND, and its own prerelease matching).
import { GoFuncError, GoObject, NO_FIELD, goFunc, goInt, int, type FuncMap, type GoValue } from '../../value.ts';

const VERSION_RE = /^v?([0-9]+)(\.[0-9]+)?(\.[0-9]+)?(-([0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*))?(\+([0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*))?$/;

/** *semver.Version. */
export class SemverVersion extends GoObject {
  readonly major: bigint;
  readonly minor: bigint;
  readonly patch: bigint;
  readonly pre: string;
  readonly metadata: string;
  readonly original: string;
  constructor(major: bigint, minor: bigint, patch: bigint, pre: string, metadata: string, original: string) {
    super();
    this.major = major;
    this.minor = minor;
    this.patch = patch;
    this.pre = pre;
    this.metadata = metadata;
    this.original = original;
  }
  goType(): string {
    return '*semver.Version';
  }
  override kind(): 'pointer' {
    return 'pointer';
  }
  format(): string {
    let s = `${this.major}.${this.minor}.${this.patch}`;
    if (this.pre) s += '-' + this.pre;
    if (this.metadata) s += '+' + this.metadata;
    return s;
  }
  toJSONValue(): GoValue {
    return this.format();
  }
  override hasMethod(name: string): boolean {
    return ['Major', 'Minor', 'Patch', 'Prerelease', 'Metadata', 'Original', 'String', 'Compare', 'LessThan', 'GreaterThan', 'Equal'].includes(name);
  }
  override field(name: string, args: GoValue[]): GoValue | typeof NO_FIELD {
    const other = args[0] instanceof SemverVersion ? args[0] : undefined;
    switch (name) {
      case 'Major': return goUint(this.major);
      case 'Minor': return goUint(this.minor);
      case 'Patch': return goUint(this.patch);
      case 'Prerelease': return this.pre;
      case 'Metadata': return this.metadata;
      case 'Original': return this.original;
      case 'String': return this.format();
      case 'Compare': return int(compare(this, need(other)));
      case 'LessThan': return compare(this, need(other)) < 0;
      case 'GreaterThan': return compare(this, need(other)) > 0;
      case 'Equal': return compare(this, need(other)) === 0;
      default: return NO_FIELD;
    }
  }
}

function need(v: SemverVersion | undefined): SemverVersion {
  if (v === undefined) throw new GoFuncError('wrong type for value; expected *semver.Version');
  return v;
}

function goUint(v: bigint): GoValue {
  return goInt('uint64', v);
}

export function parseVersion(s: string): SemverVersion {
  const m = VERSION_RE.exec(s);
  if (m === null) throw new GoFuncError('Invalid Semantic Version');
  const n = (x: string | undefined): bigint => (x === undefined ? 0n : BigInt(x.replace('.', '')));
  const pre = m[5] ?? '';
  for (const part of pre ? pre.split('.') : []) {
    if (/^\d+$/.test(part) && part.length > 1 && part.startsWith('0')) throw new GoFuncError('Invalid Prerelease string');
  }
  return new SemverVersion(n(m[1]), n(m[2]), n(m[3]), pre, m[8] ?? '', s);
}

function comparePre(a: string, b: string): number {
  if (a === b) return 0;
  if (a === '') return 1;
  if (b === '') return -1;
  const pa = a.split('.');
  const pb = b.split('.');
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const x = pa[i];
    const y = pb[i];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    const xn = /^\d+$/.test(x);
    const yn = /^\d+$/.test(y);
    if (xn && yn) {
      const d = BigInt(x) - BigInt(y);
      if (d !== 0n) return d < 0n ? -1 : 1;
    } else if (xn !== yn) return xn ? -1 : 1;
    else if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

export function compare(a: SemverVersion, b: SemverVersion): number {
  for (const k of ['major', 'minor', 'patch'] as const) {
    if (a[k] !== b[k]) return a[k] < b[k] ? -1 : 1;
  }
  return comparePre(a.pre, b.pre);
}

interface Con {
  op: string;
  v: SemverVersion;
  dirty: boolean;
  minorDirty: boolean;
  patchDirty: boolean;
  origMinor: boolean; // the constraint spelled a minor part
  origPatch: boolean;
}

const CON_RE = /^\s*(=|!=|>=|=>|<=|=<|>|<|~>|~|\^)?\s*v?([0-9xX*]+)(\.[0-9xX*]+)?(\.[0-9xX*]+)?(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?\s*$/;

function parseCon(s: string, whole: string): Con {
  const m = CON_RE.exec(s);
  if (m === null) throw new GoFuncError(`improper constraint: ${whole}`);
  const wild = (x: string | undefined): boolean => x !== undefined && /^\.?[xX*]$/.test(x);
  const majorDirty = wild(m[2]);
  let minorDirty = wild(m[3]) || majorDirty;
  let patchDirty = wild(m[4]) || minorDirty;
  if (!majorDirty && m[3] === undefined) {
    minorDirty = true;
    patchDirty = true;
  } else if (!minorDirty && m[4] === undefined) patchDirty = true;
  const num = (x: string | undefined, dirty: boolean): string => (dirty || x === undefined ? '0' : x.replace('.', ''));
  const ver = `${num(m[2], majorDirty)}.${num(m[3], minorDirty)}.${num(m[4], patchDirty)}${m[5] ?? ''}${m[6] ?? ''}`;
  const v = parseVersion(ver);
  let op = m[1] ?? '';
  if (op === '=>') op = '>=';
  if (op === '=<') op = '<=';
  if (op === '~>') op = '~';
  return { op, v, dirty: majorDirty || minorDirty || patchDirty, minorDirty, patchDirty, origMinor: m[3] !== undefined && !wild(m[3]), origPatch: m[4] !== undefined && !wild(m[4]) };
}

function tildeOrEqual(v: SemverVersion, c: Con): boolean {
  if (c.dirty) return tilde(v, c);
  return compare(v, c.v) === 0;
}

function tilde(v: SemverVersion, c: Con): boolean {
  if (compare(v, c.v) < 0) return false;
  if (c.v.major === 0n && c.v.minor === 0n && c.v.patch === 0n && !c.origMinor && !c.origPatch && c.dirty && c.minorDirty && c.patchDirty && c.op === '') {
    return true;
  }
  if (v.major !== c.v.major) return false;
  if (v.minor !== c.v.minor && !c.minorDirty) return false;
  return true;
}

function caret(v: SemverVersion, c: Con): boolean {
  if (compare(v, c.v) < 0) return false;
  if (c.v.major > 0n || c.minorDirty) return v.major === c.v.major;
  if (c.v.minor > 0n || c.patchDirty) return v.major === 0n && v.minor === c.v.minor;
  return v.major === 0n && v.minor === 0n && v.patch === c.v.patch;
}

function check(v: SemverVersion, c: Con): boolean {
  if (v.pre !== '' && c.v.pre === '') return false;
  switch (c.op) {
    case '':
    case '=':
      return tildeOrEqual(v, c);
    case '!=':
      return c.dirty ? !tilde(v, c) : compare(v, c.v) !== 0;
    case '>':
      if (!c.dirty) return compare(v, c.v) > 0;
      if (v.major > c.v.major) return true;
      if (v.major < c.v.major || c.minorDirty) return false;
      return v.minor > c.v.minor;
    case '<':
      return compare(v, c.v) < 0;
    case '>=':
      return compare(v, c.v) >= 0;
    case '<=':
      if (!c.dirty) return compare(v, c.v) <= 0;
      if (v.major > c.v.major) return false;
      if (v.major === c.v.major && v.minor > c.v.minor && !c.minorDirty) return false;
      return true;
    case '~':
      return tilde(v, c);
    case '^':
      return caret(v, c);
    default:
      return false;
  }
}

/** semver.NewConstraint(s).Check(v). */
export function constraintCheck(constraint: string, v: SemverVersion): boolean {
  const groups = constraint.split('||');
  const parsed = groups.map((g) => {
    let text = g.trim();
    const cons: Con[] = [];
    const hyphen = /^(\S+)\s+-\s+(\S+)$/.exec(text);
    if (hyphen !== null) {
      cons.push(parseCon('>=' + hyphen[1]!, constraint), parseCon('<=' + hyphen[2]!, constraint));
      return cons;
    }
    text = text.replace(/(=|!=|>=|=>|<=|=<|>|<|~>|~|\^)\s+/g, '$1');
    for (const part of text.split(/[\s,]+/).filter((p) => p.length > 0)) cons.push(parseCon(part, constraint));
    if (cons.length === 0) throw new GoFuncError(`improper constraint: ${constraint}`);
    return cons;
  });
  return parsed.some((cons) => cons.every((c) => check(v, c)));
}

export const semverFunctions: FuncMap = {
  semver: goFunc({ params: ['string'], results: ['*semver.Version', 'error'] }, parseVersion),
  semverCompare: goFunc({ params: ['string', 'string'], results: ['bool', 'error'] }, (c: string, v: string) => {
    // NewConstraint is parsed first, so a bad constraint wins over a bad version.
    constraintCheck(c, parseVersion('0.0.0'));
    return constraintCheck(c, parseVersion(v));
  }),
};
