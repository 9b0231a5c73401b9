// OpenAPI v2 as gnostic's protobuf (openapiv2/OpenAPIv2.proto): kubectl asks /openapi/v2 only with
// `application/com.github.proto-openapi.spec.v2@v1.0+protobuf` and decodes nothing else. Encodes the subset
// Bosun's documents use: info, paths with operations and query parameters, definitions; vendor extensions and
// `default`/`enum`/`example` values travel as YAML (JSON is YAML) in gnostic's Any.
export const openApiV2ProtobufMediaType = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';
/** What kube-openapi answers with: Go's mime parser (client-go checks the answer) refuses the `@` form. */
export const openApiV2ProtobufContentType = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';

/** Whether an Accept header asks for the protobuf document, in either spelling. */
export function acceptsOpenApiV2Protobuf(accept: string | undefined): boolean {
  return accept !== undefined && (accept.includes(openApiV2ProtobufMediaType) || accept.includes(openApiV2ProtobufContentType));
}

class Writer {
  private readonly chunks: Buffer[] = [];

  private tag(field: number, wire: number): void {
    this.varint(BigInt((field << 3) | wire));
  }

  private varint(value: bigint): void {
    let v = BigInt.asUintN(64, value);
    const bytes: number[] = [];
    while (v >= 0x80n) {
      bytes.push(Number(v & 0x7fn) | 0x80);
      v >>= 7n;
    }
    bytes.push(Number(v));
    this.chunks.push(Buffer.from(bytes));
  }

  string(field: number, value: unknown): void {
    if (typeof value !== 'string') return;
    this.bytes(field, Buffer.from(value, 'utf8'));
  }

  strings(field: number, values: unknown): void {
    if (Array.isArray(values)) for (const v of values) this.string(field, v);
  }

  bool(field: number, value: unknown): void {
    if (value !== true) return;
    this.tag(field, 0);
    this.varint(1n);
  }

  /** A bool inside a oneof: written even when false, so the decoder knows which member is set. */
  oneofBool(field: number, value: boolean): void {
    this.tag(field, 0);
    this.varint(value ? 1n : 0n);
  }

  int64(field: number, value: unknown): void {
    if (typeof value !== 'number' || !Number.isInteger(value)) return;
    this.tag(field, 0);
    this.varint(BigInt(value));
  }

  double(field: number, value: unknown): void {
    if (typeof value !== 'number') return;
    this.tag(field, 1);
    const b = Buffer.alloc(8);
    b.writeDoubleLE(value);
    this.chunks.push(b);
  }

  bytes(field: number, value: Buffer): void {
    this.tag(field, 2);
    this.varint(BigInt(value.length));
    this.chunks.push(value);
  }

  message(field: number, build: (w: Writer) => void): void {
    const inner = new Writer();
    build(inner);
    this.bytes(field, inner.finish());
  }

  finish(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

/** gnostic's Any: the value as YAML text. */
function any(w: Writer, field: number, value: unknown): void {
  if (value === undefined) return;
  w.message(field, (a) => a.string(2, JSON.stringify(value)));
}

function vendorExtensions(w: Writer, field: number, node: Json): void {
  for (const [name, value] of Object.entries(node)) {
    if (name.startsWith('x-')) w.message(field, (n) => {
      n.string(1, name);
      any(n, 2, value);
    });
  }
}

function schema(w: Writer, s: Json): void {
  w.string(1, s['$ref']);
  w.string(2, s['format']);
  w.string(3, s['title']);
  w.string(4, s['description']);
  any(w, 5, s['default']);
  w.double(6, s['multipleOf']);
  w.double(7, s['maximum']);
  w.bool(8, s['exclusiveMaximum']);
  w.double(9, s['minimum']);
  w.bool(10, s['exclusiveMinimum']);
  w.int64(11, s['maxLength']);
  w.int64(12, s['minLength']);
  w.string(13, s['pattern']);
  w.int64(14, s['maxItems']);
  w.int64(15, s['minItems']);
  w.bool(16, s['uniqueItems']);
  w.int64(17, s['maxProperties']);
  w.int64(18, s['minProperties']);
  w.strings(19, s['required']);
  if (Array.isArray(s['enum'])) for (const v of s['enum']) any(w, 20, v);
  const additional = s['additionalProperties'];
  if (isObject(additional)) w.message(21, (a) => a.message(1, (n) => schema(n, additional)));
  else if (typeof additional === 'boolean') w.message(21, (a) => a.oneofBool(2, additional));
  const type = s['type'];
  if (type !== undefined) w.message(22, (t) => t.strings(1, [type].flat()));
  const items = s['items'];
  if (items !== undefined) w.message(23, (i) => {
    for (const item of [items].flat()) if (isObject(item)) i.message(1, (n) => schema(n, item));
  });
  if (Array.isArray(s['allOf'])) for (const part of s['allOf']) if (isObject(part)) w.message(24, (n) => schema(n, part));
  const properties = s['properties'];
  if (isObject(properties)) w.message(25, (p) => {
    for (const [name, value] of Object.entries(properties)) {
      if (isObject(value)) p.message(1, (n) => {
        n.string(1, name);
        n.message(2, (v) => schema(v, value));
      });
    }
  });
  w.string(26, s['discriminator']);
  w.bool(27, s['readOnly']);
  any(w, 30, s['example']);
  vendorExtensions(w, 31, s);
}

function queryParameter(w: Writer, p: Json): void {
  // Parameter.non_body_parameter.query_parameter_sub_schema
  w.message(1, (param) => param.message(2, (nb) => nb.message(3, (q) => {
    q.bool(1, p['required']);
    q.string(2, p['in']);
    q.string(3, p['description']);
    q.string(4, p['name']);
    q.string(6, p['type']);
    q.bool(20, p['uniqueItems']);
  })));
}

function operation(w: Writer, op: Json): void {
  w.string(3, op['description']);
  w.string(5, op['operationId']);
  w.strings(6, op['produces']);
  w.strings(7, op['consumes']);
  if (Array.isArray(op['parameters'])) for (const p of op['parameters']) if (isObject(p)) w.message(8, (item) => queryParameter(item, p));
  const responses = op['responses'];
  if (isObject(responses)) w.message(9, (r) => {
    for (const [code, response] of Object.entries(responses)) {
      if (!isObject(response)) continue;
      r.message(1, (named) => {
        named.string(1, code);
        named.message(2, (value) => value.message(1, (res) => {
          res.string(1, response['description']);
          const body = response['schema'];
          if (isObject(body)) res.message(2, (item) => item.message(1, (n) => schema(n, body)));
        }));
      });
    }
  });
  vendorExtensions(w, 13, op);
}

const methodFields = { get: 2, put: 3, post: 4, delete: 5, options: 6, head: 7, patch: 8 } as const;

/** Encodes a Swagger 2.0 JSON document as gnostic's openapi_v2.Document. */
export function encodeOpenApiV2(doc: Json): Buffer {
  const w = new Writer();
  w.string(1, doc['swagger']);
  const info = doc['info'];
  if (isObject(info)) w.message(2, (i) => {
    i.string(1, info['title']);
    i.string(2, info['version']);
  });
  const paths = doc['paths'];
  if (isObject(paths)) w.message(8, (p) => {
    for (const [path, item] of Object.entries(paths)) {
      if (!isObject(item)) continue;
      p.message(2, (named) => {
        named.string(1, path);
        named.message(2, (pi) => {
          for (const [method, field] of Object.entries(methodFields)) {
            const op = item[method];
            if (isObject(op)) pi.message(field, (o) => operation(o, op));
          }
        });
      });
    }
  });
  const definitions = doc['definitions'];
  if (isObject(definitions)) w.message(9, (d) => {
    for (const [name, value] of Object.entries(definitions)) {
      if (isObject(value)) d.message(1, (n) => {
        n.string(1, name);
        n.message(2, (s) => schema(s, value));
      });
    }
  });
  return w.finish();
}
