// The DNS responder of a dns-disruption (upstream's network/dns_responder.go): answers the configured records
// on UDP (and TCP) and forwards every other query to the target's nameservers. A record's value may be
// NXDOMAIN, SERVFAIL, DROP (no answer: the client times out) or RANDOM (a documentation address); A and AAAA
// values may list several addresses separated by commas, answered in turn. MX and SRV records are not
// answered (SERVFAIL).
import { createSocket, type Socket } from 'node:dgram';
import { createServer, connect, type Server } from 'node:net';
import type { DnsRecord } from './dns-records.ts';
import type { DnsResponder, DnsResponderConfig } from '../dns-disruption.ts';
import { buildResponse, parseQuestion, RCODE, TYPE, type Question } from './dns-wire.ts';

const TYPE_NAMES: Record<number, string> = { [TYPE.A]: 'A', [TYPE.AAAA]: 'AAAA', [TYPE.CNAME]: 'CNAME', [TYPE.MX]: 'MX', [TYPE.TXT]: 'TXT', [TYPE.SRV]: 'SRV' };
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

/** The answer to a query, or undefined to forward it, or null to drop it. */
export function answerFor(records: readonly DnsRecord[], query: Buffer, question: Question, next: (r: DnsRecord, ips: string[]) => string): Buffer | null | undefined {
  const typeName = TYPE_NAMES[question.type] ?? String(question.type);
  const record = findRecord(records, question.name, typeName);
  if (!record) return undefined;
  const special = record.value.trim().toUpperCase();
  if (special === 'DROP') return null;
  if (special === 'NXDOMAIN') return buildResponse(query, question, RCODE.NXDOMAIN);
  if (special === 'SERVFAIL') return buildResponse(query, question, RCODE.SERVFAIL);
  try {
    if (special === 'RANDOM') {
      const r = () => Math.floor(Math.random() * 65536);
      const value = record.type === 'AAAA' ? `2001:db8:${r().toString(16)}:${r().toString(16)}::1` : `192.0.2.${Math.floor(Math.random() * 256)}`;
      return buildResponse(query, question, RCODE.NOERROR, [{ type: record.type === 'AAAA' ? TYPE.AAAA : TYPE.A, ttl: record.ttl, value }]);
    }
    switch (record.type) {
      case 'A':
      case 'AAAA': {
        const ips = record.value.split(',').map((v) => v.trim()).filter((v) => v !== '');
        return buildResponse(query, question, RCODE.NOERROR, [{ type: TYPE[record.type], ttl: record.ttl, value: next(record, ips) }]);
      }
      case 'CNAME':
        return buildResponse(query, question, RCODE.NOERROR, [{ type: TYPE.CNAME, ttl: record.ttl, value: record.value }]);
      case 'TXT':
        return buildResponse(query, question, RCODE.NOERROR, [{ type: TYPE.TXT, ttl: record.ttl, value: record.value }]);
      default:
        return buildResponse(query, question, RCODE.SERVFAIL);
    }
  } catch {
    return buildResponse(query, question, RCODE.SERVFAIL);
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
    let question: Question;
    try {
      question = parseQuestion(query);
    } catch {
      return null;
    }
    const answer = answerFor(config.records, query, question, next);
    if (answer !== undefined) return answer;
    return (await forwardUdp(query, config.upstreamDns)) ?? buildResponse(query, question, RCODE.SERVFAIL);
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
