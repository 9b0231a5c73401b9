// Go's encoding/json output for JSON-shaped values, byte for byte: hashes of DataObjects
// (SHA-1 of json.MarshalIndent(data, "", "  ")) must match what upstream computed.
import type { AnyJSON } from './api/shared.ts';

const ESCAPES: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** A Go JSON string: HTML-safe (<, >, & escaped) and U+2028/U+2029 escaped, as json.Marshal does. */
export function goJSONString(s: string): string {
  let out = '"';
  for (const ch of s) {
    const esc = ESCAPES[ch];
    if (esc !== undefined) {
      out += esc;
      continue;
    }
    const c = ch.codePointAt(0)!;
    if (c < 0x20 || ch === '<' || ch === '>' || ch === '&' || c === 0x2028 || c === 0x2029) {
      out += '\\u' + c.toString(16).padStart(4, '0');
    } else {
      out += ch;
    }
  }
  return out + '"';
}

/** Go's float64 encoding ('f' between 1e-6 and 1e21, else 'e' with a one-digit-trimmed exponent). */
export function goJSONNumber(n: number): string {
  if (!Number.isFinite(n)) throw new RangeError(`json: unsupported value: ${n}`);
  if (Object.is(n, -0)) return '-0';
  // JS's shortest round-trip formatting agrees with Go's for these ranges, including "1e-7" and "1e+21".
  return String(n);
}

function encode(v: AnyJSON | undefined, indent: string, prefix: string): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'number') return goJSONNumber(v);
  if (typeof v === 'string') return goJSONString(v);
  const inner = prefix + indent;
  const nl = indent === '' ? '' : '\n';
  const sep = indent === '' ? ':' : ': ';
  if (Array.isArray(v)) {
    if (v.length === 0) return '[]';
    return '[' + nl + v.map((x) => inner + encode(x, indent, inner)).join(',' + nl) + nl + prefix + ']';
  }
  const keys = Object.keys(v).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  if (keys.length === 0) return '{}';
  return '{' + nl + keys.map((k) => inner + goJSONString(k) + sep + encode(v[k], indent, inner)).join(',' + nl) + nl + prefix + '}';
}

/** json.Marshal. */
export function goJSONMarshal(v: AnyJSON): string {
  return encode(v, '', '');
}

/** json.MarshalIndent(v, "", indent). */
export function goJSONMarshalIndent(v: AnyJSON, indent = '  '): string {
  return encode(v, indent, '');
}
