// Helm's toToml: BurntSushi/toml v1.5.0's Encoder over template values, written the way its encode.go writes
// them: keys sorted, plain values before tables, `[a.b]` headers indented two spaces a level, floats always
// with a decimal point, arrays of maps as `[[key]]`, maps inside arrays inline.
import { formatFloat } from '../strconv.ts';
import { GoInt, isMap, isNil, sortedKeys, type GoMap, type GoValue } from '../value.ts';

class TomlEncodeError extends Error {}

const BARE_KEY = /^[A-Za-z0-9_-]+$/;

/** dblQuotedReplacer: `"` and `\`, the C0 controls and DEL escaped. */
function quoted(s: string): string {
  const named: Record<string, string> = { '\b': '\\b', '\t': '\\t', '\n': '\\n', '\f': '\\f', '\r': '\\r', '"': '\\"', '\\': '\\\\' };
  // eslint-disable-next-line no-control-regex
  return `"${s.replace(/["\\\u0000-\u001f\u007f]/g, (c) => named[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}"`;
}

function keyPart(k: string): string {
  return k === '' ? '""' : BARE_KEY.test(k) ? k : quoted(k);
}

function isTable(v: GoValue): boolean {
  return isMap(v) || isTableArray(v);
}

/** isTableArray: a non-empty slice of maps only; a nil element is an error wherever it is. */
function isTableArray(v: GoValue): boolean {
  if (!Array.isArray(v) || v.length === 0) return false;
  let tables = true;
  for (const e of v) {
    if (isNil(e)) throw new TomlEncodeError('toml: cannot encode array with nil element');
    if (!isMap(e)) tables = false;
  }
  return tables;
}

function element(v: GoValue): string {
  if (typeof v === 'string') return quoted(v);
  if (typeof v === 'boolean') return String(v);
  if (v instanceof GoInt) return v.value.toString();
  if (typeof v === 'number') {
    if (Number.isNaN(v)) return 'nan';
    if (!Number.isFinite(v)) return v < 0 ? '-inf' : 'inf';
    const s = formatFloat(v, 'f', -1);
    return s.includes('.') ? s : s + '.0';
  }
  if (Array.isArray(v)) return `[${v.map(element).join(', ')}]`;
  if (isMap(v)) return inlineMap(v);
  throw new TomlEncodeError(`toml: unexpected type: ${typeof v}`);
}

function inlineMap(m: GoMap): string {
  const keys = sortedKeys(m).filter((k) => !isNil(m[k]));
  const direct = keys.filter((k) => !isTable(m[k]!));
  const sub = keys.filter((k) => isTable(m[k]!));
  return `{${[...direct, ...sub].map((k) => `${keyPart(k)} = ${element(m[k]!)}`).join(', ')}}`;
}

class Encoder {
  out = '';

  private newline(): void {
    if (this.out !== '') this.out += '\n';
  }

  private indent(key: string[]): string {
    return '  '.repeat(Math.max(0, key.length - 1));
  }

  encode(key: string[], v: GoValue): void {
    if (isNil(v)) return;
    if (isMap(v)) return this.table(key, v);
    if (isTableArray(v)) {
      if (key.length === 0) throw new TomlEncodeError('toml: top-level values must be Go maps or structs');
      for (const t of v as GoMap[]) {
        this.newline();
        this.out += `${this.indent(key)}[[${key.map(keyPart).join('.')}]]`;
        this.newline();
        this.map(key, t);
      }
      return;
    }
    if (key.length === 0) {
      this.out += element(v);
      return;
    }
    this.out += `${this.indent(key)}${keyPart(key[key.length - 1]!)} = ${element(v)}`;
    this.newline();
  }

  private table(key: string[], m: GoMap): void {
    if (key.length === 1) this.newline();
    if (key.length > 0) {
      this.out += `${this.indent(key)}[${key.map(keyPart).join('.')}]`;
      this.newline();
    }
    this.map(key, m);
  }

  private map(key: string[], m: GoMap): void {
    const keys = sortedKeys(m);
    const direct = keys.filter((k) => !isTable(m[k]!));
    const sub = keys.filter((k) => isTable(m[k]!));
    for (const k of [...direct, ...sub]) this.encode([...key, k], m[k]!);
  }
}

/** toToml: the TOML text, or the encoder's error text as the result (Helm does not fail the render). */
export function toToml(v: GoValue): string {
  const enc = new Encoder();
  try {
    enc.encode([], v);
  } catch (e) {
    if (e instanceof TomlEncodeError) return e.message;
    throw e;
  }
  return enc.out;
}
