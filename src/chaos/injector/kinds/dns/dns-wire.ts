// The little of the DNS wire format (RFC 1035) the responder needs: the question of a query, and answers with
// A, AAAA, CNAME or TXT records or an error code, echoing the query's ID, flags and question.
import { isIPv4, isIPv6 } from 'node:net';

export const TYPE = { A: 1, CNAME: 5, MX: 15, TXT: 16, AAAA: 28, SRV: 33 } as const;
export const RCODE = { NOERROR: 0, SERVFAIL: 2, NXDOMAIN: 3 } as const;

export interface Question {
  /** Lower-cased, without the trailing dot. */
  name: string;
  type: number;
  /** The question section's bytes, copied into the answer. */
  raw: Buffer;
}

export class DnsWireError extends Error {
  override readonly name = 'DnsWireError' as const;
}

export function parseQuestion(message: Buffer): Question {
  if (message.length < 12 || message.readUInt16BE(4) < 1) throw new DnsWireError('no question');
  const labels: string[] = [];
  let offset = 12;
  for (;;) {
    const length = message[offset];
    if (length === undefined) throw new DnsWireError('truncated name');
    offset++;
    if (length === 0) break;
    if (length > 63) throw new DnsWireError('compressed or invalid name in question');
    labels.push(message.subarray(offset, offset + length).toString('latin1'));
    offset += length;
  }
  if (offset + 4 > message.length) throw new DnsWireError('truncated question');
  const type = message.readUInt16BE(offset);
  return { name: labels.join('.').toLowerCase(), type, raw: message.subarray(12, offset + 4) };
}

function encodeName(name: string): Buffer {
  const parts = name.replace(/\.$/, '').split('.').filter((l) => l !== '');
  return Buffer.concat([...parts.map((l) => Buffer.concat([Buffer.from([l.length]), Buffer.from(l, 'latin1')])), Buffer.from([0])]);
}

export interface Answer {
  type: number;
  ttl: number;
  /** A/AAAA: an address; CNAME: a name; TXT: text. */
  value: string;
}

function rdata(answer: Answer): Buffer {
  switch (answer.type) {
    case TYPE.A:
      if (!isIPv4(answer.value)) throw new DnsWireError(`not an IPv4 address: ${answer.value}`);
      return Buffer.from(answer.value.split('.').map(Number));
    case TYPE.AAAA: {
      if (!isIPv6(answer.value)) throw new DnsWireError(`not an IPv6 address: ${answer.value}`);
      const [head = '', tail = ''] = answer.value.split('::');
      const h = head ? head.split(':') : [];
      const t = tail ? tail.split(':') : [];
      const groups = answer.value.includes('::') ? [...h, ...new Array<string>(8 - h.length - t.length).fill('0'), ...t] : h;
      const out = Buffer.alloc(16);
      groups.forEach((g, i) => out.writeUInt16BE(parseInt(g, 16), i * 2));
      return out;
    }
    case TYPE.CNAME:
      return encodeName(answer.value);
    case TYPE.TXT: {
      const chunks: Buffer[] = [];
      const text = Buffer.from(answer.value, 'utf8');
      for (let i = 0; i < text.length || i === 0; i += 255) {
        const part = text.subarray(i, i + 255);
        chunks.push(Buffer.from([part.length]), part);
      }
      return Buffer.concat(chunks);
    }
    default:
      throw new DnsWireError(`unsupported record type ${answer.type}`);
  }
}

/** A response to `query`: its ID and RD flag, QR and RA set, the question echoed, the answers pointing at it. */
export function buildResponse(query: Buffer, question: Question, rcode: number, answers: readonly Answer[] = []): Buffer {
  const header = Buffer.alloc(12);
  header.writeUInt16BE(query.readUInt16BE(0), 0);
  const rd = query.readUInt16BE(2) & 0x0100;
  header.writeUInt16BE(0x8000 | 0x0400 | rd | 0x0080 | (rcode & 0xf), 2); // QR, AA, RD, RA, rcode
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(answers.length, 6);
  const records = answers.map((a) => {
    const data = rdata(a);
    const fixed = Buffer.alloc(12);
    fixed.writeUInt16BE(0xc00c, 0); // pointer to the question's name
    fixed.writeUInt16BE(a.type, 2);
    fixed.writeUInt16BE(1, 4); // IN
    fixed.writeUInt32BE(a.ttl, 6);
    fixed.writeUInt16BE(data.length, 10);
    return Buffer.concat([fixed, data]);
  });
  return Buffer.concat([header, question.raw, ...records]);
}
