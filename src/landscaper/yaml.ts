// YAML as Landscaper reads it (sigs.k8s.io/yaml: YAML 1.1 → JSON), giving plain JSON values.
import { parseDocument, type ScalarTag } from 'yaml';
import { formatFloat } from '../template/strconv.ts';
import type { AnyJSON } from './api/shared.ts';
import { ConfigurationError } from './ls-error.ts';
import { parsePlainBlockYaml } from './yaml-fast-path.ts';

/** A YAML syntax error (a configuration error: no retry fixes it); `line` is 1-based when known. */
export class YamlError extends ConfigurationError {
  override readonly name = 'YamlError' as const;
  readonly line: number | undefined;
  constructor(message: string, line: number | undefined) {
    super('', 'YamlError', message);
    this.line = line;
  }
}

/** Parses YAML the way go-yaml v2 reads it: YAML 1.1 scalars, merge keys, duplicate keys allowed. */
export function parseGoYamlDocument(text: string, options: { floatsApart?: boolean } = {}): ReturnType<typeof parseDocument> {
  return parseDocument(text, {
    version: '1.1',
    uniqueKeys: false,
    merge: true,
    customTags: (tags) =>
      tags
        // go-yaml v2 keeps timestamps as strings when decoding into interface{}.
        .filter((t) => typeof t === 'string' || t.tag !== 'tag:yaml.org,2002:timestamp')
        .map((t) => (options.floatsApart === true && typeof t !== 'string' && t.tag === FLOAT_TAG && t.collection === undefined ? floatApart(t) : t)),
  });
}

const FLOAT_TAG = 'tag:yaml.org,2002:float';

/** A float as go-yaml v2 resolves it (1.0, 1e6, .inf): its text in a string field differs from an int's. */
class GoFloat {
  constructor(readonly value: number) {}
}

function floatApart(tag: ScalarTag): ScalarTag {
  return {
    ...tag,
    resolve: (value, onError, options) => {
      const v = tag.resolve(value, onError, options);
      // The schema returns a Scalar where it keeps formatting (minFractionDigits).
      return new GoFloat(Number(typeof v === 'object' && v !== null && 'value' in v ? (v as { value: unknown }).value : v));
    },
  };
}

/**
 * The Go type a value is decoded into, as far as it matters to sigs.k8s.io/yaml: where the field is a string, a
 * YAML boolean or number becomes its text ("true", "2", "1e+06"). Struct fields match case-insensitively, as in
 * encoding/json; anything not described is interface{} (no conversion).
 */
export type GoShape = 'string' | { readonly fields: { readonly [name: string]: GoShape } } | { readonly items: GoShape } | { readonly values: GoShape };

function fieldShape(shape: GoShape | undefined, key: string): GoShape | undefined {
  if (shape === undefined || shape === 'string') return undefined;
  if ('values' in shape) return shape.values;
  if (!('fields' in shape)) return undefined;
  const exact = shape.fields[key];
  if (exact !== undefined) return exact;
  const folded = key.toLowerCase();
  return Object.entries(shape.fields).find(([name]) => name.toLowerCase() === folded)?.[1];
}

/** strconv.FormatFloat(f, 'g', -1, 32): sigs.k8s.io/yaml writes a float in a string field with float32 precision. */
function formatFloat32(f: number): string {
  const f32 = Math.fround(f);
  if (!Number.isFinite(f32) || f32 === 0) return formatFloat(f32, 'g', -1);
  for (let digits = 1; ; digits++) {
    const shortest = Number(f32.toPrecision(digits));
    if (Math.fround(shortest) === f32) return formatFloat(shortest, 'g', -1);
  }
}

/** A map key as sigs.k8s.io/yaml makes it a JSON key, whatever the target. */
function goKey(k: unknown): string {
  if (k instanceof GoFloat) {
    const s = formatFloat32(k.value);
    return s === '+Inf' ? '.inf' : s === '-Inf' ? '-.inf' : s === 'NaN' ? '.nan' : s;
  }
  if (typeof k === 'string') return k;
  if (k === null || typeof k !== 'object') return String(k);
  return JSON.stringify(toJSON(k));
}

function toJSON(x: unknown, shape?: GoShape): AnyJSON {
  if (x === null || x === undefined) return null;
  if (x instanceof GoFloat) {
    if (shape === 'string') return formatFloat32(x.value);
    return Number.isFinite(x.value) ? x.value : null;
  }
  if (typeof x === 'boolean') return shape === 'string' ? String(x) : x;
  if (typeof x === 'number') {
    if (shape === 'string') return String(x);
    return Number.isFinite(x) ? x : null;
  }
  if (typeof x === 'bigint') return shape === 'string' ? x.toString() : Number(x);
  if (typeof x === 'string') return x;
  if (x instanceof Date) return x.toISOString().replace('.000Z', 'Z');
  if (Array.isArray(x)) {
    const items = shape !== undefined && shape !== 'string' && 'items' in shape ? shape.items : undefined;
    return x.map((v) => toJSON(v, items));
  }
  const entries: Iterable<[unknown, unknown]> = x instanceof Map ? x : Object.entries(x as Record<string, unknown>);
  const o: { [k: string]: AnyJSON } = {};
  for (const [k, v] of entries) {
    const key = goKey(k);
    o[key] = toJSON(v, fieldShape(shape, key));
  }
  return o;
}

/**
 * Parses one YAML (or JSON) document; an empty document is null. With a shape, it decodes as sigs.k8s.io/yaml
 * does into Go structs of that shape (see GoShape).
 */
export function parseYaml(text: string, shape?: GoShape): AnyJSON {
  const plain = parsePlainBlockYaml(text);
  return plain !== undefined ? toJSON(plain, shape) : parseYamlFully(text, shape);
}

/** parseYaml without the plain-block fast path (yaml-fast-path.ts): the reference it must agree with. */
export function parseYamlFully(text: string, shape?: GoShape): AnyJSON {
  const doc = parseGoYamlDocument(text, { floatsApart: true });
  if (doc.errors.length > 0) {
    const e = doc.errors[0]!;
    const line = e.linePos?.[0]?.line;
    throw new YamlError(`yaml: ${line !== undefined ? `line ${line}: ` : ''}${e.message.split('\n')[0]}`, line);
  }
  return toJSON(doc.toJS({ mapAsMap: true, maxAliasCount: 1000 }), shape);
}

export function isObject(v: AnyJSON | undefined): v is { [key: string]: AnyJSON } {
  return v !== null && v !== undefined && typeof v === 'object' && !Array.isArray(v);
}
