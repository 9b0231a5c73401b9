// YAML as Landscaper reads it (sigs.k8s.io/yaml: YAML 1.1 → JSON), giving plain JSON values.
import { parseDocument } from 'yaml';
import type { AnyJSON } from './api/shared.ts';

/** A YAML syntax error; `line` is 1-based when known. */
export class YamlError extends Error {
  override readonly name = 'YamlError' as const;
  readonly line: number | undefined;
  constructor(message: string, line: number | undefined) {
    super(message);
    this.line = line;
  }
}

/** Parses YAML the way go-yaml v2 reads it: YAML 1.1 scalars, merge keys, duplicate keys allowed. */
export function parseGoYamlDocument(text: string): ReturnType<typeof parseDocument> {
  return parseDocument(text, {
    version: '1.1',
    uniqueKeys: false,
    merge: true,
    // go-yaml v2 keeps timestamps as strings when decoding into interface{}.
    customTags: (tags) => tags.filter((t) => typeof t === 'string' || t.tag !== 'tag:yaml.org,2002:timestamp'),
  });
}

function toJSON(x: unknown): AnyJSON {
  if (x === null || x === undefined) return null;
  if (typeof x === 'string' || typeof x === 'boolean') return x;
  if (typeof x === 'number') return Number.isFinite(x) ? x : null;
  if (typeof x === 'bigint') return Number(x);
  if (x instanceof Date) return x.toISOString().replace('.000Z', 'Z');
  if (Array.isArray(x)) return x.map(toJSON);
  if (x instanceof Map) {
    const o: { [k: string]: AnyJSON } = {};
    for (const [k, v] of x) o[String(k)] = toJSON(v);
    return o;
  }
  if (typeof x === 'object') {
    const o: { [k: string]: AnyJSON } = {};
    for (const [k, v] of Object.entries(x as Record<string, unknown>)) o[k] = toJSON(v);
    return o;
  }
  return null;
}

/** Parses one YAML (or JSON) document; an empty document is null. */
export function parseYaml(text: string): AnyJSON {
  const doc = parseGoYamlDocument(text);
  if (doc.errors.length > 0) {
    const e = doc.errors[0]!;
    const line = e.linePos?.[0]?.line;
    throw new YamlError(`yaml: ${line !== undefined ? `line ${line}: ` : ''}${e.message.split('\n')[0]}`, line);
  }
  return toJSON(doc.toJS({ mapAsMap: false, maxAliasCount: 1000 }));
}

export function isObject(v: AnyJSON | undefined): v is { [key: string]: AnyJSON } {
  return v !== null && v !== undefined && typeof v === 'object' && !Array.isArray(v);
}
