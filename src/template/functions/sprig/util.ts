// Conversions sprig builds on: its strval, spf13/cast's ToInt64/ToFloat64, reflect kinds and deep equality.
import {
  GoFuncError, GoInt, GoObject, basicTypeName, elemType, formatFloatShortest, int64, isMap, mapHas, newMap, toGoString, truth,
  type GoMap, type GoValue,
} from '../../value.ts';

export const NIL_DEREF = 'runtime error: invalid memory address or nil pointer dereference';

/** sprig's strval: strings and []byte as text, everything else as fmt's %v. */
export function strval(v: GoValue): string {
  if (typeof v === 'string') return v;
  if (v instanceof Uint8Array) return Buffer.from(v).toString('utf8');
  return toGoString(v);
}

/** Go's reflect.Kind name of a value ("invalid" for nil). */
export function kindOf(v: GoValue): string {
  const basic = basicTypeName(v);
  if (basic !== undefined) return basic;
  if (v === null || v === undefined) return 'invalid';
  if (typeof v === 'function') return 'func';
  if (Array.isArray(v) || v instanceof Uint8Array) return 'slice';
  if (v instanceof GoObject) return v.kind() === 'pointer' ? 'ptr' : 'struct';
  return 'map';
}

/** reflect.TypeOf(list).Kind() as sprig's list functions use it: panics (nil dereference) on nil. */
export function listKind(v: GoValue): string {
  if (v === null || v === undefined) throw new GoFuncError(NIL_DEREF);
  return kindOf(v);
}

/** Elements of a slice value as []interface{} (a []byte yields uint8 integers). */
export function listItems(v: GoValue): GoValue[] {
  if (Array.isArray(v)) return v;
  if (v instanceof Uint8Array) return Array.from(v, (b) => new GoInt('uint8', BigInt(b)));
  return [];
}

export function isList(v: GoValue): v is GoValue[] | Uint8Array {
  return Array.isArray(v) || v instanceof Uint8Array;
}

/** sprig's empty: the zero value of its type, nil, or an empty string/slice/map. */
export function empty(v: GoValue): boolean {
  return !truth(v);
}

/** Go's strconv.ParseInt(s, 0, 64): base prefixes, underscores only with a prefix; undefined on error. */
export function parseGoInt(s: string): bigint | undefined {
  const m = /^([+-]?)(0[xX][0-9a-fA-F_]+|0[bB][01_]+|0[oO][0-7_]+|0[0-7_]*|[1-9][0-9]*)$/.exec(s);
  if (m === null) return undefined;
  let body = m[2]!;
  const hasPrefix = /^0[xXbBoO]/.test(body) || (body.length > 1 && body[0] === '0');
  if (body.includes('_')) {
    if (!hasPrefix || /__|_$/.test(body) || /^0[xXbBoO]?_?$/.test(body)) return undefined;
    body = body.replace(/_/g, '');
  }
  let n: bigint;
  if (/^0[xX]/.test(body)) n = BigInt('0x' + body.slice(2));
  else if (/^0[bB]/.test(body)) n = BigInt('0b' + body.slice(2));
  else if (/^0[oO]/.test(body)) n = BigInt('0o' + body.slice(2));
  else if (body.length > 1 && body[0] === '0') n = BigInt('0o' + body.slice(1));
  else n = BigInt(body);
  if (m[1] === '-') n = -n;
  if (n > 9223372036854775807n || n < -9223372036854775808n) return undefined;
  return n;
}

/** cast's trimZeroDecimal: "12.00" → "12", anything else unchanged. */
function trimZeroDecimal(s: string): string {
  let foundZero = false;
  for (let i = s.length; i > 0; i--) {
    const c = s[i - 1];
    if (c === '.') {
      if (foundZero) return s.slice(0, i - 1);
    } else if (c === '0') foundZero = true;
    else return s;
  }
  return s;
}

/** Go's float64 → int64 conversion for values in range (truncation); out of range is undefined in Go. */
export function floatToInt64(f: number): bigint {
  if (Number.isNaN(f)) return -9223372036854775808n;
  if (f >= 2 ** 63) return -9223372036854775808n; // amd64 yields the "integer indefinite" value
  if (f <= -(2 ** 63)) return -9223372036854775808n;
  return BigInt(Math.trunc(f));
}

/** cast.ToInt64: numbers truncate, strings parse with base prefixes, bools are 0/1, anything else 0. */
export function castInt64(v: GoValue): bigint {
  if (typeof v === 'number') return floatToInt64(v);
  if (v instanceof GoInt) return BigInt.asIntN(64, v.value);
  if (typeof v === 'string') return parseGoInt(trimZeroDecimal(v)) ?? 0n;
  if (typeof v === 'boolean') return v ? 1n : 0n;
  return 0n;
}

/** Go's strconv.ParseFloat(s, 64) syntax; undefined on error (out-of-range is an error too). */
export function parseGoFloat(s: string): number | undefined {
  const t = s.replace(/_/g, '');
  if (/^[+-]?(inf|infinity)$/i.test(t)) return t.startsWith('-') ? -Infinity : Infinity;
  if (/^nan$/i.test(t)) return NaN;
  if (/^[+-]?0[xX]/.test(s)) {
    const m = /^([+-]?)0[xX]([0-9a-fA-F]*)(?:\.([0-9a-fA-F]*))?[pP]([+-]?\d+)$/.exec(t);
    if (m === null) return undefined;
    const mant = parseInt((m[2] ?? '') + (m[3] ?? ''), 16) / Math.pow(16, (m[3] ?? '').length);
    const r = mant * Math.pow(2, Number(m[4]));
    return m[1] === '-' ? -r : r;
  }
  if (s.includes('_') && !/^[+-]?\d+(_\d+)*(\.\d+(_\d+)*)?([eE][+-]?\d+)?$/.test(s)) return undefined;
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(t)) return undefined;
  const f = Number(t);
  if (!Number.isFinite(f)) return undefined;
  return f;
}

/** cast.ToFloat64. */
export function castFloat64(v: GoValue): number {
  if (typeof v === 'number') return v;
  if (v instanceof GoInt) return Number(v.value);
  if (typeof v === 'string') return parseGoFloat(v) ?? 0;
  if (typeof v === 'boolean') return v ? 1 : 0;
  return 0;
}

export function i64(v: GoValue): GoInt {
  return int64(castInt64(v));
}

/** A GoInt argument as a JS number (sprig's int parameters). */
export function num(v: GoValue): number {
  if (v instanceof GoInt) return Number(v.value);
  if (typeof v === 'number') return v;
  return 0;
}

/** reflect.DeepEqual over the value model. */
export function deepEqual(a: GoValue, b: GoValue): boolean {
  if (a === b) return true;
  if (a === null || a === undefined || b === null || b === undefined) return (a ?? null) === (b ?? null);
  if (a instanceof GoInt || b instanceof GoInt) {
    return a instanceof GoInt && b instanceof GoInt && a.kind === b.kind && a.value === b.value;
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || elemType(a) !== elemType(b) || a.length !== b.length) return false;
    return a.every((x, i) => deepEqual(x, b[i]));
  }
  if (a instanceof Uint8Array || b instanceof Uint8Array) {
    return a instanceof Uint8Array && b instanceof Uint8Array && Buffer.from(a).equals(Buffer.from(b));
  }
  if (isMap(a) && isMap(b)) {
    if (elemType(a) !== elemType(b)) return false;
    const ka = Object.keys(a);
    if (ka.length !== Object.keys(b).length) return false;
    return ka.every((k) => mapHas(b, k) && deepEqual(a[k], b[k]));
  }
  if (a instanceof GoObject && b instanceof GoObject) return a.goType() === b.goType() && a.format() === b.format();
  return false;
}

/** A shallow copy of a map as map[string]interface{}. */
export function copyMap(m: GoMap): GoMap {
  const out = newMap();
  for (const k of Object.keys(m)) out[k] = m[k];
  return out;
}

export { formatFloatShortest };
