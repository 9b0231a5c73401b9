// Go's text/template built-in functions (funcs.go). `and`, `or` and `call` are evaluated by the
// executor (short-circuit / callee naming); the entries here give their signatures for arity checks.
// Parameters typed 'reflect.Value' receive raw values: undefined = invalid, null = nil interface.

import { GoFuncError } from './errors.ts';
import { formatValue, sprint, sprintf, sprintln } from './fmt.ts';
import {
  GoInt, GoObject, compareGoStrings, elemType, goFunc, goInt, goSlice, goTypeName, int, isMap, mapGet, mapHas,
  truth, type FuncMap, type GoValue,
} from './value.ts';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** indirectInterface: a nil interface becomes the invalid value. */
function ii(v: GoValue): GoValue {
  return v === null ? undefined : v;
}

function utf8Bytes(s: string): Uint8Array {
  return encoder.encode(s);
}

function isAscii(s: string): boolean {
  // eslint-disable-next-line no-control-regex
  return /^[\x00-\x7f]*$/.test(s);
}

function byteLength(s: string): number {
  return isAscii(s) ? s.length : utf8Bytes(s).length;
}

/** indexArg: an integer index within [0, cap]. */
function indexArg(index: GoValue, cap: number): number {
  let x: bigint;
  if (index instanceof GoInt) x = index.value;
  else if (index === undefined) throw new GoFuncError('cannot index slice/array with nil');
  else throw new GoFuncError(`cannot index slice/array with type ${goTypeName(index)}`);
  if (x < 0n || x > BigInt(cap)) throw new GoFuncError(`index out of range: ${x}`);
  return Number(x);
}

function zeroOf(typ: string): GoValue {
  switch (typ) {
    case 'string': return '';
    case 'bool': return false;
    case 'float64': case 'float32': return 0;
    case 'int': case 'int8': case 'int16': case 'int32': case 'int64':
    case 'uint': case 'uint8': case 'uint16': case 'uint32': case 'uint64': case 'uintptr':
      return goInt(typ, 0n);
    default:
      return null;
  }
}

export { zeroOf };

function index(item: GoValue, ...indexes: GoValue[]): GoValue {
  item = ii(item);
  if (item === undefined) throw new GoFuncError('index of untyped nil');
  for (let idx of indexes) {
    idx = ii(idx);
    if (item === null || item === undefined) throw new GoFuncError('index of nil pointer');
    if (Array.isArray(item)) {
      const x = indexArg(idx, item.length);
      if (x === item.length) throw new GoFuncError('reflect: slice index out of range');
      item = item[x] ?? null;
    } else if (typeof item === 'string') {
      const str: string = item;
      const bytes: Uint8Array | null = isAscii(str) ? null : utf8Bytes(str);
      const len: number = bytes ? bytes.length : str.length;
      const x = indexArg(idx, len);
      if (x === len) throw new GoFuncError('reflect: string index out of range');
      item = new GoInt('uint8', BigInt(bytes ? bytes[x]! : str.charCodeAt(x)));
    } else if (item instanceof Uint8Array) {
      const x = indexArg(idx, item.length);
      if (x === item.length) throw new GoFuncError('reflect: slice index out of range');
      item = new GoInt('uint8', BigInt(item[x]!));
    } else if (isMap(item)) {
      if (idx === undefined) throw new GoFuncError('value is nil; should be of type string');
      if (typeof idx !== 'string') throw new GoFuncError(`value has type ${goTypeName(idx)}; should be string`);
      item = mapHas(item, idx) ? (mapGet(item, idx) ?? null) : zeroOf(elemType(item));
    } else {
      throw new GoFuncError(`can't index item of type ${goTypeName(item)}`);
    }
  }
  return item;
}

function slice(item: GoValue, ...indexes: GoValue[]): GoValue {
  item = ii(item);
  if (item === undefined) throw new GoFuncError('slice of untyped nil');
  if (indexes.length > 3) throw new GoFuncError(`too many slice indexes: ${indexes.length}`);
  let len: number;
  let bytes: Uint8Array | null = null;
  if (typeof item === 'string') {
    if (indexes.length === 3) throw new GoFuncError('cannot 3-index slice a string');
    bytes = isAscii(item) ? null : utf8Bytes(item);
    len = bytes ? bytes.length : item.length;
  } else if (Array.isArray(item) || item instanceof Uint8Array) {
    len = item.length;
  } else {
    throw new GoFuncError(`can't slice item of type ${goTypeName(item)}`);
  }
  const idx = [0, len, 0];
  for (let i = 0; i < indexes.length; i++) idx[i] = indexArg(ii(indexes[i]), len);
  if (idx[0]! > idx[1]!) throw new GoFuncError(`invalid slice index: ${idx[0]} > ${idx[1]}`);
  if (indexes.length === 3 && idx[1]! > idx[2]!) throw new GoFuncError(`invalid slice index: ${idx[1]} > ${idx[2]}`);
  if (typeof item === 'string') {
    return bytes ? decoder.decode(bytes.subarray(idx[0], idx[1])) : item.slice(idx[0], idx[1]);
  }
  if (item instanceof Uint8Array) return item.slice(idx[0], idx[1]);
  return goSlice(elemType(item), item.slice(idx[0], idx[1]));
}

function length(item: GoValue): GoValue {
  if (item === null) throw new GoFuncError('len of nil pointer');
  if (item === undefined) throw new GoFuncError('reflect: call of reflect.Value.Type on zero Value');
  if (typeof item === 'string') return int(byteLength(item));
  if (Array.isArray(item) || item instanceof Uint8Array) return int(item.length);
  if (isMap(item)) return int(Object.keys(item).length);
  throw new GoFuncError(`len of type ${goTypeName(item)}`);
}

function not(arg: GoValue): GoValue {
  return !truth(arg);
}

// Comparison kinds (basicKind).
const INVALID = 0;
const BOOL = 1;
const INT = 3;
const FLOAT = 4;
const STRING = 5;
const UINT = 6;

function basicKind(v: GoValue): number {
  switch (typeof v) {
    case 'boolean': return BOOL;
    case 'number': return FLOAT;
    case 'string': return STRING;
    default: break;
  }
  if (v instanceof GoInt) return v.unsigned ? UINT : INT;
  return INVALID;
}

function isNilValue(v: GoValue): boolean {
  return v === undefined || v === null;
}

/** Go's reflect Kind names as far as canCompare needs them. */
function kindName(v: GoValue): string {
  if (v === undefined) return 'invalid';
  if (v === null) return 'interface';
  if (Array.isArray(v) || v instanceof Uint8Array) return 'slice';
  if (typeof v === 'function') return 'func';
  if (v instanceof GoObject) return v.kind() === 'pointer' ? 'ptr' : 'struct';
  if (isMap(v)) return 'map';
  return typeof v;
}

function comparable(v: GoValue): boolean {
  return !(Array.isArray(v) || v instanceof Uint8Array || isMap(v) || typeof v === 'function');
}

function eqOne(a: GoValue, k1: number, b: GoValue): boolean {
  b = ii(b);
  const k2 = basicKind(b);
  if (k1 !== k2) {
    if (k1 === INT && k2 === UINT) return (a as GoInt).value >= 0n && (a as GoInt).value === (b as GoInt).value;
    if (k1 === UINT && k2 === INT) return (b as GoInt).value >= 0n && (a as GoInt).value === (b as GoInt).value;
    if (a !== undefined && b !== undefined) {
      throw new GoFuncError(`incompatible types for comparison: ${goTypeName(a)} and ${goTypeName(b)}`);
    }
    return false;
  }
  switch (k1) {
    case BOOL: case FLOAT: case STRING: return a === b;
    case INT: case UINT: return (a as GoInt).value === (b as GoInt).value;
    default: break;
  }
  const ka = kindName(a);
  const kb = kindName(b);
  if (ka !== kb && ka !== 'invalid' && kb !== 'invalid') {
    throw new GoFuncError(`non-comparable types ${formatValue(a)}: ${goTypeName(a)}, ${goTypeName(b)}: ${formatValue(b)}`);
  }
  if (isNilValue(a) || isNilValue(b)) return isNilValue(a) === isNilValue(b);
  if (!comparable(b)) throw new GoFuncError(`non-comparable type ${formatValue(b)}: ${goTypeName(b)}`);
  if (a instanceof GoObject && b instanceof GoObject) return a.goType() === b.goType() && a.format() === b.format();
  return a === b;
}

function eq(arg1: GoValue, ...arg2: GoValue[]): GoValue {
  arg1 = ii(arg1);
  if (arg2.length === 0) throw new GoFuncError('missing argument for comparison');
  const k1 = basicKind(arg1);
  for (const b of arg2) if (eqOne(arg1, k1, b)) return true;
  return false;
}

function ne(a: GoValue, b: GoValue): GoValue {
  return !eq(a, b);
}

function lt(arg1: GoValue, arg2: GoValue): boolean {
  arg1 = ii(arg1);
  const k1 = basicKind(arg1);
  if (k1 === INVALID) throw new GoFuncError('invalid type for comparison');
  arg2 = ii(arg2);
  const k2 = basicKind(arg2);
  if (k2 === INVALID) throw new GoFuncError('invalid type for comparison');
  if (k1 !== k2) {
    if (k1 === INT && k2 === UINT) return (arg1 as GoInt).value < 0n || (arg1 as GoInt).value < (arg2 as GoInt).value;
    if (k1 === UINT && k2 === INT) return (arg2 as GoInt).value >= 0n && (arg1 as GoInt).value < (arg2 as GoInt).value;
    throw new GoFuncError(`incompatible types for comparison: ${goTypeName(arg1)} and ${goTypeName(arg2)}`);
  }
  switch (k1) {
    case BOOL: throw new GoFuncError('invalid type for comparison');
    case FLOAT: return (arg1 as number) < (arg2 as number);
    case STRING: return compareGoStrings(arg1 as string, arg2 as string) < 0;
    default: return (arg1 as GoInt).value < (arg2 as GoInt).value;
  }
}

function le(a: GoValue, b: GoValue): boolean {
  return lt(a, b) || (eq(a, b) as boolean);
}

function gt(a: GoValue, b: GoValue): boolean {
  return !le(a, b);
}

function ge(a: GoValue, b: GoValue): boolean {
  return !lt(a, b);
}

/** evalArgs: the single string argument, or fmt.Sprint with nil arguments shown as <no value>. */
export function evalArgs(args: GoValue[]): string {
  if (args.length === 1 && typeof args[0] === 'string') return args[0];
  return sprint(args.map((a) => (a === null || a === undefined ? '<no value>' : a)));
}

const HTML_ESCAPES: Record<string, string> = { '\0': '\uFFFD', '"': '&#34;', "'": '&#39;', '&': '&amp;', '<': '&lt;', '>': '&gt;' };

/** template.HTMLEscapeString. */
export function htmlEscapeString(s: string): string {
  return s.replace(/[\0"'&<>]/g, (c) => HTML_ESCAPES[c]!);
}

/** template.JSEscapeString. */
export function jsEscapeString(s: string): string {
  let out = '';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    switch (ch) {
      case '\\': out += '\\\\'; continue;
      case "'": out += "\\'"; continue;
      case '"': out += '\\"'; continue;
      case '<': out += '\\u003C'; continue;
      case '>': out += '\\u003E'; continue;
      case '&': out += '\\u0026'; continue;
      case '=': out += '\\u003D'; continue;
      default: break;
    }
    if (c < 0x20) out += '\\u00' + c.toString(16).toUpperCase().padStart(2, '0');
    else if (c < 0x80) out += ch;
    else if (/^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u.test(ch)) out += ch;
    else out += '\\u' + c.toString(16).toUpperCase().padStart(4, '0');
  }
  return out;
}

/** url.QueryEscape. */
export function urlQueryEscape(s: string): string {
  let out = '';
  for (const b of utf8Bytes(s)) {
    const c = String.fromCharCode(b);
    if (/[A-Za-z0-9\-_.~]/.test(c)) out += c;
    else if (b === 32) out += '+';
    else out += '%' + b.toString(16).toUpperCase().padStart(2, '0');
  }
  return out;
}

const RV = 'reflect.Value';

/** The builtin function map. */
export function builtinFuncs(): FuncMap {
  return {
    and: goFunc({ params: [RV], variadic: RV, results: [RV] }, () => undefined),
    or: goFunc({ params: [RV], variadic: RV, results: [RV] }, () => undefined),
    call: goFunc({ params: [RV], variadic: RV, results: [RV, 'error'] }, () => undefined),
    not: goFunc({ params: [RV], results: ['bool'] }, not),
    len: goFunc({ params: [RV], results: ['int', 'error'] }, length),
    index: goFunc({ params: [RV], variadic: RV, results: [RV, 'error'] }, index),
    slice: goFunc({ params: [RV], variadic: RV, results: [RV, 'error'] }, slice),
    print: goFunc({ params: [], variadic: 'interface {}', results: ['string'] }, (...a: GoValue[]) => sprint(a)),
    printf: goFunc({ params: ['string'], variadic: 'interface {}', results: ['string'] }, (f: string, ...a: GoValue[]) => sprintf(f, a)),
    println: goFunc({ params: [], variadic: 'interface {}', results: ['string'] }, (...a: GoValue[]) => sprintln(a)),
    html: goFunc({ params: [], variadic: 'interface {}', results: ['string'] }, (...a: GoValue[]) => htmlEscapeString(evalArgs(a))),
    js: goFunc({ params: [], variadic: 'interface {}', results: ['string'] }, (...a: GoValue[]) => jsEscapeString(evalArgs(a))),
    urlquery: goFunc({ params: [], variadic: 'interface {}', results: ['string'] }, (...a: GoValue[]) => urlQueryEscape(evalArgs(a))),
    eq: goFunc({ params: [RV], variadic: RV, results: ['bool', 'error'] }, eq),
    ne: goFunc({ params: [RV, RV], results: ['bool', 'error'] }, ne),
    lt: goFunc({ params: [RV, RV], results: ['bool', 'error'] }, lt),
    le: goFunc({ params: [RV, RV], results: ['bool', 'error'] }, le),
    gt: goFunc({ params: [RV, RV], results: ['bool', 'error'] }, gt),
    ge: goFunc({ params: [RV, RV], results: ['bool', 'error'] }, ge),
  };
}
