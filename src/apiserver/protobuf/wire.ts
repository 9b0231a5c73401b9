// The protobuf wire format, read only: varints, length-delimited fields, and safe skipping of everything else.

export class ProtobufWireError extends Error {
  override readonly name = 'ProtobufWireError' as const;
}

export const wireType = { varint: 0, fixed64: 1, bytes: 2, startGroup: 3, endGroup: 4, fixed32: 5 } as const;

export interface WireField {
  readonly number: number;
  readonly wireType: number;
  /** For varint fields. */
  readonly varint?: bigint;
  /** For length-delimited fields. */
  readonly bytes?: Uint8Array;
}

export class WireReader {
  private pos = 0;
  private readonly buf: Uint8Array;

  constructor(buf: Uint8Array) {
    this.buf = buf;
  }

  get done(): boolean {
    return this.pos >= this.buf.length;
  }

  /** Varints are read as bigint: int64 values and negative int32s (sign-extended to 10 bytes) exceed 2^53. */
  varint(): bigint {
    let result = 0n;
    let shift = 0n;
    for (let i = 0; i < 10; i++) {
      const byte = this.buf[this.pos++];
      if (byte === undefined) throw new ProtobufWireError('unexpected end of data in a varint');
      result |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return result;
      shift += 7n;
    }
    throw new ProtobufWireError('varint longer than 10 bytes');
  }

  private take(length: number): Uint8Array {
    if (length < 0 || this.pos + length > this.buf.length) throw new ProtobufWireError('field length runs past the end of the data');
    const out = this.buf.subarray(this.pos, this.pos + length);
    this.pos += length;
    return out;
  }

  /** Reads the next field; fixed-width and group fields are skipped over and returned without a value. */
  next(): WireField {
    const key = this.varint();
    const number = Number(key >> 3n);
    const type = Number(key & 7n);
    if (number === 0) throw new ProtobufWireError('field number 0 is invalid');
    switch (type) {
      case wireType.varint:
        return { number, wireType: type, varint: this.varint() };
      case wireType.bytes: {
        const length = this.varint();
        if (length > BigInt(this.buf.length)) throw new ProtobufWireError('field length runs past the end of the data');
        return { number, wireType: type, bytes: this.take(Number(length)) };
      }
      case wireType.fixed64:
        this.take(8);
        return { number, wireType: type };
      case wireType.fixed32:
        this.take(4);
        return { number, wireType: type };
      case wireType.startGroup:
        this.skipGroup(number);
        return { number, wireType: type };
      case wireType.endGroup:
        return { number, wireType: type };
      default:
        throw new ProtobufWireError(`invalid wire type ${type} for field ${number}`);
    }
  }

  // Deprecated groups never appear in Kubernetes types, but an unknown field must not derail the reader.
  private skipGroup(number: number): void {
    for (let depth = 0; depth < 100; depth++) {
      const field = this.next();
      if (field.wireType === wireType.endGroup && field.number === number) return;
    }
    throw new ProtobufWireError('group nested too deeply');
  }
}

/** Every field of a message, in wire order. */
export function readFields(buf: Uint8Array): WireField[] {
  const reader = new WireReader(buf);
  const fields: WireField[] = [];
  while (!reader.done) fields.push(reader.next());
  return fields;
}
