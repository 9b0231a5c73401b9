// `kubectl port-forward` on the node: a SPDY session (raw after `Upgrade: SPDY/3.1`, or tunnelled in a
// WebSocket) whose streams come in pairs, one `streamtype: error` and one `streamtype: data`, sharing a
// `requestid` and naming the pod's `port`. Each pair is one local connection of kubectl's: the data stream is
// joined to a TCP connection to the pod's port from the host (its IP on the bridge; 127.0.0.1 for a
// host-network pod), and a connection that fails is reported on the error stream in kubelet's words, which
// kubectl prints as "an error occurred forwarding L -> P: …".
import { connect, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { ForwardTarget } from '../agent/running-containers.ts';
import { SpdySession, type SpdyStream } from './spdy/session.ts';

/** X-Stream-Protocol-Version of port-forward over SPDY (kubelet's portforward.k8s.io, its only version). */
export const PORT_FORWARD_PROTOCOL = 'portforward.k8s.io';
/** The WebSocket subprotocol of KEP-4006's tunnel: SPDY's bytes inside binary messages (kubectl 1.30+). */
export const PORT_FORWARD_TUNNEL_PROTOCOL = 'SPDY/3.1+portforward.k8s.io';

interface Pair {
  data?: SpdyStream;
  error?: SpdyStream;
}

/** Go's wording of a failed dial, which kubectl users know from kubelet's messages. */
function dialError(address: string, port: number, error: NodeJS.ErrnoException): string {
  const why: Record<string, string> = { ECONNREFUSED: 'connection refused', EHOSTUNREACH: 'no route to host', ETIMEDOUT: 'connection timed out', ENETUNREACH: 'network is unreachable' };
  return `dial tcp4 ${address}:${port}: connect: ${why[error.code ?? ''] ?? error.message}`;
}

function parsePort(value: string | undefined): number | string {
  if (value === undefined || value === '') return '"port" header is required';
  const port = Number(value);
  if (!/^\d+$/.test(value) || port < 1 || port > 65535) return `unable to parse "${value}" as a port: invalid port`;
  return port;
}

function forward(target: ForwardTarget, pair: Required<Pair>): void {
  const { data, error } = pair;
  const port = parsePort(data.header('port'));
  // Once the pod's side is gone, what kubectl still sends on the data stream is dropped: left unread it would
  // stop the whole session (its transport pauses) before kubectl's RST_STREAM for it could be read.
  const discardIncoming = () => {
    data.unpipe();
    data.resume();
  };
  const fail = (message: string) => {
    discardIncoming();
    error.end(message);
    data.end();
  };
  if (typeof port === 'string') return fail(port);
  const socket: Socket = connect({ host: target.address, port });
  socket.once('connect', () => {
    socket.pipe(data);
    data.pipe(socket);
  });
  socket.once('error', (cause: NodeJS.ErrnoException) => {
    if (socket.connecting || socket.bytesRead + socket.bytesWritten === 0) {
      fail(`error forwarding port ${port} to pod ${target.pod}, uid ${target.uid}: ${dialError(target.address, port, cause)}`);
    } else data.reset();
  });
  // The pod's side ended: the client reads the data stream's end, then the (empty) error stream's.
  socket.once('close', () => {
    discardIncoming();
    if (!error.writableEnded) error.end();
  });
  data.once('close', () => socket.destroy());
}

/** Serves one port-forward session on transport until the client goes away. */
export function servePortForward(transport: Duplex, target: ForwardTarget, initial?: Buffer): SpdySession {
  const pairs = new Map<string, Pair>();
  return new SpdySession(
    transport,
    (stream) => {
      stream.reply();
      stream.on('error', () => undefined);
      const requestId = stream.header('requestid') ?? '';
      const kind = stream.header('streamtype');
      if (kind !== 'data' && kind !== 'error') {
        stream.reset();
        return;
      }
      const pair = pairs.get(requestId) ?? {};
      pair[kind] = stream;
      pairs.set(requestId, pair);
      if (pair.data && pair.error) {
        pairs.delete(requestId);
        forward(target, { data: pair.data, error: pair.error });
      }
    },
    initial,
  );
}
