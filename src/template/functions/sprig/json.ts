// encoding/json as sprig's toJson/fromJson use it: Go's number formatting, HTML escaping, sorted keys.
import { GoFuncError, GoInt, GoObject, isMap, newMap, sortedKeys, type GoValue } from '../../value.ts';

/**
 * encoding/json's float64 format: 'f' in [1e-6, 1e21), else 'e' with the exponent's leading zero dropped
 * ("1e-7", "1e+21"), which is exactly what JS's shortest exponential form writes.
 */
export function jsonFloat(f: number): string {
  if (!Number.isFinite(f)) throw new GoFuncError(`json: unsupported value: ${Number.isNaN(f) ? 'NaN' : f > 0 ? '+Inf' : '-Inf'}`);
  const abs = Math.abs(f);
  if (abs !== 0 && (abs < 1e-6 || abs >= 1e21)) return f.toExponential();
  if (Object.is(f, -0)) return '-0';
  return String(f);
}

export function jsonString(s: string, escapeHTML: boolean): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const ch = s[i]!;
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (c < 0x20) {
      if (ch === '\n') out += '\\n';
      else if (ch === '\r') out += '\\r';
      else if (ch === '\t') out += '\\t';
      else out += '\\u00' + c.toString(16).padStart(2, '0');
    } else if (escapeHTML && (ch === '<' || ch === '>' || ch === '&')) out += '\\u00' + c.toString(16);
    else if (c === 0x2028 || c === 0x2029) out += '\\u' + c.toString(16);
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      out += ch + s[i + 1]!;
      i++;
    } else if (c >= 0xd800 && c <= 0xdfff) out += '\ufffd';
    else out += ch;
  }
  return out + '"';
}

/** Objects that marshal themselves (time.Time, *semver.Version) implement toJSONValue. */
export interface JsonMarshaler {
  toJSONValue(): GoValue;
}

function isMarshaler(v: unknown): v is JsonMarshaler {
  return typeof (v as Partial<JsonMarshaler>).toJSONValue === 'function';
}

/** json.Marshal / MarshalIndent(v, "", indent). */
export function marshalJSON(v: GoValue, opts: { escapeHTML: boolean; indent?: string }): string {
  const nl = opts.indent !== undefined;
  const enc = (x: GoValue, depth: number): string => {
    if (x === null || x === undefined) return 'null';
    switch (typeof x) {
      case 'boolean':
        return x ? 'true' : 'false';
      case 'string':
        return jsonString(x, opts.escapeHTML);
      case 'number':
        return jsonFloat(x);
      case 'function':
        throw new GoFuncError('json: unsupported type: ' + 'func(...interface {}) interface {}');
      default:
        break;
    }
    if (x instanceof GoInt) return x.value.toString();
    if (x instanceof Uint8Array) return '"' + Buffer.from(x).toString('base64') + '"';
    const pad = nl ? '\n' + opts.indent!.repeat(depth + 1) : '';
    const end = nl ? '\n' + opts.indent!.repeat(depth) : '';
    if (Array.isArray(x)) {
      if (x.length === 0) return '[]';
      return '[' + x.map((e) => pad + enc(e, depth + 1)).join(',') + end + ']';
    }
    if (x instanceof GoObject) {
      if (isMarshaler(x)) return enc(x.toJSONValue(), depth);
      return '{}';
    }
    if (isMap(x)) {
      const keys = sortedKeys(x);
      if (keys.length === 0) return '{}';
      const sep = nl ? ': ' : ':';
      return '{' + keys.map((k) => pad + jsonString(k, opts.escapeHTML) + sep + enc(x[k], depth + 1)).join(',') + end + '}';
    }
    return 'null';
  };
  return enc(v, 0);
}

/** json.Unmarshal into interface{}: float64 numbers, map[string]interface{}, []interface{}. */
export function unmarshalJSON(s: string): GoValue {
  let parsed: unknown;
  try {
    parsed = JSON.parse(s);
  } catch (e) {
    throw new GoFuncError(goJsonSyntaxError(s, e));
  }
  // Numbers beyond float64 range are an UnmarshalTypeError in Go.
  const conv = (x: unknown): GoValue => {
    if (x === null) return null;
    if (typeof x === 'number') {
      if (!Number.isFinite(x)) throw new GoFuncError('json: cannot unmarshal number into Go value of type float64');
      return x;
    }
    if (typeof x === 'string' || typeof x === 'boolean') return x;
    if (Array.isArray(x)) return x.map(conv);
    const m = newMap();
    for (const [k, v] of Object.entries(x as Record<string, unknown>)) m[k] = conv(v);
    return m;
  };
  return conv(parsed);
}

function goJsonSyntaxError(s: string, e: unknown): string {
  if (s.trim() === '') return 'unexpected end of JSON input';
  return e instanceof Error ? e.message : String(e);
}
