// The node's cluster DNS server against the embedded API server over HTTP: Services, EndpointSlices and Pods
// created through the API, asked with busybox's nslookup and with dns-packet over UDP and TCP; names outside
// the cluster forwarded to an upstream this test runs on 127.0.0.1.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { connect } from 'node:net';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import { decode, encode, streamDecode, streamEncode, RECURSION_DESIRED, type DecodedPacket, type Packet, type RecordType } from 'dns-packet';
import type { EndpointSlice, Pod, Service } from '../../src/apimachinery/api/index.ts';
import { endpointSlicesResource, namespacesResource, podsResource, servicesResource } from '../../src/apimachinery/builtin-resources.ts';
import type { KubeClient } from '../../src/client/client.ts';
import { createKubeClient } from '../../src/client/create-client.ts';
import { startClusterDns, type ClusterDns } from '../../src/node/dns/cluster-dns.ts';
import { startDnsServer, type RunningDnsServer } from '../../src/node/dns/dns-server.ts';
import { Informer } from '../../src/runtime/informer/informer.ts';
import { createLogger } from '../../src/runtime/logger.ts';
import { Changes } from '../client/wait.ts';
import { startTestServer, type TestServer } from '../helpers/api-server.ts';

const run = promisify(execFile);
const NS = 'dns-test';
const BIG = 60;

let server: TestServer;
let client: KubeClient;
let upstream: RunningDnsServer;
let dns: ClusterDns;
const upstreamQuestions: string[] = [];
const changes = new Changes();

/** The upstream: example.test has an address, silent.test never answers, anything else does not exist. */
async function startUpstream(): Promise<RunningDnsServer> {
  return startDnsServer({
    host: '127.0.0.1',
    port: 0,
    onError: () => undefined,
    answer: (message) => {
      const query = decode(message);
      const question = query.questions?.[0];
      upstreamQuestions.push(`${question?.name ?? ''} ${question?.type ?? ''}`);
      if (question?.name === 'silent.test') return Promise.resolve(undefined);
      const known = question?.name === 'example.test' && question.type === 'A';
      return Promise.resolve(encode({ type: 'response', id: query.id ?? 0, flags: RECURSION_DESIRED | (known ? 0 : 3), questions: query.questions ?? [], answers: known ? [{ type: 'A', name: 'example.test', ttl: 60, data: '192.0.2.7' }] : [] }));
    },
  });
}

before(async () => {
  server = await startTestServer();
  client = createKubeClient({ kubeconfig: server.kubeconfig });
  upstream = await startUpstream();
  dns = await startClusterDns({ client, nodeName: 'dns-node', address: '127.0.0.1', advertiseAddress: '192.0.2.53', port: 0, upstreams: [{ address: '127.0.0.1', port: upstream.port }], upstreamTimeoutMs: 500, logger: createLogger({ level: 'silent' }) });
  dns.index.onChange(changes.notify);
  await client.create(namespacesResource, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
  const service = (name: string, spec: Service['spec']) => client.create<Service>(servicesResource, { apiVersion: 'v1', kind: 'Service', metadata: { name, namespace: NS }, spec }, { namespace: NS });
  const slice = (name: string, serviceName: string, endpoints: EndpointSlice['endpoints'], ports: EndpointSlice['ports']) =>
    client.create<EndpointSlice>(endpointSlicesResource, { apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: { name, namespace: NS, labels: { 'kubernetes.io/service-name': serviceName } }, addressType: 'IPv4', endpoints, ports }, { namespace: NS });
  await service('echo', { type: 'ClusterIP', clusterIP: '10.96.7.7', clusterIPs: ['10.96.7.7'], ports: [{ name: 'http', port: 80, protocol: 'TCP', targetPort: 8080 }] });
  await service('web', { clusterIP: 'None', clusterIPs: ['None'], selector: { app: 'web' }, ports: [{ name: 'http', port: 80, protocol: 'TCP' }] });
  await slice('web-x1', 'web', [
    { addresses: ['10.244.9.5'], hostname: 'web-0', conditions: { ready: true } },
    { addresses: ['10.244.9.6'], hostname: 'web-1', conditions: { ready: true } },
    { addresses: ['10.244.9.7'], hostname: 'web-2', conditions: { ready: false } },
  ], [{ name: 'http', port: 8080, protocol: 'TCP' }]);
  await service('ext', { type: 'ExternalName', externalName: 'example.test' });
  await service('many', { clusterIP: 'None', clusterIPs: ['None'] });
  await slice('many-x1', 'many', Array.from({ length: BIG }, (_, i) => ({ addresses: [`10.244.10.${i + 1}`], conditions: { ready: true } })), []);
  const pod = await client.create<Pod>(podsResource, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'client', namespace: NS }, spec: { containers: [{ name: 'c', image: 'busybox' }] } }, { namespace: NS });
  await client.updateStatus<Pod>(podsResource, { ...pod, status: { phase: 'Running', podIP: '10.244.9.9', podIPs: [{ ip: '10.244.9.9' }] } }, { namespace: NS });
  const has = (name: string) => dns.index.lookup(name, 'A').kind === 'answer';
  await changes.until(() => ['echo', 'web', 'ext', 'many'].every((s) => has(`${s}.${NS}.svc.cluster.local`)) && has(`10-244-9-9.${NS}.pod.cluster.local`), 10_000, 'the records of the objects created');
});

after(async () => {
  await dns?.stop();
  await upstream?.close();
  await client?.close();
  await server?.close();
});

/** One query with dns-packet over UDP (optionally with EDNS0) or TCP. */
function ask(name: string, type: RecordType, transport: 'udp' | 'tcp' = 'udp', ednsSize?: number): Promise<DecodedPacket & { rcode?: string }> {
  const query: Packet = { type: 'query', id: Math.floor(Math.random() * 0xffff), flags: RECURSION_DESIRED, questions: [{ type, name }], ...(ednsSize ? { additionals: [{ type: 'OPT', name: '.', udpPayloadSize: ednsSize, extendedRcode: 0, ednsVersion: 0, flags: 0, flag_do: false, options: [] }] } : {}) };
  return new Promise((resolve, reject) => {
    if (transport === 'udp') {
      const socket = createSocket('udp4');
      socket.on('message', (message) => {
        socket.close();
        resolve(decode(message));
      });
      socket.on('error', reject);
      socket.send(encode(query), dns.port, '127.0.0.1');
      return;
    }
    const socket = connect({ host: '127.0.0.1', port: dns.port }, () => socket.write(streamEncode(query)));
    let received = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      if (received.length >= 2 && received.length >= 2 + received.readUInt16BE(0)) {
        socket.end();
        resolve(streamDecode(received) as DecodedPacket);
      }
    });
    socket.on('error', reject);
  });
}

const data = (packet: Packet) => (packet.answers ?? []).map((a) => (a.type === 'SRV' ? `SRV ${a.data.port} ${a.data.target}` : `${a.type} ${String('data' in a ? a.data : '')}`)).sort();

async function nslookup(...args: string[]): Promise<{ code: number; output: string }> {
  try {
    const { stdout } = await run('/bin/busybox', ['nslookup', ...args, `127.0.0.1:${dns.port}`]);
    return { code: 0, output: stdout };
  } catch (error) {
    const failed = error as { code: number; stdout: string };
    return { code: failed.code, output: failed.stdout };
  }
}

test('busybox nslookup: a ClusterIP Service, a headless Service\'s ready pods, a PTR, NXDOMAIN, an outside name', async () => {
  const echo = await nslookup(`echo.${NS}.svc.cluster.local`);
  assert.equal(echo.code, 0, echo.output);
  assert.match(echo.output, /Name:\s+echo\.dns-test\.svc\.cluster\.local\nAddress: 10\.96\.7\.7\n/);

  const web = await nslookup(`web.${NS}.svc.cluster.local`);
  assert.deepEqual([...web.output.matchAll(/Address: (10\.244\.9\.\d+)/g)].map((m) => m[1]).sort(), ['10.244.9.5', '10.244.9.6']);

  const ptr = await nslookup('10.244.9.5');
  assert.match(ptr.output, /5\.9\.244\.10\.in-addr\.arpa\s+name = web-0\.web\.dns-test\.svc\.cluster\.local/);

  const missing = await nslookup(`nothere.${NS}.svc.cluster.local`);
  assert.notEqual(missing.code, 0);
  assert.match(missing.output, /NXDOMAIN/);

  const outside = await nslookup('example.test');
  assert.match(outside.output, /Name:\s+example\.test\nAddress: 192\.0\.2\.7\n/);
});

test('dns-packet over UDP and TCP: A, SRV with addresses, PTR, CNAME followed upstream, NXDOMAIN and NODATA with the SOA', async () => {
  for (const transport of ['udp', 'tcp'] as const) {
    const a = await ask(`echo.${NS}.svc.cluster.local`, 'A', transport);
    assert.equal(a.rcode, 'NOERROR');
    assert.ok(a.flag_aa, 'authoritative for the cluster zone');
    assert.deepEqual(data(a), ['A 10.96.7.7']);

    const srv = await ask(`_http._tcp.web.${NS}.svc.cluster.local`, 'SRV', transport);
    assert.deepEqual(data(srv), [`SRV 8080 web-0.web.${NS}.svc.cluster.local`, `SRV 8080 web-1.web.${NS}.svc.cluster.local`]);
    assert.deepEqual((srv.additionals ?? []).map((r) => `${r.name} ${String((r as { data: unknown }).data)}`).sort(), [`web-0.web.${NS}.svc.cluster.local 10.244.9.5`, `web-1.web.${NS}.svc.cluster.local 10.244.9.6`]);
    assert.deepEqual(data(await ask(`_http._tcp.echo.${NS}.svc.cluster.local`, 'SRV', transport)), [`SRV 80 echo.${NS}.svc.cluster.local`]);

    assert.deepEqual(data(await ask('7.7.96.10.in-addr.arpa', 'PTR', transport)), [`PTR echo.${NS}.svc.cluster.local`]);
    assert.deepEqual(data(await ask(`ext.${NS}.svc.cluster.local`, 'A', transport)), ['A 192.0.2.7', 'CNAME example.test']);
    assert.deepEqual(data(await ask(`10-244-9-9.${NS}.pod.cluster.local`, 'A', transport)), ['A 10.244.9.9']);

    const nx = await ask(`nothere.${NS}.svc.cluster.local`, 'A', transport);
    assert.equal(nx.rcode, 'NXDOMAIN');
    assert.deepEqual(nx.authorities?.map((r) => `${r.type} ${r.name}`), ['SOA cluster.local']);
    const nodata = await ask(`echo.${NS}.svc.cluster.local`, 'AAAA', transport);
    assert.equal(nodata.rcode, 'NOERROR');
    assert.deepEqual(nodata.answers, []);
    assert.deepEqual(nodata.authorities?.map((r) => `${r.type} ${r.name}`), ['SOA cluster.local']);

    assert.deepEqual(data(await ask('example.test', 'A', transport)), ['A 192.0.2.7']);
    assert.equal((await ask('unknown.test', 'A', transport)).rcode, 'NXDOMAIN', 'the upstream\'s NXDOMAIN passes through');
  }
  assert.ok(upstreamQuestions.includes('example.test A'));
});

test('an upstream that does not answer is SERVFAIL; the cluster names still answer', async () => {
  const failed = await ask('silent.test', 'A');
  assert.equal(failed.rcode, 'SERVFAIL');
  assert.deepEqual(data(await ask(`echo.${NS}.svc.cluster.local`, 'A')), ['A 10.96.7.7']);
});

test('an answer too big for UDP is truncated (TC) and complete over TCP or with a large enough EDNS0 size', async () => {
  const name = `many.${NS}.svc.cluster.local`;
  const udp = await ask(name, 'A');
  assert.ok(udp.flag_tc, 'TC set on the 512-byte UDP answer');
  assert.deepEqual(udp.answers, []);
  assert.equal((await ask(name, 'A', 'tcp')).answers?.length, BIG);
  const edns = await ask(name, 'A', 'udp', 4096);
  assert.ok(!edns.flag_tc);
  assert.equal(edns.answers?.length, BIG);
  assert.ok((await ask(name, 'A', 'udp', 600)).flag_tc, 'a 600-byte EDNS0 buffer is still too small');
});

test('records follow the API: a Service deleted is NXDOMAIN, an endpoint turning ready appears', async () => {
  await client.delete(servicesResource, 'echo', { namespace: NS });
  await changes.until(() => dns.index.lookup(`echo.${NS}.svc.cluster.local`, 'A').kind === 'nxdomain', 10_000, 'echo gone');
  assert.equal((await ask(`echo.${NS}.svc.cluster.local`, 'A')).rcode, 'NXDOMAIN');
  const slice = await client.get<EndpointSlice>(endpointSlicesResource, 'web-x1', { namespace: NS });
  await client.update<EndpointSlice>(endpointSlicesResource, { ...slice, endpoints: slice.endpoints.map((e) => ({ ...e, conditions: { ready: true } })) }, { namespace: NS });
  await changes.until(() => dns.index.lookup(`web-2.web.${NS}.svc.cluster.local`, 'A').kind === 'answer', 10_000, 'web-2 ready');
  assert.deepEqual(data(await ask(`web.${NS}.svc.cluster.local`, 'A', 'tcp')), ['A 10.244.9.5', 'A 10.244.9.6', 'A 10.244.9.7']);
});

test('the node keeps the kube-dns-<node> EndpointSlice pointing at its server, and writes it again when deleted', async () => {
  const slices = new Informer<EndpointSlice>({ client, resource: endpointSlicesResource, namespace: 'kube-system', onError: () => undefined });
  const seen = new Changes();
  slices.addEventHandler({ onAdd: seen.notify, onUpdate: seen.notify, onDelete: seen.notify });
  slices.start();
  try {
    const current = () => slices.get('kube-dns-dns-node', 'kube-system');
    await seen.until(() => current() !== undefined, 10_000, 'the slice');
    const slice = current() as EndpointSlice;
    assert.deepEqual(slice.metadata.labels, { 'kubernetes.io/service-name': 'kube-dns', 'endpointslice.kubernetes.io/managed-by': 'bosun-node' });
    assert.deepEqual(slice.endpoints.map((e) => [e.addresses, e.conditions?.ready, e.nodeName]), [[['192.0.2.53'], true, 'dns-node']]);
    assert.deepEqual(slice.ports, [{ name: 'dns', protocol: 'UDP', port: dns.port }, { name: 'dns-tcp', protocol: 'TCP', port: dns.port }]);
    await client.delete(endpointSlicesResource, 'kube-dns-dns-node', { namespace: 'kube-system' });
    await seen.until(() => current() !== undefined && current()?.metadata.uid !== slice.metadata.uid, 10_000, 'the slice written again');
  } finally {
    await slices.stop();
  }
});

/** One raw UDP exchange. */
function exchange(message: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const socket = createSocket('udp4');
    socket.on('message', (answer) => {
      socket.close();
      resolve(answer);
    });
    socket.on('error', reject);
    socket.send(message, dns.port, '127.0.0.1');
  });
}

test('the question\'s spelling is kept; a malformed query is FORMERR, another opcode NOTIMP', async () => {
  const mixed = await ask(`WeB-0.Web.${NS.toUpperCase()}.svc.Cluster.Local`, 'A');
  assert.deepEqual(mixed.answers?.map((a) => a.name), [`WeB-0.Web.${NS.toUpperCase()}.svc.Cluster.Local`]);

  // A header that promises a question the message does not carry.
  const garbage = Buffer.from([0x12, 0x34, 0x01, 0x00, 0x00, 0x01, 0, 0, 0, 0, 0, 0, 0x05, 0x61]);
  const formerr = decode(await exchange(garbage)) as DecodedPacket & { rcode?: string };
  assert.equal(formerr.id, 0x1234);
  assert.equal(formerr.rcode, 'FORMERR');

  const status = encode({ type: 'query', id: 7, flags: 2 << 11, questions: [{ type: 'A', name: `web.${NS}.svc.cluster.local` }] });
  assert.equal((decode(await exchange(status)) as DecodedPacket & { rcode?: string }).rcode, 'NOTIMP');
});
