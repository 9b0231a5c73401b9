// The fields of a built-in kind that its served OpenAPI v2 definition does not declare, found as kube-apiserver's
// strict JSON decoder finds them: in document order, as paths from the root (`spec.replica`,
// `spec.template.spec.containers[0].comand`). The same definitions serve `kubectl explain`, so there is one source.
// Unknown fields are removed as they are found (the typed decoder drops them). A walker is compiled once per definition and reused by every request.
import { builtinDefinitionName, builtinDefinitions, type Schema } from '../discovery/builtin-openapi.ts';

type Walker = (value: unknown, path: string, out: string[]) => void;

const definitionPrefix = '#/definitions/';
const open: Walker = () => undefined;
const byDefinition = new Map<string, Walker>();

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A definition's walker, compiled on first use; the indirection lets recursive definitions (JSONSchemaProps) refer to themselves. */
function definitionWalker(name: string): Walker {
  let walker = byDefinition.get(name);
  if (!walker) {
    const definition = builtinDefinitions()[name];
    let compiled: Walker | undefined;
    walker = (value, path, out) => (compiled ??= definition ? compile(definition) : open)(value, path, out);
    byDefinition.set(name, walker);
  }
  return walker;
}

function compile(schema: Schema): Walker {
  const ref = schema['$ref'];
  if (typeof ref === 'string' && ref.startsWith(definitionPrefix)) return definitionWalker(ref.slice(definitionPrefix.length));
  // Embedded objects (RawExtension, preserve-unknown fields) take anything, as the typed decoder does.
  if (schema['x-kubernetes-preserve-unknown-fields'] === true) return open;
  const items = schema['items'];
  if (schema['type'] === 'array' && isRecord(items)) {
    const item = compile(items);
    return (value, path, out) => {
      if (Array.isArray(value)) value.forEach((entry, i) => item(entry, `${path}[${i}]`, out));
    };
  }
  const properties = schema['properties'];
  const additional = schema['additionalProperties'];
  if (isRecord(properties)) {
    const fields = new Map(Object.entries(properties).map(([key, child]) => [key, compile(child as Schema)]));
    return (value, path, out) => {
      if (!isRecord(value)) return;
      for (const key of Object.keys(value)) {
        const at = path === '' ? key : `${path}.${key}`;
        const field = fields.get(key);
        if (field) field(value[key], at, out);
        else {
          out.push(at);
          delete value[key];
        }
      }
    };
  }
  if (isRecord(additional)) {
    const entry = compile(additional);
    return (value, path, out) => {
      if (isRecord(value)) for (const key of Object.keys(value)) entry(value[key], `${path}[${key}]`, out);
    };
  }
  return open;
}

/** Removes the unknown fields of `object` and returns their paths, or undefined when upstream publishes no definition for the kind. */
export function unknownBuiltinFields(group: string, version: string, kind: string, object: unknown): string[] | undefined {
  const name = builtinDefinitionName(group, version, kind);
  if (!name || !builtinDefinitions()[name]) return undefined;
  const out: string[] = [];
  definitionWalker(name)(object, '', out);
  return out;
}
