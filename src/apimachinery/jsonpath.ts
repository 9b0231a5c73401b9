// The subset of client-go's JSONPath that printer columns, `kubectl wait --for=jsonpath` and `-o jsonpath` use.
// Missing keys yield no result (AllowMissingKeys(true)), as the CRD table convertor configures it.

export class JsonPathError extends Error {
  override readonly name = 'JsonPathError' as const;
}

type Literal = string | number | boolean | null;

type Operand = { kind: 'path'; path: Segment[] } | { kind: 'literal'; value: Literal };

type Segment =
  | { kind: 'field'; name: string }
  | { kind: 'wildcard' }
  | { kind: 'recursive'; name: string | undefined }
  | { kind: 'slice'; start: number | undefined; end: number | undefined; step: number | undefined; single: boolean }
  | { kind: 'union'; keys: (string | number)[] }
  | { kind: 'filter'; left: Operand; op: FilterOp | undefined; right: Operand | undefined };

type FilterOp = '==' | '!=' | '<' | '>' | '<=' | '>=';

type Block = { kind: 'text'; text: string } | { kind: 'path'; path: Segment[] };

export interface JsonPath {
  readonly source: string;
  readonly blocks: readonly Block[];
}

/** Parses a template such as `{.status.phase}` or `name: {.metadata.name}`. */
export function parseJsonPath(template: string): JsonPath {
  const blocks: Block[] = [];
  let i = 0;
  let text = '';
  while (i < template.length) {
    const ch = template[i];
    if (ch === '{') {
      if (text) blocks.push({ kind: 'text', text });
      text = '';
      const close = findClose(template, i);
      const inner = template.slice(i + 1, close).trim();
      blocks.push(parseAction(inner));
      i = close + 1;
    } else {
      text += ch;
      i++;
    }
  }
  if (text) blocks.push({ kind: 'text', text });
  return { source: template, blocks };
}

function findClose(s: string, open: number): number {
  let quote: string | undefined;
  for (let i = open + 1; i < s.length; i++) {
    const c = s[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '}') return i;
  }
  throw new JsonPathError(`unclosed action`);
}

function parseAction(inner: string): Block {
  // `{"text"}` prints a literal; `{range}`/`{end}` are not used by printer columns.
  if (inner.startsWith('"') || inner.startsWith("'")) return { kind: 'text', text: unquote(inner) };
  if (inner === 'range' || inner.startsWith('range ') || inner === 'end') throw new JsonPathError(`unsupported action ${inner}`);
  return { kind: 'path', path: new PathParser(inner).parsePath(false) };
}

function unquote(s: string): string {
  const q = s[0];
  if (s.length < 2 || s[s.length - 1] !== q) throw new JsonPathError(`unterminated string ${s}`);
  let out = '';
  for (let i = 1; i < s.length - 1; i++) {
    const c = s[i];
    if (c === '\\' && i + 1 < s.length - 1) {
      const n = s[++i];
      out += n === 'n' ? '\n' : n === 't' ? '\t' : n === 'r' ? '\r' : (n ?? '');
    } else out += c;
  }
  return out;
}

const FIELD_TERMINATORS = new Set(['.', '[', ' ', '\t', ')', '=', '!', '<', '>', ',']);

class PathParser {
  private pos = 0;
  private readonly s: string;
  constructor(s: string) {
    this.s = s;
  }

  parsePath(inFilter: boolean): Segment[] {
    const segs: Segment[] = [];
    const s = this.s;
    if (s[this.pos] === '$' || s[this.pos] === '@') this.pos++;
    while (this.pos < s.length) {
      const c = s[this.pos];
      if (inFilter && (c === ' ' || c === ')' || c === '=' || c === '!' || c === '<' || c === '>')) break;
      if (c === '.') {
        if (s[this.pos + 1] === '.') {
          this.pos += 2;
          const name = this.readField();
          segs.push({ kind: 'recursive', name: name === '*' || name === '' ? undefined : name });
          continue;
        }
        this.pos++;
        if (this.pos >= s.length) break; // a lone "." is the whole object
        if (s[this.pos] === '[') continue;
        const name = this.readField();
        if (name === '*') segs.push({ kind: 'wildcard' });
        else if (name) segs.push({ kind: 'field', name });
        else throw new JsonPathError(`invalid field at position ${this.pos}`);
      } else if (c === '[') {
        segs.push(this.readBracket());
      } else if (!inFilter && segs.length === 0 && /[A-Za-z_]/.test(c ?? '')) {
        // kubectl accepts `metadata.name` without the leading dot
        segs.push({ kind: 'field', name: this.readField() });
      } else {
        throw new JsonPathError(`unrecognized character in action: ${JSON.stringify(c)}`);
      }
    }
    return segs;
  }

  private readField(): string {
    let out = '';
    const s = this.s;
    while (this.pos < s.length) {
      const c = s[this.pos];
      if (c === '\\' && this.pos + 1 < s.length) {
        out += s[this.pos + 1];
        this.pos += 2;
        continue;
      }
      if (c === undefined || FIELD_TERMINATORS.has(c)) break;
      out += c;
      this.pos++;
    }
    return out;
  }

  private readBracket(): Segment {
    const s = this.s;
    const start = this.pos + 1;
    let depth = 0;
    let quote: string | undefined;
    let end = -1;
    for (let i = this.pos; i < s.length; i++) {
      const c = s[i];
      if (quote) {
        if (c === '\\') i++;
        else if (c === quote) quote = undefined;
        continue;
      }
      if (c === '"' || c === "'") quote = c;
      else if (c === '[') depth++;
      else if (c === ']' && --depth === 0) {
        end = i;
        break;
      }
    }
    if (end < 0) throw new JsonPathError('unterminated array');
    const body = s.slice(start, end).trim();
    this.pos = end + 1;
    if (body === '*') return { kind: 'wildcard' };
    if (body.startsWith('?')) return parseFilter(body.slice(1).trim());
    if (body.includes(',')) {
      return { kind: 'union', keys: splitTopLevel(body).map((p) => (isQuoted(p) ? unquote(p) : parseIntStrict(p))) };
    }
    if (isQuoted(body)) return { kind: 'field', name: unquote(body) };
    if (body.includes(':')) {
      const parts = body.split(':').map((p) => p.trim());
      if (parts.length > 3) throw new JsonPathError(`invalid array index ${body}`);
      const num = (p: string | undefined): number | undefined => (p === undefined || p === '' ? undefined : parseIntStrict(p));
      return { kind: 'slice', start: num(parts[0]), end: num(parts[1]), step: num(parts[2]), single: false };
    }
    return { kind: 'slice', start: parseIntStrict(body), end: undefined, step: undefined, single: true };
  }
}

function isQuoted(s: string): boolean {
  return s.length >= 2 && (s[0] === "'" || s[0] === '"') && s[s.length - 1] === s[0];
}

function parseIntStrict(s: string): number {
  const t = s.trim();
  if (!/^-?\d+$/.test(t)) throw new JsonPathError(`invalid array index ${s}`);
  return Number(t);
}

function splitTopLevel(s: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quote: string | undefined;
  for (const c of s) {
    if (quote) {
      if (c === quote) quote = undefined;
      cur += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      cur += c;
    } else if (c === ',') {
      out.push(cur.trim());
      cur = '';
    } else cur += c;
  }
  out.push(cur.trim());
  return out;
}

function parseFilter(body: string): Segment {
  if (!body.startsWith('(') || !body.endsWith(')')) throw new JsonPathError(`invalid filter ${body}`);
  const expr = body.slice(1, -1).trim();
  const m = /^(.*?)\s*(==|!=|<=|>=|<|>)\s*(.*)$/.exec(splitOutsideQuotes(expr));
  if (!m) return { kind: 'filter', left: parseOperand(expr), op: undefined, right: undefined };
  const opIndex = (m[1] ?? '').length;
  const op = m[2] as FilterOp;
  const leftSrc = expr.slice(0, opIndex).trim();
  const rightSrc = expr.slice(expr.indexOf(op, opIndex) + op.length).trim();
  return { kind: 'filter', left: parseOperand(leftSrc), op, right: parseOperand(rightSrc) };
}

// Masks quoted text so the operator regex only sees operators outside string literals.
function splitOutsideQuotes(s: string): string {
  let out = '';
  let quote: string | undefined;
  for (const c of s) {
    if (quote) {
      out += c === quote ? c : '_';
      if (c === quote) quote = undefined;
    } else {
      if (c === '"' || c === "'") quote = c;
      out += c;
    }
  }
  return out;
}

function parseOperand(src: string): Operand {
  if (isQuoted(src)) return { kind: 'literal', value: unquote(src) };
  if (src === 'true' || src === 'false') return { kind: 'literal', value: src === 'true' };
  if (src === 'null') return { kind: 'literal', value: null };
  if (/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(src)) return { kind: 'literal', value: Number(src) };
  if (src.startsWith('@') || src.startsWith('$') || src.startsWith('.')) return { kind: 'path', path: new PathParser(src).parsePath(true) };
  throw new JsonPathError(`unrecognized filter operand ${src}`);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function step(values: unknown[], seg: Segment): unknown[] {
  const out: unknown[] = [];
  for (const v of values) {
    switch (seg.kind) {
      case 'field':
        if (isRecord(v) && Object.prototype.hasOwnProperty.call(v, seg.name)) out.push(v[seg.name]);
        break;
      case 'wildcard':
        if (Array.isArray(v)) out.push(...(v as unknown[]));
        else if (isRecord(v)) for (const k of Object.keys(v).sort()) out.push(v[k]);
        break;
      case 'recursive':
        collectRecursive(v, seg.name, out);
        break;
      case 'slice':
        if (Array.isArray(v)) out.push(...slice(v as unknown[], seg));
        break;
      case 'union':
        for (const k of seg.keys) {
          if (typeof k === 'number' && Array.isArray(v)) {
            const idx = k < 0 ? v.length + k : k;
            if (idx >= 0 && idx < v.length) out.push((v as unknown[])[idx]);
          } else if (typeof k === 'string' && isRecord(v) && k in v) out.push(v[k]);
        }
        break;
      case 'filter': {
        const items = Array.isArray(v) ? (v as unknown[]) : isRecord(v) ? Object.keys(v).sort().map((k) => v[k]) : [];
        for (const item of items) if (matchesFilter(item, seg)) out.push(item);
        break;
      }
    }
  }
  return out;
}

function slice(arr: unknown[], seg: Extract<Segment, { kind: 'slice' }>): unknown[] {
  const len = arr.length;
  if (seg.single) {
    const i = (seg.start ?? 0) < 0 ? len + (seg.start ?? 0) : seg.start ?? 0;
    return i >= 0 && i < len ? [arr[i]] : [];
  }
  const norm = (n: number | undefined, dflt: number): number => {
    if (n === undefined) return dflt;
    const x = n < 0 ? len + n : n;
    return Math.min(Math.max(x, 0), len);
  };
  const start = norm(seg.start, 0);
  const end = norm(seg.end, len);
  const stepBy = seg.step && seg.step > 0 ? seg.step : 1;
  const out: unknown[] = [];
  for (let i = start; i < end; i += stepBy) out.push(arr[i]);
  return out;
}

function collectRecursive(v: unknown, name: string | undefined, out: unknown[]): void {
  if (isRecord(v)) {
    for (const k of Object.keys(v).sort()) {
      if (name === undefined || k === name) out.push(v[k]);
      collectRecursive(v[k], name, out);
    }
  } else if (Array.isArray(v)) {
    for (const item of v as unknown[]) {
      if (name === undefined) out.push(item);
      collectRecursive(item, name, out);
    }
  }
}

function operandValues(op: Operand, current: unknown): unknown[] {
  if (op.kind === 'literal') return [op.value];
  let values: unknown[] = [current];
  for (const seg of op.path) values = step(values, seg);
  return values;
}

function matchesFilter(item: unknown, seg: Extract<Segment, { kind: 'filter' }>): boolean {
  const left = operandValues(seg.left, item);
  if (!seg.op || !seg.right) return left.length > 0 && left[0] !== null && left[0] !== false;
  const right = operandValues(seg.right, item);
  if (left.length === 0 || right.length === 0) return false;
  const a = left[0];
  const b = right[0];
  switch (seg.op) {
    case '==':
      return looseEqual(a, b);
    case '!=':
      return !looseEqual(a, b);
    default: {
      if (typeof a !== 'number' || typeof b !== 'number') return false;
      if (seg.op === '<') return a < b;
      if (seg.op === '>') return a > b;
      if (seg.op === '<=') return a <= b;
      return a >= b;
    }
  }
}

function looseEqual(a: unknown, b: unknown): boolean {
  if (typeof a === 'object' || typeof b === 'object') return JSON.stringify(a) === JSON.stringify(b);
  return a === b;
}

/** Each path block's values, in order (client-go FindResults with AllowMissingKeys). */
export function findResults(path: JsonPath, data: unknown): unknown[][] {
  const results: unknown[][] = [];
  for (const block of path.blocks) {
    if (block.kind === 'text') {
      results.push([block.text]);
      continue;
    }
    let values: unknown[] = [data];
    for (const seg of block.path) values = step(values, seg);
    results.push(values);
  }
  return results;
}

/** Values of a single expression such as `.status.phase` or `{.status.phase}`. */
export function evaluateJsonPath(expression: string, data: unknown): unknown[] {
  const path = parseJsonPath(expression.includes('{') ? expression : `{${expression}}`);
  return findResults(path, data).flat();
}

/** How client-go's PrintResults renders one value: JSON for maps and arrays, Go's fmt for scalars. */
export function formatJsonPathValue(value: unknown): string {
  if (value === null || value === undefined) return '<nil>';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return formatGoNumber(value);
  if (typeof value === 'boolean') return String(value);
  return goJsonMarshal(value);
}

/** Renders a template the way `kubectl -o jsonpath` does (results joined by spaces). */
export function printJsonPath(path: JsonPath, data: unknown): string {
  return findResults(path, data)
    .map((values) => values.map(formatJsonPathValue).join(' '))
    .join('');
}

/** Go's %v for a JSON number: integers as int64, others as float64 ('g' with shortest digits: exponent form when exp < -4 or >= 6). */
export function formatGoNumber(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) < 2 ** 63) return BigInt(n).toString();
  if (!Number.isFinite(n)) return n > 0 ? '+Inf' : n < 0 ? '-Inf' : 'NaN';
  const [mantissa = '', expPart = '0'] = n.toExponential().split('e');
  const exp = Number(expPart);
  if (exp < -4 || exp >= 6) {
    const e = Math.abs(exp);
    return `${mantissa}e${exp < 0 ? '-' : '+'}${e < 10 ? '0' : ''}${e}`;
  }
  return String(n);
}

/** encoding/json's Marshal: sorted map keys, HTML-escaped <, > and &. */
export function goJsonMarshal(value: unknown): string {
  const sortKeys = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sortKeys);
    if (isRecord(v)) {
      const out: Record<string, unknown> = {};
      for (const k of Object.keys(v).sort()) out[k] = sortKeys(v[k]);
      return out;
    }
    return v;
  };
  return JSON.stringify(sortKeys(value)).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
