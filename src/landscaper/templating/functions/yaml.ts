// toYaml / fromYaml as Landscaper registers them (sigs.k8s.io/yaml over go-yaml v2).
import { GoFuncError, goFunc, newMap, type FuncMap, type GoValue } from '../../../template/index.ts';
import { parseGoYamlDocument } from '../../yaml.ts';
import { marshalYAML } from '../../../template/yaml-emit.ts';

/** toYaml: errors are swallowed into ""; one trailing newline is trimmed. */
export function toYaml(v: GoValue): string {
  try {
    const s = marshalYAML(v);
    return s.endsWith('\n') ? s.slice(0, -1) : s;
  } catch {
    return '';
  }
}

/** YAML → JSON → interface{}: float64 numbers, string keys, YAML 1.1 scalars (yes/no, 0x, 0o...). */
export function fromYaml(s: string): GoValue {
  const doc = parseGoYamlDocument(s);
  if (doc.errors.length > 0) {
    const e = doc.errors[0]!;
    const line = e.linePos?.[0]?.line ?? 1;
    throw new GoFuncError(`error converting YAML to JSON: yaml: line ${line}: ${e.message.split('\n')[0]}`);
  }
  const toJson = (x: unknown): GoValue => {
    if (x === null || x === undefined) return null;
    if (typeof x === 'number') {
      if (!Number.isFinite(x)) throw new GoFuncError(`error converting YAML to JSON: json: unsupported value: ${Number.isNaN(x) ? 'NaN' : x > 0 ? '+Inf' : '-Inf'}`);
      return x;
    }
    if (typeof x === 'bigint') return Number(x);
    if (typeof x === 'string' || typeof x === 'boolean') return x;
    if (x instanceof Date) return x.toISOString().replace('.000Z', 'Z');
    if (Array.isArray(x)) return x.map(toJson);
    if (x instanceof Map) {
      const m = newMap();
      for (const [k, v] of x) m[keyString(k)] = toJson(v);
      return m;
    }
    if (x instanceof Uint8Array) return Buffer.from(x).toString('base64');
    const m = newMap();
    for (const [k, v] of Object.entries(x as Record<string, unknown>)) m[k] = toJson(v);
    return m;
  };
  return toJson(doc.toJS({ mapAsMap: true, maxAliasCount: 100 }));
}

function keyString(k: unknown): string {
  if (typeof k === 'string') return k;
  if (typeof k === 'number') return String(k);
  if (typeof k === 'boolean' || k === null) return String(k);
  return String(k);
}

export const yamlFunctions: FuncMap = {
  toYaml: goFunc({ params: ['interface {}'], results: ['string'] }, toYaml),
  fromYaml: goFunc({ params: ['string'], results: ['interface {}', 'error'] }, fromYaml),
};
