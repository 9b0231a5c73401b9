// The DNS responder of a dns-disruption (upstream's network/dns_responder.go): answers the configured records
// on UDP (and TCP) and forwards every other query to the target's nameservers. A record's value may be
// NXDOMAIN, SERVFAIL, DROP (no answer: the client times out) or RANDOM (a documentation address); A and AAAA
// values may list several addresses separated by commas, answered in turn. MX and SRV records are not
// answered (SERVFAIL). Messages are read and written with dns-packet, the project's one DNS wire library.
import { createSocket, type Socket } from 'node:dgram';
import { connect, createServer, isIPv4, isIPv6, type Server } from 'node:net';
import * as dnsPacket from 'dns-packet';
import type { Answer, DecodedPacket } from 'dns-packet';
import type { DnsRecord } from './dns-records.ts';
import type { DnsResponder, DnsResponderConfig } from '../dns-disruption.ts';

export const RCODE = { NOERROR: 0, SERVFAIL: 2, NXDOMAIN: 3 } as const;
const FORWARD_TIMEOUT_MS = 5_000;

/** upstream's findRecord: exact name and type; a CNAME answers A/AAAA; else the longest matching parent domain. */
export function findRecord(records: readonly DnsRecord[], name: string, type: string): DnsRecord | undefined {
  const matchesType = (r: DnsRecord) => r.type === type || ((type === 'A' || type === 'AAAA') && r.type === 'CNAME');
  const host = (r: DnsRecord) => r.hostname.toLowerCase().replace(/\.$/, '');
  const exact = records.find((r) => host(r) === name && r.type === type) ?? records.find((r) => host(r) === name && matchesType(r));
  if (exact) return exact;
  let best: DnsRecord | undefined;
  for (const r of records) if (matchesType(r) && name.endsWith(`.${host(r)}`) && host(r).length > (best ? host(best).length : 0)) best = r;
  return best;
}

/** A response to the query: its ID, RD flag and question; AA and RA set. */
function response(query: DecodedPacket, rcode: number, answers: Answer[] = []): Buffer {
  const flags = dnsPacket.AUTHORITATIVE_ANSWER | dnsPacket.RECURSION_AVAILABLE | ((query.flags ?? 0) & dnsPacket.RECURSION_DESIRED) | rcode;
  return dnsPacket.encode({ type: 'response', id: query.id ?? 0, flags, questions: query.questions ?? [], answers });
}

/** One answer record; a value that is not what the type holds throws (the query gets SERVFAIL). */
function answerRecord(name: string, type: string, ttl: number, value: string): Answer {
  switch (type) {
    case 'A':
      if (!isIPv4(value)) throw new Error(`not an IPv4 address: ${value}`);
      return { type: 'A', name, ttl, data: value };
    case 'AAAA':
      if (!isIPv6(value)) throw new Error(`not an IPv6 address: ${value}`);
      return { type: 'AAAA', name, ttl, data: value };
    case 'CNAME':
      return { type: 'CNAME', name, ttl, data: value };
    case 'TXT': {
      const text = Buffer.from(value, 'utf8');
      const chunks: Buffer[] = [];
      for (let i = 0; i < text.length || i === 0; i += 255) chunks.push(text.subarray(i, i + 255));
      return { type: 'TXT', name, ttl, data: chunks };
    }
    default:
      throw new Error(`unsupported record type ${type}`);
  }
}

/** The answer to a decoded query, or undefined to forward it, or null to drop it. */
export function answerFor(records: readonly DnsRecord[], query: DecodedPacket, next: (r: DnsRecord, ips: string[]) => string): Buffer | null | undefined {
  const question = query.questions?.[0];
  if (!question) return null;
  const name = question.name.toLowerCase().replace(/\.$/, '');
  const record = findRecord(records, name, question.type);
  if (!record) return undefined;
  const special = record.value.trim().toUpperCase();
  if (special === 'DROP') return null;
  if (special === 'NXDOMAIN') return response(query, RCODE.NXDOMAIN);
  if (special === 'SERVFAIL') return response(query, RCODE.SERVFAIL);
  try {
    if (special === 'RANDOM') {
      const r = () => Math.floor(Math.random() * 65536);
      const value = record.type === 'AAAA' ? `2001:db8:${r().toString(16)}:${r().toString(16)}::1` : `192.0.2.${Math.floor(Math.random() * 256)}`;
      return response(query, RCODE.NOERROR, [answerRecord(question.name, record.type === 'AAAA' ? 'AAAA' : 'A', record.ttl, value)]);
    }
    if (record.type === 'A' || record.type === 'AAAA') {
      const ips = record.value.split(',').map((v) => v.trim()).filter((v) => v !== '');
      return response(query, RCODE.NOERROR, [answerRecord(question.name, record.type, record.ttl, next(record, ips))]);
    }
    return response(query, RCODE.NOERROR, [answerRecord(question.name, record.type, record.ttl, record.value)]);
  } catch {
    return response(query, RCODE.SERVFAIL);
  }
}

function splitHostPort(server: string): { host: string; port: number } {
  const m = /^\[(.+)\]:(\d+)$/.exec(server) ?? /^([^:]+):(\d+)$/.exec(server);
  return m ? { host: m[1] ?? server, port: Number(m[2]) } : { host: server, port: 53 };
}

/** Forwards a query over UDP to the first nameserver that answers. */
async function forwardUdp(query: Buffer, upstreams: readonly string[]): Promise<Buffer | undefined> {
  for (const server of upstreams) {
    const { host, port } = splitHostPort(server);
    const answer = await new Promise<Buffer | undefined>((resolve) => {
      const socket = createSocket(host.includes(':') ? 'udp6' : 'udp4');
      const timer = setTimeout(() => finish(undefined), FORWARD_TIMEOUT_MS);
      const finish = (value: Buffer | undefined) => {
        clearTimeout(timer);
        socket.close();
        resolve(value);
      };
      socket.on('error', () => finish(undefined));
      socket.on('message', (msg) => finish(msg));
      socket.send(query, port, host);
    });
    if (answer) return answer;
  }
  return undefined;
}

export async function startDnsResponder(config: DnsResponderConfig, bindAddress = '0.0.0.0'): Promise<DnsResponder & { udpPort: number; tcpPort: number }> {
  const rotation = new Map<DnsRecord, number>();
  const next = (record: DnsRecord, ips: string[]): string => {
    const i = rotation.get(record) ?? 0;
    rotation.set(record, (i + 1) % Math.max(ips.length, 1));
    return ips[i % Math.max(ips.length, 1)] ?? '';
  };
  const respond = async (query: Buffer): Promise<Buffer | null> => {
    let decoded: DecodedPacket;
    try {
      decoded = dnsPacket.decode(query);
    } catch {
      return null; // not DNS: no answer, as a server that cannot parse it
    }
    const answer = answerFor(config.records, decoded, next);
    if (answer !== undefined) return answer;
    return (await forwardUdp(query, config.upstreamDns)) ?? response(decoded, RCODE.SERVFAIL);
  };

  let udp: Socket | undefined;
  let tcp: Server | undefined;
  if (config.protocol === 'udp' || config.protocol === 'both') {
    const socket = createSocket('udp4');
    socket.on('message', (msg, rinfo) => {
      void respond(msg).then((answer) => {
        if (answer) socket.send(answer, rinfo.port, rinfo.address);
      });
    });
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.bind(config.udpPort, bindAddress, () => resolve());
    });
    udp = socket;
  }
  if (config.protocol === 'tcp' || config.protocol === 'both') {
    const server = createServer((conn) => {
      let buffered = Buffer.alloc(0);
      conn.on('error', () => conn.destroy());
      conn.on('data', (chunk: Buffer) => {
        buffered = Buffer.concat([buffered, chunk]);
        while (buffered.length >= 2 && buffered.length >= 2 + buffered.readUInt16BE(0)) {
          const query = buffered.subarray(2, 2 + buffered.readUInt16BE(0));
          buffered = buffered.subarray(2 + query.length);
          void respond(query).then((answer) => {
            if (!answer) return;
            const length = Buffer.alloc(2);
            length.writeUInt16BE(answer.length);
            conn.write(Buffer.concat([length, answer]));
          });
        }
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.tcpPort, bindAddress, () => resolve());
    });
    tcp = server;
  }
  const udpAddress = udp?.address();
  const tcpAddress = tcp?.address();
  return {
    udpPort: udpAddress ? udpAddress.port : 0,
    tcpPort: tcpAddress && typeof tcpAddress === 'object' ? tcpAddress.port : 0,
    stop: async () => {
      if (udp) await new Promise<void>((resolve) => udp.close(() => resolve()));
      if (tcp) await new Promise<void>((resolve) => tcp.close(() => resolve()));
    },
  };
}

/** For tests and tools: one query over TCP (length-prefixed). */
export function queryTcp(host: string, port: number, query: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const conn = connect(port, host, () => {
      const length = Buffer.alloc(2);
      length.writeUInt16BE(query.length);
      conn.write(Buffer.concat([length, query]));
    });
    let buffered = Buffer.alloc(0);
    conn.on('data', (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      if (buffered.length >= 2 && buffered.length >= 2 + buffered.readUInt16BE(0)) {
        conn.end();
        resolve(buffered.subarray(2, 2 + buffered.readUInt16BE(0)));
      }
    });
    conn.on('error', reject);
  });
}
