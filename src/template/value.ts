// The Go value model the template engine works on.
//
// Landscaper hands templates data decoded with encoding/json into interface{} (imports, state,
// blueprint values; YAML goes through sigs.k8s.io/yaml, which converts YAML to JSON and then uses
// encoding/json without UseNumber). So every number coming from data is a float64, every object a
// map[string]interface{}, every array a []interface{}. Integers only appear from template literals
// (`{{ 3 }}` is an untyped constant → Go `int`), from builtins (`len` → int) and from sprig
// (`add` → int64, `atoi` → int, `until` → []int, ...).
//
// Representation (JS value → Go type):
//   undefined            → the invalid reflect.Value ("no value": a missing key, an unset result)
//   null                 → a nil interface{} (JSON null, missingkey=zero on map[string]interface{})
//   boolean              → bool
//   string               → string
//   number               → float64 (ALWAYS float64, even when integral: JSON 3 is float64(3))
//   GoInt                → int / int64 / uint8 / ... (`kind` says which; value is a bigint so int64
//                          arithmetic and overflow wrap-around are exact)
//   GoValue[]            → []interface{} unless tagged with goSlice(elem, arr) (e.g. []string)
//   plain object         → map[string]interface{} unless tagged with goMap(elem, obj); keys are
//                          iterated sorted, as Go's text/template and fmt do. Read with mapGet (own
//                          properties only), create with newMap() (null prototype, so "__proto__" is
//                          an ordinary key).
//   Uint8Array           → []byte
//   GoObject subclass    → any other Go value (time.Time, *semver.Version, ...): it names its type
//                          and formats itself, and may expose fields/methods to `.Name` chains.

import { GoFuncError } from './errors.ts';

export { GoFuncError };

/** Go integer kinds we model. `int` is 64-bit, as on every platform Landscaper runs on. */
export type GoIntKind =
  | 'int' | 'int8' | 'int16' | 'int32' | 'int64'
  | 'uint' | 'uint8' | 'uint16' | 'uint32' | 'uint64' | 'uintptr';

const INT_BITS: Record<GoIntKind, number> = {
  int: 64, int8: 8, int16: 16, int32: 32, int64: 64,
  uint: 64, uint8: 8, uint16: 16, uint32: 32, uint64: 64, uintptr: 64,
};

/** A Go integer of a given kind. Immutable; construct with goInt(kind, v) so the value wraps like Go's. */
export class GoInt {
  readonly kind: GoIntKind;
  readonly value: bigint;
  constructor(kind: GoIntKind, value: bigint) {
    this.kind = kind;
    this.value = value;
  }
  get unsigned(): boolean {
    return this.kind.charCodeAt(0) === 117; // 'u'
  }
  toString(): string {
    return this.value.toString();
  }
}

/** Wraps v to the range of `kind` (Go's two's-complement overflow) and boxes it. */
export function goInt(kind: GoIntKind, v: bigint | number): GoInt {
  let b = typeof v === 'bigint' ? v : BigInt(Math.trunc(v));
  const bits = INT_BITS[kind];
  b = kind.charCodeAt(0) === 117 ? BigInt.asUintN(bits, b) : BigInt.asIntN(bits, b);
  return new GoInt(kind, b);
}

const SMALL_INTS: GoInt[] = [];
for (let i = -16; i <= 256; i++) SMALL_INTS.push(new GoInt('int', BigInt(i)));

/** A Go `int` (the type of template integer literals and of len). Small values are shared. */
export function int(v: bigint | number): GoInt {
  if (typeof v === 'number' && Number.isInteger(v) && v >= -16 && v <= 256) return SMALL_INTS[v + 16]!;
  return goInt('int', v);
}

/** A Go `int64` (what sprig's math functions return). */
export function int64(v: bigint | number): GoInt {
  return goInt('int64', v);
}

/**
 * Any Go value that is not JSON-shaped (time.Time, *semver.Version, ...). Subclasses implement
 * goType (for %T and errors) and format (what fmt prints for %v/%s: treated as a Stringer).
 * `.Name` in a template calls field(name, args): a method when hasMethod(name) (args are the
 * evaluated call arguments, any number, passed as interface{}), otherwise a struct field
 * (args must be empty); NO_FIELD when there is no such field or method.
 */
export abstract class GoObject {
  abstract goType(): string;
  /** How fmt's %v/%s print it (the String() method). */
  abstract format(): string;
  /** reflect Kind of the value: structs (time.Time) or pointers to structs (*semver.Version). */
  kind(): 'struct' | 'pointer' {
    return 'struct';
  }
  field(_name: string, _args: GoValue[]): GoValue | typeof NO_FIELD {
    return NO_FIELD;
  }
  /** Whether field(name) names a method (which may take arguments). */
  hasMethod(_name: string): boolean {
    return false;
  }
}

export const NO_FIELD: unique symbol = Symbol('NO_FIELD');

export type GoMap = { [key: string]: GoValue };

export type GoValue =
  | undefined
  | null
  | boolean
  | string
  | number
  | GoInt
  | GoValue[]
  | GoMap
  | Uint8Array
  | GoObject
  | TemplateFunction;

/** Tag carried by typed slices/maps ([]string, map[string]string): the element type's Go name. */
const ELEM_TYPE: unique symbol = Symbol('goElemType');

type Tagged = { [ELEM_TYPE]?: string };

/** Marks arr as a Go slice of elemType (e.g. "string" for []string) and returns it. */
export function goSlice<T extends GoValue[]>(elemType: string, arr: T): T {
  if (elemType !== 'interface {}') Object.defineProperty(arr, ELEM_TYPE, { value: elemType, enumerable: false });
  return arr;
}

/** Marks obj as map[string]elemType (e.g. "string") and returns it. */
export function goMap<T extends GoMap>(elemType: string, obj: T): T {
  if (elemType !== 'interface {}') Object.defineProperty(obj, ELEM_TYPE, { value: elemType, enumerable: false });
  return obj;
}

/** Element type of a slice or map value ("interface {}" for untagged JSON-shaped values). */
export function elemType(v: GoValue[] | GoMap): string {
  return (v as Tagged)[ELEM_TYPE] ?? 'interface {}';
}

/** A fresh map[string]interface{}; null prototype so no key collides with Object.prototype. */
export function newMap(): GoMap {
  return Object.create(null) as GoMap;
}

export function isMap(v: GoValue): v is GoMap {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === null || proto === Object.prototype;
}

/** Map lookup that only sees own keys (undefined when absent, like an invalid MapIndex result). */
export function mapGet(m: GoMap, key: string): GoValue {
  return Object.prototype.hasOwnProperty.call(m, key) ? m[key] : undefined;
}

export function mapHas(m: GoMap, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(m, key);
}

/** Map store that treats "__proto__" as a plain key even on Object.prototype-backed objects. */
export function mapSet(m: GoMap, key: string, v: GoValue): void {
  if (key === '__proto__') Object.defineProperty(m, key, { value: v, writable: true, enumerable: true, configurable: true });
  else m[key] = v;
}

/** Keys in Go's order (sorted by byte value; JS string comparison matches for BMP-only keys). */
export function sortedKeys(m: GoMap): string[] {
  const keys = Object.keys(m);
  return keys.length < 2 ? keys : keys.sort(compareGoStrings);
}

/** Go compares strings bytewise (UTF-8); UTF-16 code-unit order differs only for astral vs U+E000..U+FFFF. */
export function compareGoStrings(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) {
      // Surrogates (0xD800-0xDFFF) encode code points above 0xFFFF, which sort after 0xE000-0xFFFF in UTF-8.
      const xs = x >= 0xd800 && x <= 0xdfff;
      const ys = y >= 0xd800 && y <= 0xdfff;
      if (xs !== ys && (x >= 0xe000 || y >= 0xe000)) return xs ? 1 : -1;
      return x - y;
    }
  }
  return a.length - b.length;
}

export function isNil(v: GoValue): v is null | undefined {
  return v === null || v === undefined;
}

/** The Go type of a bool, string, float64 or integer value, which is also its reflect.Kind; undefined for others. */
export function basicTypeName(v: GoValue): string | undefined {
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number') return 'float64';
  if (v instanceof GoInt) return v.kind;
  return undefined;
}

/** Go's %T name of a value (also used in error messages). */
export function goTypeName(v: GoValue): string {
  const basic = basicTypeName(v);
  if (basic !== undefined) return basic;
  if (v === null || v === undefined) return '<nil>';
  if (typeof v === 'function') return v.goSignature ? signatureTypeName(v.goSignature) : 'func(...interface {}) interface {}';
  if (Array.isArray(v)) return '[]' + elemType(v);
  if (v instanceof Uint8Array) return '[]uint8';
  if (v instanceof GoObject) return v.goType();
  // Scalars and integers were named by basicTypeName: what is left is a map.
  return 'map[string]' + elemType(v as GoMap);
}

function signatureTypeName(sig: GoSignature): string {
  const params = sig.params.slice();
  if (sig.variadic !== undefined) params.push('...' + sig.variadic);
  const res = sig.results ?? ['interface {}'];
  const results = res.length === 1 ? ' ' + res[0]! : res.length === 0 ? '' : ' (' + res.join(', ') + ')';
  return 'func(' + params.join(', ') + ')' + results;
}

/** Go's text/template `truth`: false for the zero value of the type, nil and "no value". */
export function truth(v: GoValue): boolean {
  switch (typeof v) {
    case 'undefined':
      return false;
    case 'boolean':
      return v;
    case 'string':
      return v.length > 0;
    case 'number':
      return v !== 0; // NaN is true, as in Go
    case 'function':
      return true;
    default:
      break;
  }
  if (v === null) return false;
  if (v instanceof GoInt) return v.value !== 0n;
  if (Array.isArray(v)) return v.length > 0;
  if (v instanceof Uint8Array) return v.length > 0;
  if (v instanceof GoObject) return true;
  for (const k in v) if (mapHas(v, k)) return true;
  return false;
}

/** Go's %v rendering (fmt.Sprint of the value). Top-level "no value" is the template's business. */
export function toGoString(v: GoValue): string {
  switch (typeof v) {
    case 'undefined':
      return '<nil>';
    case 'boolean':
      return v ? 'true' : 'false';
    case 'string':
      return v;
    case 'number':
      return formatFloatShortest(v);
    case 'function':
      return '0x1'; // Go prints a func's address; nothing stable to reproduce
    default:
      break;
  }
  if (v === null) return '<nil>';
  if (v instanceof GoInt) return v.value.toString();
  if (Array.isArray(v)) {
    let s = '[';
    for (let i = 0; i < v.length; i++) {
      if (i > 0) s += ' ';
      s += toGoString(v[i]);
    }
    return s + ']';
  }
  if (v instanceof Uint8Array) return '[' + Array.from(v).join(' ') + ']';
  if (v instanceof GoObject) return v.format();
  const keys = sortedKeys(v);
  let s = 'map[';
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    if (i > 0) s += ' ';
    s += k + ':' + toGoString(v[k]);
  }
  return s + ']';
}

/**
 * strconv.FormatFloat(f, 'g', -1, 64), which is what %v prints for a float64:
 * shortest round-tripping digits, exponent form when exp < -4 || exp >= 6 (strconv's ftoa uses
 * eprec 6 in shortest mode: 1234567 → "1.234567e+06", 100000 → "100000"; the 21 threshold is
 * encoding/json's, not fmt's), two-digit minimum exponent ("1e+06", "1e-05").
 */
export function formatFloatShortest(f: number): string {
  if (Number.isNaN(f)) return 'NaN';
  if (f === Infinity) return '+Inf';
  if (f === -Infinity) return '-Inf';
  if (f === 0) return Object.is(f, -0) ? '-0' : '0';
  // JS toExponential() without argument yields the shortest round-trip digits, as Go's shortest mode does.
  const e = f.toExponential();
  const ePos = e.indexOf('e');
  const exp = Number(e.slice(ePos + 1));
  if (exp < -4 || exp >= 6) {
    const mant = e.slice(0, ePos);
    const absExp = Math.abs(exp);
    return mant + (exp < 0 ? 'e-' : 'e+') + (absExp < 10 ? '0' : '') + String(absExp);
  }
  // In this range JS's Number#toString gives plain decimal notation with the same digits.
  return String(f);
}

/** Go signature of a template function, so the executor can check arity and types as reflect does. */
export interface GoSignature {
  /** Fixed parameter types by Go name: 'interface {}', 'string', 'int', 'int64', 'float64', 'bool', ... */
  params: string[];
  /** Element type of a trailing variadic parameter, if any. */
  variadic?: string;
  /** Result types (1, or 2 with a trailing 'error'); default ['interface {}']. */
  results?: string[];
}

/**
 * A template function. Go errors (the second `error` result, or a panic) are signalled by throwing
 * GoFuncError(message): the executor reports `error calling NAME: message`. Return undefined for
 * an invalid reflect.Value and null for a nil interface. Functions without goSignature accept any
 * number of arguments of any type (like func(...interface{}) interface{}).
 */
export interface TemplateFunction {
  (...args: GoValue[]): GoValue;
  goSignature?: GoSignature;
}

export type FuncMap = Record<string, TemplateFunction>;

/** Attaches a Go signature to fn and returns it. */
export function goFunc(sig: GoSignature, fn: (...args: any[]) => GoValue): TemplateFunction {
  const f = fn as TemplateFunction;
  f.goSignature = sig;
  return f;
}

/**
 * Converts a decoded JSON/YAML document (plain JS) to the value model as Landscaper would see it:
 * numbers → float64, objects → map[string]interface{}, arrays → []interface{}, null → nil.
 */
export function fromJSONValue(v: unknown): GoValue {
  if (v === null || v === undefined) return null;
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return v;
    case 'number':
      return v;
    case 'bigint':
      // Only typed integers arrive as bigints (Helm's --set values are int64).
      return int64(v);
    case 'object':
      break;
    default:
      return null;
  }
  if (Array.isArray(v)) return v.map(fromJSONValue);
  if (v instanceof Date) return v.toISOString();
  const m = newMap();
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) m[k] = fromJSONValue(x);
  return m;
}
