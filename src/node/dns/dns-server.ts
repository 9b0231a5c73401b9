// DNS over UDP and TCP on one address and port (RFC 1035, RFC 7766): each UDP datagram is a query; a TCP
// connection carries length-framed queries, answered as they complete, and is closed after 10 s of silence.
import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { createServer, isIPv6, type Server, type Socket } from 'node:net';
import { lengthPrefix, type Transport } from './upstream-forwarder.ts';

export interface DnsServerOptions {
  host: string;
  /** 0 picks a port free for both UDP and TCP. */
  port: number;
  answer(query: Buffer, transport: Transport): Promise<Buffer | undefined>;
  onError(error: unknown): void;
}

export interface RunningDnsServer {
  readonly host: string;
  readonly port: number;
  close(): Promise<void>;
}

const TCP_IDLE_TIMEOUT_MS = 10_000;
/** With port 0, how often to try another port when the TCP side of the UDP port is taken. */
const PORT_ATTEMPTS = 5;

function listenUdp(host: string, port: number): Promise<UdpSocket> {
  const socket = createSocket(isIPv6(host) ? 'udp6' : 'udp4');
  return new Promise((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(port, host, () => {
      socket.off('error', reject);
      resolve(socket);
    });
  });
}

function listenTcp(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** Reads length-framed messages off a TCP connection and writes each answer back framed. */
function serveConnection(socket: Socket, options: DnsServerOptions): void {
  let buffered = Buffer.alloc(0);
  socket.setTimeout(TCP_IDLE_TIMEOUT_MS, () => socket.destroy());
  socket.on('error', () => socket.destroy());
  socket.on('data', (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    while (buffered.length >= 2 && buffered.length >= 2 + buffered.readUInt16BE(0)) {
      const query = buffered.subarray(2, 2 + buffered.readUInt16BE(0));
      buffered = buffered.subarray(2 + query.length);
      options.answer(query, 'tcp').then(
        (response) => {
          if (response !== undefined && !socket.destroyed) socket.write(Buffer.concat([lengthPrefix(response.length), response]));
        },
        (error: unknown) => options.onError(error),
      );
    }
  });
}

export async function startDnsServer(options: DnsServerOptions): Promise<RunningDnsServer> {
  const connections = new Set<Socket>();
  const tcp = createServer((socket) => {
    connections.add(socket);
    socket.on('close', () => connections.delete(socket));
    serveConnection(socket, options);
  });
  let udp: UdpSocket | undefined;
  for (let attempt = 1; udp === undefined; attempt++) {
    const candidate = await listenUdp(options.host, options.port);
    try {
      await listenTcp(tcp, options.host, candidate.address().port);
      udp = candidate;
    } catch (error) {
      candidate.close();
      if (options.port !== 0 || attempt >= PORT_ATTEMPTS) throw error;
    }
  }
  const socket = udp;
  socket.on('error', (error) => options.onError(error));
  socket.on('message', (query, from) => {
    options.answer(query, 'udp').then(
      (response) => {
        if (response !== undefined) socket.send(response, from.port, from.address);
      },
      (error: unknown) => options.onError(error),
    );
  });
  return {
    host: options.host,
    port: socket.address().port,
    async close() {
      for (const connection of connections) connection.destroy();
      await Promise.all([new Promise<void>((resolve) => socket.close(() => resolve())), new Promise<void>((resolve) => tcp.close(() => resolve()))]);
    },
  };
}
