// The kubelet API's /portForward over a raw SPDY upgrade, driven by a small SPDY client made of the same frame
// and header-block code (kubectl's Go client is exercised in e2e/kubectl-port-forward-attach.test.ts): the
// handshake, stream pairs joined to a TCP server on 127.0.0.1 (where a host-network pod listens), PING, a
// refused port on the error stream, and the refusals before the upgrade.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, type TLSSocket } from 'node:tls';
import type { ForwardTarget, RunningContainers } from '../../src/node/agent/running-containers.ts';
import { loadOrCreateKubeletPki } from '../../src/node/kubelet-api/kubelet-pki.ts';
import { startKubeletApi, type RunningKubeletApi } from '../../src/node/kubelet-api/server.ts';
import { encodeFrame, FLAG_FIN, FrameParser, type Frame } from '../../src/node/kubelet-api/spdy/frames.ts';
import { HeaderCompressor, HeaderDecompressor } from '../../src/node/kubelet-api/spdy/header-compression.ts';

let pkiDir: string;
let api: RunningKubeletApi;
let tls: { ca: string; cert: string; key: string };
/** "The pod": greets, then echoes what it reads in upper case until the client half-closes. */
let pod: Server;
let podPort: number;

const target: ForwardTarget = { address: '127.0.0.1', pod: 'hostnet', uid: 'uid-1' };
const containers: RunningContainers = {
  running: () => undefined,
  logPath: () => undefined,
  forwardTarget: (ref) => (ref.pod === 'hostnet' ? target : undefined),
};

before(async () => {
  pkiDir = await mkdtemp(join(tmpdir(), 'bosun-kubelet-pki-'));
  const pki = await loadOrCreateKubeletPki(pkiDir);
  tls = { ca: pki.ca, cert: pki.apiserverClient.cert, key: pki.apiserverClient.key };
  api = await startKubeletApi({ containers, tls: { cert: pki.kubelet.cert, key: pki.kubelet.key, clientCA: pki.ca } });
  pod = createServer((socket) => {
    socket.write('hello\n');
    socket.on('data', (d: Buffer) => socket.write(d.toString().toUpperCase()));
    socket.on('end', () => socket.end('bye\n'));
  });
  await new Promise<void>((resolve) => pod.listen(0, '127.0.0.1', resolve));
  podPort = (pod.address() as AddressInfo).port;
});
after(async () => {
  await api.close();
  await new Promise((resolve) => pod.close(resolve));
  await rm(pkiDir, { recursive: true, force: true });
});

/** Sends an upgrade request; resolves with the answer's head and the socket, positioned after it. */
function upgrade(path: string, headers: Record<string, string>): Promise<{ head: string; socket: TLSSocket; rest: Buffer }> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port: api.port, ...tls, servername: 'localhost' });
    socket.once('error', reject);
    socket.once('secureConnect', () => {
      const lines = [`POST ${path} HTTP/1.1`, 'Host: kubelet', ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
      socket.write(`${lines.join('\r\n')}\r\n\r\n`);
    });
    let received = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const end = received.indexOf('\r\n\r\n');
      if (end < 0) return;
      socket.off('data', onData);
      socket.pause();
      resolve({ head: received.subarray(0, end).toString(), socket, rest: received.subarray(end + 4) });
    };
    socket.on('data', onData);
  });
}

/** The client half of a SPDY session, frame by frame. */
class SpdyClient {
  private readonly parser = new FrameParser();
  private readonly compressor = new HeaderCompressor();
  private readonly decompressor = new HeaderDecompressor();
  private readonly frames: Frame[] = [];
  private wake = () => undefined as void;
  private nextId = 1;

  constructor(private readonly socket: TLSSocket, rest: Buffer) {
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    socket.resume();
    if (rest.length > 0) this.receive(rest);
  }

  private receive(chunk: Buffer): void {
    this.frames.push(...this.parser.push(chunk));
    this.wake();
  }

  async open(headers: Record<string, string>): Promise<number> {
    const streamId = this.nextId;
    this.nextId += 2;
    const headerBlock = await this.compressor.compress(new Map(Object.entries(headers).map(([k, v]) => [k, [v]])));
    this.socket.write(encodeFrame({ type: 'synStream', streamId, associatedTo: 0, priority: 0, flags: 0, headerBlock }));
    const reply = await this.next((f) => f.type === 'synReply' && f.streamId === streamId);
    assert.equal(reply.type, 'synReply');
    if (reply.type === 'synReply') assert.deepEqual(await this.decompressor.decompress(reply.headerBlock), new Map());
    return streamId;
  }

  send(frame: Frame): void {
    this.socket.write(encodeFrame(frame));
  }

  /** The first frame (in arrival order) that matches, taken out of the queue. */
  async next(matches: (frame: Frame) => boolean): Promise<Frame> {
    for (;;) {
      const index = this.frames.findIndex(matches);
      if (index >= 0) return this.frames.splice(index, 1)[0]!;
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  /** A stream's data until its FIN. */
  async readAll(streamId: number): Promise<string> {
    let text = '';
    for (;;) {
      const frame = await this.next((f) => f.type === 'data' && f.streamId === streamId);
      if (frame.type !== 'data') continue;
      text += frame.data.toString();
      if ((frame.flags & FLAG_FIN) !== 0) return text;
    }
  }

  close(): void {
    this.compressor.close();
    this.decompressor.close();
    this.socket.destroy();
  }
}

const spdyHeaders = { Connection: 'Upgrade', Upgrade: 'SPDY/3.1', 'X-Stream-Protocol-Version': 'portforward.k8s.io' };

test('SPDY upgrade: a pair of streams reaches the pod port on 127.0.0.1 both ways; PING is answered', async () => {
  const { head, socket, rest } = await upgrade('/portForward/default/hostnet', spdyHeaders);
  assert.match(head, /^HTTP\/1\.1 101 Switching Protocols\r\n/);
  assert.match(head, /\r\nX-Stream-Protocol-Version: portforward\.k8s\.io(\r\n|$)/);
  const client = new SpdyClient(socket, rest);
  client.send({ type: 'ping', id: 1 });
  assert.deepEqual(await client.next((f) => f.type === 'ping'), { type: 'ping', id: 1 });
  // kubectl's order: the error stream first (half-closed at once), then the data stream.
  const error = await client.open({ streamtype: 'error', port: String(podPort), requestid: '0' });
  client.send({ type: 'data', streamId: error, flags: FLAG_FIN, data: Buffer.alloc(0) });
  const data = await client.open({ streamtype: 'data', port: String(podPort), requestid: '0' });
  const greeting = await client.next((f) => f.type === 'data' && f.streamId === data);
  assert.equal(greeting.type === 'data' && greeting.data.toString(), 'hello\n');
  client.send({ type: 'data', streamId: data, flags: 0, data: Buffer.from('abc\n') });
  client.send({ type: 'data', streamId: data, flags: FLAG_FIN, data: Buffer.alloc(0) });
  assert.equal(await client.readAll(data), 'ABC\nbye\n');
  // Nothing went wrong: the error stream ends empty.
  assert.equal(await client.readAll(error), '');
  client.close();
});

test('a port nothing listens on: kubelet\'s message on the error stream, the data stream ends', async () => {
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const deadPort = (closed.address() as AddressInfo).port;
  await new Promise((resolve) => closed.close(resolve));
  const { socket, rest } = await upgrade('/portForward/default/hostnet', spdyHeaders);
  const client = new SpdyClient(socket, rest);
  const error = await client.open({ streamtype: 'error', port: String(deadPort), requestid: '7' });
  const data = await client.open({ streamtype: 'data', port: String(deadPort), requestid: '7' });
  assert.equal(await client.readAll(error), `error forwarding port ${deadPort} to pod hostnet, uid uid-1: dial tcp4 127.0.0.1:${deadPort}: connect: connection refused`);
  assert.equal(await client.readAll(data), '');
  // The session itself goes on: a bad port header is the next pair's error.
  const badError = await client.open({ streamtype: 'error', port: 'http', requestid: '8' });
  await client.open({ streamtype: 'data', port: 'http', requestid: '8' });
  assert.equal(await client.readAll(badError), 'unable to parse "http" as a port: invalid port');
  client.close();
});

test('8 MiB each way in 64 KiB frames arrive whole and in order', async () => {
  const blob = Buffer.alloc(8 * 1024 * 1024);
  // Printable ASCII, so that text comparison is byte comparison.
  for (let i = 0; i < blob.length; i++) blob[i] = 32 + ((i * 7) % 95);
  const { socket, rest } = await upgrade('/portForward/default/hostnet', spdyHeaders);
  const client = new SpdyClient(socket, rest);
  const error = await client.open({ streamtype: 'error', port: String(podPort), requestid: '0' });
  const data = await client.open({ streamtype: 'data', port: String(podPort), requestid: '0' });
  for (let offset = 0; offset < blob.length; offset += 65536) client.send({ type: 'data', streamId: data, flags: 0, data: blob.subarray(offset, offset + 65536) });
  client.send({ type: 'data', streamId: data, flags: FLAG_FIN, data: Buffer.alloc(0) });
  const echoed = await client.readAll(data);
  // The pod greets, echoes in upper case and says bye.
  assert.equal(echoed.length, 'hello\n'.length + blob.length + 'bye\n'.length);
  assert.equal(echoed, `hello\n${blob.toString().toUpperCase()}bye\n`);
  assert.equal(await client.readAll(error), '');
  client.close();
});

test('a pod that hangs up while the client still sends: the rest is dropped and the session goes on', async () => {
  const rude = createServer((socket) => socket.end('no\n'));
  await new Promise<void>((resolve) => rude.listen(0, '127.0.0.1', resolve));
  const rudePort = String((rude.address() as AddressInfo).port);
  const { socket, rest } = await upgrade('/portForward/default/hostnet', spdyHeaders);
  const client = new SpdyClient(socket, rest);
  const error = await client.open({ streamtype: 'error', port: rudePort, requestid: '0' });
  const data = await client.open({ streamtype: 'data', port: rudePort, requestid: '0' });
  assert.equal(await client.readAll(data), 'no\n');
  // Far more than any buffer holds, sent after the pod's side is gone, then kubectl's reset.
  const chunk = Buffer.alloc(65536, 'x');
  for (let i = 0; i < 128; i++) client.send({ type: 'data', streamId: data, flags: 0, data: chunk });
  client.send({ type: 'rstStream', streamId: data, status: 5 });
  assert.equal(await client.readAll(error), '');
  // The session still reads: a new pair reaches the greeting pod.
  await client.open({ streamtype: 'error', port: String(podPort), requestid: '1' });
  const next = await client.open({ streamtype: 'data', port: String(podPort), requestid: '1' });
  const greeting = await client.next((f) => f.type === 'data' && f.streamId === next);
  assert.equal(greeting.type === 'data' && greeting.data.toString(), 'hello\n');
  client.close();
  await new Promise((resolve) => rude.close(resolve));
});

test('refusals before the upgrade: unknown pod, no port-forward protocol, not an upgrade', async () => {
  const unknown = await upgrade('/portForward/default/nope', spdyHeaders);
  assert.match(unknown.head, /^HTTP\/1\.1 404 /);
  unknown.socket.destroy();
  const noVersion = await upgrade('/portForward/default/hostnet', { Connection: 'Upgrade', Upgrade: 'SPDY/3.1', 'X-Stream-Protocol-Version': 'v4.channel.k8s.io' });
  assert.match(noVersion.head, /^HTTP\/1\.1 403 /);
  noVersion.socket.destroy();
  const containerPath = await upgrade('/portForward/default/hostnet/c', spdyHeaders);
  assert.match(containerPath.head, /^HTTP\/1\.1 404 /);
  containerPath.socket.destroy();
});
