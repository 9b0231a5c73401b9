// Decodes `application/vnd.kubernetes.protobuf` request bodies into the JSON shape a Go client would have sent.
import { messages, topLevelKinds, type FieldDef, type MessageDef, type ValueType } from './schema.ts';
import { readFields, wireType, type WireField } from './wire.ts';

export const protobufMediaType = 'application/vnd.kubernetes.protobuf';

/** "k8s\0": every Kubernetes protobuf body starts with it. */
const magic = [0x6b, 0x38, 0x73, 0x00] as const;

export class ProtobufDecodeError extends Error {
  override readonly name = 'ProtobufDecodeError' as const;
}

/** Thrown for a well-formed body of a kind this server cannot decode (a real server answers 400 too). */
export class ProtobufUnknownKindError extends Error {
  override readonly name = 'ProtobufUnknownKindError' as const;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const utf8 = new TextDecoder('utf-8');

/** Whether objects of this apiVersion/kind can be sent as protobuf. */
export function protobufKind(apiVersion: string, kind: string): boolean {
  return topLevelKinds.has(`${apiVersion}/${kind}`);
}

/**
 * Decodes a whole body: the magic, the runtime.Unknown envelope, then the typed object.
 * `fallback` supplies apiVersion/kind when the envelope leaves them empty.
 */
export function decodeKubernetesProtobuf(body: Uint8Array, fallback: { apiVersion: string; kind: string }): JsonObject {
  if (body.length < magic.length || magic.some((byte, i) => body[i] !== byte)) {
    throw new ProtobufDecodeError(`provided data does not appear to be a protobuf message, expected prefix [${magic.join(' ')}]`);
  }
  const unknown = decodeMessage(message('Unknown'), body.subarray(magic.length), 0);
  const encoding = unknown['contentEncoding'];
  if (typeof encoding === 'string' && encoding !== '') throw new ProtobufDecodeError(`unsupported content encoding "${encoding}"`);
  const typeMeta = (unknown['typeMeta'] ?? {}) as JsonObject;
  const apiVersion = typeof typeMeta['apiVersion'] === 'string' && typeMeta['apiVersion'] ? typeMeta['apiVersion'] : fallback.apiVersion;
  const kind = typeof typeMeta['kind'] === 'string' && typeMeta['kind'] ? typeMeta['kind'] : fallback.kind;
  // DeleteOptions are registered in every group version, so any apiVersion is fine.
  const name = kind === 'DeleteOptions' ? 'DeleteOptions' : topLevelKinds.get(`${apiVersion}/${kind}`);
  if (!name) throw new ProtobufUnknownKindError(`no kind "${kind}" is registered for version "${apiVersion}" in scheme "pkg/api/legacyscheme/scheme.go:30"`);
  const raw = typeof unknown['raw'] === 'string' ? Buffer.from(unknown['raw'], 'base64') : new Uint8Array();
  return { apiVersion, kind, ...decodeMessage(message(name), raw, 0) };
}

function message(name: string): MessageDef {
  const def = messages.get(name);
  if (!def) throw new ProtobufDecodeError(`internal: no message ${name}`);
  return def;
}

// Deep enough for any real object (a Pod is about 8 levels); stops hostile input from exhausting the stack.
const maxDepth = 64;

function decodeMessage(def: MessageDef, bytes: Uint8Array, depth: number): JsonObject {
  if (depth > maxDepth) throw new ProtobufDecodeError('message nested too deeply');
  const values = new Map<FieldDef, Json>();
  for (const field of safeReadFields(bytes, def.name)) {
    const fieldDef = def.byNumber.get(field.number);
    if (!fieldDef) continue;
    if (fieldDef.map) {
      const entries = (values.get(fieldDef) ?? {}) as JsonObject;
      const [key, value] = decodeMapEntry(fieldDef, expectBytes(field, def, fieldDef), depth);
      entries[key] = value;
      values.set(fieldDef, entries);
    } else if (fieldDef.repeated) {
      const list = (values.get(fieldDef) ?? []) as Json[];
      list.push(...decodeRepeated(fieldDef, field, def, depth));
      values.set(fieldDef, list);
    } else {
      values.set(fieldDef, decodeValue(fieldDef.type, field, def, fieldDef, depth));
    }
  }
  const out: JsonObject = {};
  for (const fieldDef of def.fields) {
    if (!values.has(fieldDef)) continue;
    const value = values.get(fieldDef) ?? null;
    if (fieldDef.inline) {
      Object.assign(out, value);
      continue;
    }
    if (fieldDef.zero === 'omitempty' && isZeroScalar(fieldDef.type, value)) continue;
    out[fieldDef.json] = value;
  }
  return out;
}

function safeReadFields(bytes: Uint8Array, where: string): WireField[] {
  try {
    return readFields(bytes);
  } catch (error) {
    throw new ProtobufDecodeError(`${where}: ${(error as Error).message}`);
  }
}

/** JSON's omitempty drops zero scalars; structs (messages) it never drops. */
function isZeroScalar(type: ValueType, value: Json): boolean {
  if (typeof type === 'object' || (type !== 'string' && type !== 'bool' && type !== 'int32' && type !== 'int64' && type !== 'bytes')) return false;
  return value === '' || value === 0 || value === false;
}

function decodeRepeated(fieldDef: FieldDef, field: WireField, def: MessageDef, depth: number): Json[] {
  const type = fieldDef.type;
  // Numeric and bool lists may arrive packed (one length-delimited run of varints).
  if ((type === 'int32' || type === 'int64' || type === 'bool') && field.wireType === wireType.bytes && field.bytes) {
    const out: Json[] = [];
    let rest = field.bytes;
    while (rest.length > 0) {
      const { value, used } = readPackedVarint(rest);
      out.push(scalarFromVarint(type, value));
      rest = rest.subarray(used);
    }
    return out;
  }
  return [decodeValue(type, field, def, fieldDef, depth)];
}

function readPackedVarint(bytes: Uint8Array): { value: bigint; used: number } {
  let value = 0n;
  for (let i = 0; i < 10; i++) {
    const byte = bytes[i];
    if (byte === undefined) break;
    value |= BigInt(byte & 0x7f) << BigInt(7 * i);
    if ((byte & 0x80) === 0) return { value, used: i + 1 };
  }
  throw new ProtobufDecodeError('truncated packed varint');
}

function decodeMapEntry(fieldDef: FieldDef, bytes: Uint8Array, depth: number): [string, Json] {
  let key = '';
  let value: Json | undefined;
  const entryDef: MessageDef = { name: `${fieldDef.json} entry`, fields: [], byNumber: new Map() };
  for (const field of safeReadFields(bytes, entryDef.name)) {
    if (field.number === 1) key = utf8.decode(expectBytes(field, entryDef, fieldDef));
    else if (field.number === 2) value = decodeValue(fieldDef.type, field, entryDef, fieldDef, depth);
  }
  // A missing value is the zero value, as in Go.
  return [key, value ?? zeroValue(fieldDef.type, depth)];
}

function zeroValue(type: ValueType, depth: number): Json {
  if (typeof type === 'object') return decodeMessage(message(type.message), new Uint8Array(), depth + 1);
  switch (type) {
    case 'string':
    case 'bytes':
      return '';
    case 'bool':
      return false;
    case 'int32':
    case 'int64':
    case 'IntOrString':
      return 0;
    case 'Quantity':
      return '0';
    case 'Time':
    case 'MicroTime':
    case 'FieldsV1':
      return null;
  }
}

function expectBytes(field: WireField, def: MessageDef, fieldDef: FieldDef): Uint8Array {
  if (field.wireType !== wireType.bytes || !field.bytes) throw wrongWireType(def, fieldDef, field);
  return field.bytes;
}

function expectVarint(field: WireField, def: MessageDef, fieldDef: FieldDef): bigint {
  if (field.wireType !== wireType.varint || field.varint === undefined) throw wrongWireType(def, fieldDef, field);
  return field.varint;
}

function wrongWireType(def: MessageDef, fieldDef: FieldDef, field: WireField): ProtobufDecodeError {
  return new ProtobufDecodeError(`${def.name}.${fieldDef.json}: unexpected wire type ${field.wireType} for field ${field.number}`);
}

function scalarFromVarint(type: 'bool' | 'int32' | 'int64', value: bigint): Json {
  if (type === 'bool') return value !== 0n;
  // int64 beyond 2^53 loses precision, as it would in any JSON number a JavaScript client reads.
  return Number(type === 'int32' ? BigInt.asIntN(32, value) : BigInt.asIntN(64, value));
}

function decodeValue(type: ValueType, field: WireField, def: MessageDef, fieldDef: FieldDef, depth: number): Json {
  if (typeof type === 'object') return decodeMessage(message(type.message), expectBytes(field, def, fieldDef), depth + 1);
  switch (type) {
    case 'string':
      return utf8.decode(expectBytes(field, def, fieldDef));
    case 'bytes':
      return Buffer.from(expectBytes(field, def, fieldDef)).toString('base64');
    case 'bool':
    case 'int32':
    case 'int64':
      return scalarFromVarint(type, expectVarint(field, def, fieldDef));
    case 'Time':
      return decodeTime(expectBytes(field, def, fieldDef), false);
    case 'MicroTime':
      return decodeTime(expectBytes(field, def, fieldDef), true);
    case 'Quantity':
      return decodeQuantity(expectBytes(field, def, fieldDef));
    case 'IntOrString':
      return decodeIntOrString(expectBytes(field, def, fieldDef));
    case 'FieldsV1':
      return decodeFieldsV1(expectBytes(field, def, fieldDef));
  }
}

/** metav1.Time/MicroTime: {seconds=1, nanos=2}; an empty message is Go's zero time, which JSON writes as null. */
function decodeTime(bytes: Uint8Array, micro: boolean): Json {
  if (bytes.length === 0) return null;
  let seconds = 0n;
  let nanos = 0n;
  for (const field of safeReadFields(bytes, 'Time')) {
    if (field.wireType !== wireType.varint || field.varint === undefined) continue;
    if (field.number === 1) seconds = BigInt.asIntN(64, field.varint);
    else if (field.number === 2) nanos = BigInt.asIntN(32, field.varint);
  }
  const date = new Date(Number(seconds) * 1000);
  if (Number.isNaN(date.getTime())) throw new ProtobufDecodeError(`time out of range: ${seconds} seconds`);
  const base = date.toISOString().slice(0, -5); // drop ".sssZ"
  // Time's JSON has whole seconds (Go's RFC3339); MicroTime's has exactly six fractional digits.
  if (!micro) return `${base}Z`;
  const micros = String(Number(nanos / 1000n)).padStart(6, '0');
  return `${base}.${micros}Z`;
}

/** resource.Quantity is {string=1}. */
function decodeQuantity(bytes: Uint8Array): Json {
  for (const field of safeReadFields(bytes, 'Quantity')) {
    if (field.number === 1 && field.wireType === wireType.bytes && field.bytes) return utf8.decode(field.bytes);
  }
  return '0';
}

/** intstr.IntOrString is {type=1 (0 int, 1 string), intVal=2, strVal=3}. */
function decodeIntOrString(bytes: Uint8Array): Json {
  let type = 0n;
  let intVal = 0;
  let strVal = '';
  for (const field of safeReadFields(bytes, 'IntOrString')) {
    if (field.number === 1 && field.varint !== undefined) type = field.varint;
    else if (field.number === 2 && field.varint !== undefined) intVal = Number(BigInt.asIntN(32, field.varint));
    else if (field.number === 3 && field.bytes) strVal = utf8.decode(field.bytes);
  }
  return type === 1n ? strVal : intVal;
}

/** FieldsV1 is {raw=1}: the managed-fields set as JSON text. */
function decodeFieldsV1(bytes: Uint8Array): Json {
  for (const field of safeReadFields(bytes, 'FieldsV1')) {
    if (field.number !== 1 || !field.bytes) continue;
    try {
      return JSON.parse(utf8.decode(field.bytes)) as Json;
    } catch {
      throw new ProtobufDecodeError('FieldsV1.raw is not valid JSON');
    }
  }
  return {};
}
