// The JSON types of built-in kinds' fields, checked as kube-apiserver's typed decoding checks them: a value that
// does not fit its Go field (an int32 out of range, a number where a string goes, an object in a map[string]string)
// is a 400 in the decoder's words. The types come from the upstream OpenAPI v2 definitions the server publishes,
// so `kubectl explain` and this check read the same source.
import { isPlainObject, type KubeObject } from '../../apimachinery/object.ts';
import { errors } from '../../apimachinery/status-error.ts';
import { builtinDefinitionName, builtinDefinitions, type Schema } from '../discovery/builtin-openapi.ts';
import type { ResourceType } from './resource-type.ts';

const definitionPrefix = '#/definitions/';
/** Types whose Go UnmarshalJSON takes more than their OpenAPI type says. */
const quantity = 'io.k8s.apimachinery.pkg.api.resource.Quantity';
const intOrString = 'io.k8s.apimachinery.pkg.util.intstr.IntOrString';

const customResourceEnvelope: Schema = { type: 'object', properties: { metadata: { $ref: `${definitionPrefix}io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta` } } };

const integerRanges: Record<string, [number, number]> = {
  int32: [-(2 ** 31), 2 ** 31 - 1],
  // 2 ** 63 is the first double above int64's maximum.
  int64: [-(2 ** 63), 2 ** 63 - 1],
};

/** Where the decoder is: the innermost Go struct and the field path from the root, as encoding/json reports them. */
interface Context {
  struct: string;
  field: string;
}

class FieldTypeError extends Error {
  override readonly name = 'FieldTypeError' as const;
}

function jsonKind(value: unknown, numeric: boolean): string {
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return numeric ? `number ${String(value)}` : 'number';
  if (typeof value === 'boolean') return 'bool';
  return typeof value === 'object' ? 'object' : typeof value;
}

function refName(schema: Schema): string | undefined {
  const ref = schema['$ref'];
  return typeof ref === 'string' && ref.startsWith(definitionPrefix) ? ref.slice(definitionPrefix.length) : undefined;
}

/** The Go type a schema stands for, as reflect.Type.String() prints it (v1.PodSpec, map[string]string, []int32). */
function goType(schema: Schema): string {
  const name = refName(schema);
  if (name) {
    const parts = name.split('.');
    return `${parts[parts.length - 2] ?? ''}.${parts[parts.length - 1] ?? ''}`;
  }
  switch (schema['type']) {
    case 'string':
      return schema['format'] === 'byte' ? '[]uint8' : 'string';
    case 'integer':
      return typeof schema['format'] === 'string' ? schema['format'] : 'int';
    case 'number':
      return 'float64';
    case 'boolean':
      return 'bool';
    case 'array':
      return `[]${goType((schema['items'] ?? {}) as Schema)}`;
    case 'object':
      return schema['additionalProperties'] ? `map[string]${goType(schema['additionalProperties'] as Schema)}` : 'struct';
    default:
      return 'interface {}';
  }
}

function mismatch(value: unknown, schema: Schema, at: Context, numeric = false): never {
  const into = at.field === '' ? 'Go value' : `Go struct field ${at.struct}.${at.field}`;
  throw new FieldTypeError(`json: cannot unmarshal ${jsonKind(value, numeric)} into ${into} of type ${goType(schema)}`);
}

function check(value: unknown, schema: Schema, at: Context): void {
  // A JSON null leaves any Go value as it is.
  if (value === null || value === undefined) return;
  const name = refName(schema);
  if (name) {
    if (name === quantity && (typeof value === 'string' || typeof value === 'number')) return;
    if (name === intOrString && (typeof value === 'string' || Number.isInteger(value))) return;
    const definition = builtinDefinitions()[name];
    if (!definition) return;
    checkDefinition(value, definition, schema, at, name.split('.').pop() ?? '');
    return;
  }
  checkDefinition(value, schema, schema, at, at.struct);
}

/**
 * `shown` is the schema named in an error (the `$ref` when the value came through one); `struct` is the Go struct
 * the value is, which its own fields report.
 */
function checkDefinition(value: unknown, schema: Schema, shown: Schema, at: Context, struct: string): void {
  switch (schema['type']) {
    case 'string':
      if (typeof value !== 'string') mismatch(value, shown, at);
      return;
    case 'boolean':
      if (typeof value !== 'boolean') mismatch(value, shown, at);
      return;
    case 'number':
      if (typeof value !== 'number') mismatch(value, shown, at);
      return;
    case 'integer': {
      if (typeof value !== 'number') mismatch(value, shown, at);
      const [min, max] = integerRanges[String(schema['format'])] ?? integerRanges['int64']!;
      if (!Number.isInteger(value) || value < min || value > max) mismatch(value, shown, at, true);
      return;
    }
    case 'array': {
      if (!Array.isArray(value)) mismatch(value, shown, at);
      const items = schema['items'] as Schema | undefined;
      if (items) for (const item of value) check(item, items, at);
      return;
    }
    case 'object': {
      if (typeof value !== 'object' || Array.isArray(value) || value === null) mismatch(value, shown, at);
      const record = value as Record<string, unknown>;
      const properties = schema['properties'] as Record<string, Schema> | undefined;
      const additional = schema['additionalProperties'] as Schema | undefined;
      for (const [key, item] of Object.entries(record)) {
        const property = properties?.[key];
        // Map values keep the map's field path, as encoding/json reports them.
        if (property) check(item, property, { struct, field: at.field === '' ? key : `${at.field}.${key}` });
        else if (additional) check(item, additional, at);
      }
      return;
    }
    default:
      // No type: anything (apiextensions JSON, JSONSchemaPropsOrBool…).
      return;
  }
}

/**
 * A request body, checked as it is decoded (before the server compares its name or kind with the URL's). Bodies
 * that are not objects of this kind are left to the checks that name those mistakes.
 */
export function checkDecodedBody(type: ResourceType, body: unknown): void {
  if (!isPlainObject(body) || (body.kind !== undefined && body.kind !== type.kind)) return;
  checkBuiltinFieldTypes(type, body as KubeObject);
}

/** Throws kube-apiserver's 400 when a field of a built-in kind holds a value its Go type cannot take. */
export function checkBuiltinFieldTypes(type: ResourceType, object: KubeObject): void {
  // A custom resource's schema types the rest; its metadata is always ObjectMeta.
  const definition = type.custom ? customResourceEnvelope : builtinDefinitions()[builtinDefinitionName(type.group, type.version, type.kind) ?? ''];
  if (!definition) return;
  try {
    checkDefinition(object, definition, definition, { struct: type.kind, field: '' }, type.kind);
  } catch (error) {
    if (!(error instanceof FieldTypeError)) throw error;
    throw errors.badRequest(`${type.kind} in version ${JSON.stringify(type.version)} cannot be handled as a ${type.kind}: ${error.message}`);
  }
}
