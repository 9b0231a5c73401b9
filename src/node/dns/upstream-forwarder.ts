// Names outside the cluster go to the host's resolvers: each query is sent as it came, over the transport it
// came on, to each upstream in turn until one answers within the timeout (CoreDNS's forward plugin, without
// its health checks and connection reuse). A fresh socket per query keeps concurrent queries with the same
// id apart.
import { createSocket } from 'node:dgram';
import { connect, isIPv6 } from 'node:net';

export interface Upstream {
  address: string;
  port: number;
}

export type Transport = 'udp' | 'tcp';

/** CoreDNS's forward plugin waits 2 s for an upstream's answer. */
export const DEFAULT_UPSTREAM_TIMEOUT_MS = 2000;

function viaUdp(query: Buffer, upstream: Upstream, timeoutMs: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const socket = createSocket(isIPv6(upstream.address) ? 'udp6' : 'udp4');
    const done = (error: Error | undefined, answer?: Buffer) => {
      clearTimeout(timer);
      socket.close();
      if (error) reject(error);
      else resolve(answer as Buffer);
    };
    const timer = setTimeout(() => done(new Error(`${upstream.address}:${upstream.port} did not answer within ${timeoutMs} ms`)), timeoutMs);
    socket.on('error', (error) => done(error));
    socket.on('message', (message, from) => {
      // Only the upstream's answer to this query (same id) counts.
      if (from.address === upstream.address && from.port === upstream.port && message.length >= 2 && message.readUInt16BE(0) === query.readUInt16BE(0)) done(undefined, message);
    });
    socket.send(query, upstream.port, upstream.address, (error) => {
      if (error) done(error);
    });
  });
}

function viaTcp(query: Buffer, upstream: Upstream, timeoutMs: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: upstream.address, port: upstream.port });
    let received = Buffer.alloc(0);
    const done = (error: Error | undefined, answer?: Buffer) => {
      clearTimeout(timer);
      socket.destroy();
      if (error) reject(error);
      else resolve(answer as Buffer);
    };
    const timer = setTimeout(() => done(new Error(`${upstream.address}:${upstream.port} did not answer within ${timeoutMs} ms`)), timeoutMs);
    socket.on('error', (error) => done(error));
    socket.on('connect', () => socket.write(Buffer.concat([lengthPrefix(query.length), query])));
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      if (received.length >= 2 && received.length >= 2 + received.readUInt16BE(0)) done(undefined, received.subarray(2, 2 + received.readUInt16BE(0)));
    });
    socket.on('end', () => done(new Error(`${upstream.address}:${upstream.port} closed the connection before answering`)));
  });
}

/** The two-byte length that frames a DNS message on TCP (RFC 1035 4.2.2). */
export function lengthPrefix(length: number): Buffer {
  const prefix = Buffer.alloc(2);
  prefix.writeUInt16BE(length);
  return prefix;
}

export class UpstreamForwarder {
  constructor(
    private readonly upstreams: readonly Upstream[],
    private readonly timeoutMs = DEFAULT_UPSTREAM_TIMEOUT_MS,
  ) {}

  /** The first upstream's answer, as it came; undefined when none answered (the caller answers SERVFAIL). */
  async forward(query: Buffer, transport: Transport): Promise<Buffer | undefined> {
    for (const upstream of this.upstreams) {
      try {
        return await (transport === 'tcp' ? viaTcp : viaUdp)(query, upstream, this.timeoutMs);
      } catch {
        // The next upstream; all failing is the caller's SERVFAIL.
      }
    }
    return undefined;
  }
}
